#include "search/ilp/IlpBuilder.h"

#include <algorithm>
#include <numeric>

#include "sim/LocalSize.h"
#include "support/Format.h"

// CBC's headers are not warning-clean under -Wall -Wextra.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "CbcModel.hpp"
#include "CoinPackedMatrix.hpp"
#include "CoinPackedVector.hpp"
#include "OsiClpSolverInterface.hpp"
#pragma GCC diagnostic pop

namespace autopart::ilp {

// Bytes live at the peak of `report` as a linear function of the strategies:
// each listed value at its local size under its group's strategy; buffers
// without a value (transient, nested regions) as measured.
Row IlpBuilder::memoryRow(const MemoryReport &report, double *least) const {
  std::map<int, std::vector<double>> perGroup;  // bytes per strategy
  double constant = 0;
  for (const LiveBuffer &b : report.liveAtPeak) {
    if (b.value == kNone || valueNode_[b.value] < 0) {
      constant += double(b.bytes);
      continue;
    }
    int gi = groupOf(b.value);
    const Group &g = groups_[size_t(gi)];
    std::vector<double> &bytes = perGroup[gi];
    bytes.resize(size_t(g.size), 0);
    for (int k = 0; k < g.size; ++k)
      bytes[size_t(k)] += double(localBytes(m_.types, m_.type(b.value), &pool_.get(shardingOf(b.value, k)), &mesh_));
  }
  Row row;
  *least = constant;
  for (const auto &[gi, bytes] : perGroup) {
    *least += *std::min_element(bytes.begin(), bytes.end());
    const Group &g = groups_[size_t(gi)];
    if (g.size == 1) {
      constant += bytes[0];
      continue;
    }
    for (int k = 0; k < g.size; ++k) {
      row.columns.push_back(g.firstColumn + k);
      row.values.push_back(bytes[size_t(k)] * kMemoryScale);
    }
  }
  row.lower = -COIN_DBL_MAX;
  row.upper = (device_.hbmCapacity - constant) * kMemoryScale;
  return row;
}

ShardingMap IlpBuilder::planMap(const std::vector<int> &choice) const {
  ShardingMap map;
  map.addMesh(meshName_, mesh_);
  for (ValueId v = 0; v < valueNode_.size(); ++v)
    if (valueNode_[v] >= 0) map.set(v, pool_.get(shardingOf(v, choice[size_t(groupOf(v))])));
  return map;
}

double IlpBuilder::objectiveOf(const std::vector<int> &choice) const {
  double t = 0;
  for (size_t g = 0; g < groups_.size(); ++g) t += groups_[g].cost[size_t(choice[g])];
  for (const Edge &e : edges_) t += edgeCost(e, choice);
  return t;
}

// Slicing is free in the cost model, so an argument's (or constant's)
// sharding often does not change the step time: among the equally fast
// ones, take the one with the fewest bytes (consumers decide, the value
// follows). Only groups made of value nodes, whose bytes are all they cost.
void IlpBuilder::polishValues(std::vector<int> &choice) const {
  std::vector<std::vector<size_t>> incident(groups_.size());
  for (size_t i = 0; i < edges_.size(); ++i) {
    incident[size_t(edges_[i].producer)].push_back(i);
    incident[size_t(edges_[i].consumer)].push_back(i);
  }
  for (size_t gi = 0; gi < groups_.size(); ++gi) {
    const Group &g = groups_[gi];
    if (g.size == 1 || std::any_of(g.members.begin(), g.members.end(),
                                   [&](int n) { return nodes_[size_t(n)].kind != Node::Kind::Value; }))
      continue;
    auto costAt = [&](int k) {
      std::vector<int> &c = const_cast<std::vector<int> &>(choice);
      int saved = c[gi];
      c[gi] = k;
      double t = g.cost[size_t(k)];
      for (size_t e : incident[gi]) t += edgeCost(edges_[e], c);
      c[gi] = saved;
      return t;
    };
    auto bytesAt = [&](int k) {
      double b = 0;
      for (int n : g.members)
        for (size_t d = 0; d < nodes_[size_t(n)].defs.size(); ++d)
          b += double(localBytes(m_.types, m_.type(nodes_[size_t(n)].defs[d]),
                                 &pool_.get(nodes_[size_t(n)].defShardings[d][size_t(k)]), &mesh_));
      return b;
    };
    double best = costAt(choice[gi]), bestBytes = bytesAt(choice[gi]);
    for (int k = 0; k < g.size; ++k) {
      double t = costAt(k), b = bytesAt(k);
      if (t < best - 1e-15 || (t <= best + 1e-15 && b < bestBytes)) {
        best = std::min(best, t);
        bestBytes = b;
        choice[gi] = k;
      }
    }
  }
}

std::optional<IlpPlan> IlpBuilder::solve(std::string *error, Clock::time_point deadline) {
  auto t0 = Clock::now();
  IlpPlan plan;
  plan.warnings = warnings_;
  plan.numOps = numOps_;
  plan.numGroups = int64_t(groups_.size());
  plan.numEdges = int64_t(edges_.size());

  // Columns: strategies of groups with a choice, then edge classes.
  std::vector<double> obj, lower, upper;
  std::vector<bool> integer;
  double constant = 0;
  for (Group &g : groups_) {
    if (g.size == 1) {
      constant += g.cost[0];
      continue;
    }
    g.firstColumn = int(obj.size());
    for (int k = 0; k < g.size; ++k) {
      obj.push_back(g.cost[size_t(k)] * kObjectiveScale);
      lower.push_back(0);
      upper.push_back(1);
      integer.push_back(true);
    }
  }
  for (Edge &e : edges_) {
    e.firstColumn = int(obj.size());
    for (double c : e.cost) {
      obj.push_back(c * kObjectiveScale);
      lower.push_back(0);
      upper.push_back(1);
      integer.push_back(false);
    }
  }
  std::vector<Row> rows;
  for (const Group &g : groups_) {
    if (g.size == 1) continue;
    Row r;
    for (int k = 0; k < g.size; ++k) {
      r.columns.push_back(g.firstColumn + k);
      r.values.push_back(1);
    }
    r.lower = r.upper = 1;
    rows.push_back(std::move(r));
  }
  // Alpa's linearisation of x_p,a · x_c,b: the edge's columns are a joint
  // distribution whose marginals are the two one-hot strategy vectors. One
  // row per class `c` of one side: the edge columns with that class sum to
  // the side's strategies in it.
  auto marginalRow = [&](const Edge &e, bool producerSide, int c) {
    const Group &g = groups_[size_t(producerSide ? e.producer : e.consumer)];
    const std::vector<int> &classes = producerSide ? e.producerClass : e.consumerClass;
    Row r;
    for (int o = 0; o < (producerSide ? e.numB : e.numA); ++o) {
      r.columns.push_back(e.firstColumn + (producerSide ? c * e.numB + o : o * e.numB + c));
      r.values.push_back(1);
    }
    for (int k = 0; k < g.size; ++k)
      if (classes[size_t(k)] == c) {
        r.columns.push_back(g.firstColumn + k);
        r.values.push_back(-1);
      }
    rows.push_back(std::move(r));
  };
  for (const Edge &e : edges_) {
    for (int a = 0; a < e.numA; ++a) marginalRow(e, true, a);
    for (int b = 0; b < e.numB; ++b) marginalRow(e, false, b);
  }
  size_t structuralRows = rows.size();
  plan.buildSeconds = since(t0);

  // The memory walk of a plan given by one strategy per group.
  std::vector<int> choice(groups_.size(), 0);
  auto memoryOf = [&]() { return analyzeMemory(m_, func_, planMap(choice)); };
  std::vector<std::vector<ValueId>> memorySets;
  // False when the same live set is already a row. `least` is the fewest
  // bytes that set can take (each group at its smallest strategy).
  auto addMemoryRow = [&](const MemoryReport &report, double *least) {
    std::vector<ValueId> set;
    for (const LiveBuffer &b : report.liveAtPeak) set.push_back(b.value);
    std::sort(set.begin(), set.end());
    if (std::find(memorySets.begin(), memorySets.end(), set) != memorySets.end()) return false;
    memorySets.push_back(set);
    rows.push_back(memoryRow(report, least));
    return true;
  };
  auto noFit = [&](double least) {
    return "no plan fits in " + std::to_string(int64_t(device_.hbmCapacity)) +
           " bytes of device memory: the buffers live at the peak need at least " +
           std::to_string(int64_t(least)) + " bytes per device even sharded as far as this mesh allows";
  };

  if (opts_.memoryConstraint) {
    MemoryReport rep = memoryOf();  // everything replicated
    double least = 0;
    if (double(rep.peakBytes) > device_.hbmCapacity && addMemoryRow(rep, &least) && least > device_.hbmCapacity) {
      *error = noFit(least);
      return std::nullopt;
    }
  }

  for (int round = 0;; ++round) {
    // Row-ordered, built in one piece (appending rows one by one is
    // quadratic in CoinPackedMatrix).
    auto tm = Clock::now();
    std::vector<CoinBigIndex> starts;
    std::vector<int> lengths, indices;
    std::vector<double> elements, rowLower, rowUpper;
    for (const Row &r : rows) {
      starts.push_back(CoinBigIndex(indices.size()));
      lengths.push_back(int(r.columns.size()));
      indices.insert(indices.end(), r.columns.begin(), r.columns.end());
      elements.insert(elements.end(), r.values.begin(), r.values.end());
      rowLower.push_back(r.lower);
      rowUpper.push_back(r.upper);
    }
    CoinPackedMatrix matrix(false, int(obj.size()), int(rows.size()), CoinBigIndex(elements.size()),
                            elements.data(), indices.data(), starts.data(), lengths.data());
    plan.buildSeconds += since(tm);
    plan.numVariables = int64_t(obj.size());
    plan.numBinaries = std::count(integer.begin(), integer.end(), true);
    plan.numConstraints = int64_t(rows.size());
    plan.memoryRows = int64_t(rows.size() - structuralRows);

    auto ts = Clock::now();
    std::vector<double> solution;
    double bound = 0;
    bool optimal = false;
    if (!obj.empty()) {
      OsiClpSolverInterface solver;
      solver.messageHandler()->setLogLevel(0);
      solver.loadProblem(matrix, lower.data(), upper.data(), obj.data(), rowLower.data(), rowUpper.data());
      for (size_t c = 0; c < integer.size(); ++c)
        if (integer[c]) solver.setInteger(int(c));
      // What is left of the whole budget (the build and earlier memory
      // rounds took the rest), on the wall clock: CBC counts CPU seconds by
      // default, which on a loaded machine run well past it, and its limit
      // does not bound the root LP, which Clp solves before any branching
      // (gpt_tiny: 2.75 s against a 0.5 s limit), so Clp gets it too.
      double left = std::max(0.01, std::chrono::duration<double>(deadline - Clock::now()).count());
      solver.getModelPtr()->setMaximumWallSeconds(left);
      CbcModel model(solver);
      model.setLogLevel(0);
      model.messageHandler()->setLogLevel(0);
      model.setUseElapsedTime(true);
      model.setMaximumSeconds(left);
      model.branchAndBound();
      plan.solveSeconds += since(ts);
      ++plan.solves;
      // A root LP cut short by the time limit reads as infeasible to CBC.
      bool outOfTime = model.isSecondsLimitReached() || model.isInitialSolveAbandoned() ||
                       since(ts) >= left || Clock::now() >= deadline;
      bool infeasible = model.isProvenInfeasible() && !outOfTime;
      if (round > 0 && !infeasible && !model.bestSolution()) {
        // Out of time in a memory round: the previous round's plan stands.
        plan.warnings.push_back("the time limit ended memory round " + std::to_string(round + 1) +
                                "; the plan is the previous round's, over the capacity");
        break;
      }
      if (infeasible || !model.bestSolution()) {
        *error = infeasible
                     ? "no plan fits in " + std::to_string(int64_t(device_.hbmCapacity)) +
                           " bytes of device memory on this mesh (the ILP is infeasible)"
                     : "CBC found no plan within the " + formatSeconds(opts_.timeLimitSeconds) + " time limit";
        return std::nullopt;
      }
      solution.assign(model.bestSolution(), model.bestSolution() + obj.size());
      bound = model.getBestPossibleObjValue() / kObjectiveScale;
      optimal = model.isProvenOptimal();
    } else {
      optimal = true;
      ++plan.solves;
    }
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
      const Group &g = groups_[gi];
      choice[gi] = 0;
      if (g.size == 1) continue;
      for (int k = 0; k < g.size; ++k)
        if (solution[size_t(g.firstColumn + k)] > 0.5) choice[gi] = k;
    }
    polishValues(choice);
    // Recomputed from the strategies: CBC's value carries its tolerances.
    plan.objectiveSeconds = objectiveOf(choice);
    plan.boundSeconds = bound + constant;
    plan.provedOptimal = optimal;

    std::vector<double> chosen(obj.size(), 0);
    for (size_t gi = 0; gi < groups_.size(); ++gi)
      if (groups_[gi].size > 1) chosen[size_t(groups_[gi].firstColumn + choice[gi])] = 1;
    plan.memoryEstimateBytes = 0;
    for (size_t i = structuralRows; i < rows.size(); ++i) {
      double used = 0;
      for (size_t j = 0; j < rows[i].columns.size(); ++j) used += rows[i].values[j] * chosen[size_t(rows[i].columns[j])];
      plan.memoryEstimateBytes = std::max(plan.memoryEstimateBytes, (used - rows[i].upper) / kMemoryScale + device_.hbmCapacity);
    }
    if (!opts_.memoryConstraint) break;
    MemoryReport rep = memoryOf();
    plan.memoryEstimateBytes = std::max(plan.memoryEstimateBytes, double(rep.peakBytes));
    plan.memoryFits = double(rep.peakBytes) <= device_.hbmCapacity;
    if (plan.memoryFits) break;
    double least = 0;
    bool added = addMemoryRow(rep, &least);
    if (added && least > device_.hbmCapacity) {
      *error = noFit(least);
      return std::nullopt;
    }
    if (!added || round + 1 >= opts_.memoryRounds) {
      plan.warnings.push_back("the plan's peak memory (" + std::to_string(rep.peakBytes) +
                              " bytes) exceeds the capacity after " + std::to_string(round + 1) + " solve(s)");
      break;
    }
  }

  plan.shardings.assign(m_.values.size(), std::nullopt);
  for (ValueId v = 0; v < valueNode_.size(); ++v)
    if (valueNode_[v] >= 0) plan.shardings[v] = pool_.get(shardingOf(v, choice[size_t(groupOf(v))]));
  return plan;
}

}  // namespace autopart::ilp
