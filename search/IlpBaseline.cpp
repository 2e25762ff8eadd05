#include "search/IlpBaseline.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>
#include <unordered_map>

#include "lower/AnnotateModule.h"
#include "rules/OpShardingRuleRegistry.h"
#include "sim/CollectiveCost.h"
#include "sim/CommonFactorSharding.h"
#include "sim/CostModel.h"
#include "propagation/FactorProjection.h"
#include "sim/Flops.h"
#include "sim/LocalSize.h"

// CBC's headers are not warning-clean under -Wall -Wextra.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "CbcModel.hpp"
#include "CoinPackedMatrix.hpp"
#include "CoinPackedVector.hpp"
#include "OsiClpSolverInterface.hpp"
#pragma GCC diagnostic pop

namespace autopart {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The objective is scaled to microseconds and memory rows to gigabytes so
// that CBC's absolute tolerances (1e-7..1e-6) stay below anything that
// matters.
constexpr double kObjectiveScale = 1e6;
constexpr double kMemoryScale = 1e-9;

using ShardingId = int32_t;

// Distinct shardings, so strategies, edge classes and the reshard-cost cache
// compare small integers.
class ShardingPool {
public:
  ShardingId intern(TensorSharding s) {
    std::string key = s.strBody();
    auto [it, inserted] = index_.try_emplace(std::move(key), ShardingId(list_.size()));
    if (inserted) list_.push_back(std::move(s));
    return it->second;
  }
  const TensorSharding &get(ShardingId id) const { return list_[size_t(id)]; }

private:
  std::vector<TensorSharding> list_;
  std::unordered_map<std::string, ShardingId> index_;
};

// A value an ILP node reads, and the sharding it wants it in under each
// strategy of the node's group.
struct Input {
  ValueId value = kNone;
  double weight = -1;  // executions; < 0: the reading node's multiplier
  std::vector<ShardingId> wanted;
};

// One decision unit: an op with a rule (its strategies are factor
// assignments), a value without a defining op node (an argument, a constant,
// a call or loop boundary: its strategies are shardings), or a fixed op
// (no rule: replicated) or sink (a function result with a given sharding).
struct Node {
  enum class Kind : uint8_t { Op, Value, Fixed } kind = Kind::Value;
  OpId op = kNone;
  int group = -1;
  double multiplier = 0;           // executions per step (ops)
  std::vector<double> opCost;      // seconds per execution, per strategy (ops)
  std::vector<ValueId> defs;       // values it decides
  std::vector<std::vector<ShardingId>> defShardings;  // [def][strategy]
  std::vector<Input> inputs;
};

struct Group {
  int size = 1;               // strategies
  std::vector<double> cost;   // seconds, per strategy
  int firstColumn = -1;       // binary columns when size > 1
  std::vector<int> members;   // nodes
};

// A producer -> consumer edge whose cost depends on both strategies; the
// strategies are folded into classes (distinct producer shardings, distinct
// wanted shardings) so an edge has |A|·|B| columns, not |Kp|·|Kc|.
struct Edge {
  int producer = -1, consumer = -1;  // groups
  std::vector<int> producerClass, consumerClass;  // per strategy
  int numA = 0, numB = 0;
  std::vector<double> cost;  // [a * numB + b], seconds
  int firstColumn = -1;
};

struct Row {
  std::vector<int> columns;
  std::vector<double> values;
  double lower = 0, upper = 0;
};

class IlpBuilder {
public:
  IlpBuilder(const Module &m, OpId func, const Mesh &mesh, const std::string &meshName,
             const DeviceParams &device, const IlpOptions &opts)
      : m_(m), func_(func), mesh_(mesh), meshName_(meshName), device_(device), opts_(opts) {
    scratch_.addMesh(meshName, mesh);
    valueNode_.assign(m.values.size(), -1);
    valueDef_.assign(m.values.size(), 0);
  }

  void build(const Simulator &sim);
  std::optional<IlpPlan> solve(std::string *error);

private:
  bool shardable(ValueId v) const {
    TypeId t = m_.type(v);
    return m_.types.isTensor(t) && !m_.types.hasDynamicDim(t);
  }
  TensorSharding replicated(ValueId v) const {
    return TensorSharding::closed(meshName_, size_t(std::max<int64_t>(0, m_.types.rank(m_.type(v)))));
  }
  ShardingId shardingOf(ValueId v, int k) const {
    const Node &n = nodes_[size_t(valueNode_[v])];
    return n.defShardings[valueDef_[v]][size_t(k)];
  }
  int groupOf(ValueId v) const { return valueNode_[v] < 0 ? -1 : nodes_[size_t(valueNode_[v])].group; }
  int newGroup(int size) {
    groups_.push_back({size, std::vector<double>(size_t(size), 0), -1, {}});
    return int(groups_.size() - 1);
  }
  int addNode(Node n) {
    int id = int(nodes_.size());
    groups_[size_t(n.group)].members.push_back(id);
    for (size_t d = 0; d < n.defs.size(); ++d) {
      valueNode_[n.defs[d]] = id;
      valueDef_[n.defs[d]] = uint32_t(d);
    }
    nodes_.push_back(std::move(n));
    return id;
  }

  std::vector<TensorSharding> enumerateShardings(ValueId v) const;
  int addValueNode(const std::vector<ValueId> &defs, ValueId follow);
  int nodeFor(ValueId v);
  void addOpNode(OpId op, const OpShardingRule &rule, double multiplier);
  void addFixedNode(OpId op, double multiplier);
  void addSink(ValueId v, const TensorSharding *target, double weight);
  void addInput(int node, ValueId v, double weight);
  double reshardSeconds(ValueId v, ShardingId from, ShardingId to);
  void buildEdges();
  Row memoryRow(const MemoryReport &report, double *least) const;
  ShardingMap planMap(const std::vector<int> &choice) const;
  double edgeCost(const Edge &e, const std::vector<int> &choice) const {
    return e.cost[size_t(e.producerClass[size_t(choice[size_t(e.producer)])] * e.numB +
                         e.consumerClass[size_t(choice[size_t(e.consumer)])])];
  }
  double objectiveOf(const std::vector<int> &choice) const;
  void polishValues(std::vector<int> &choice) const;

  const Module &m_;
  OpId func_;
  const Mesh &mesh_;
  std::string meshName_;
  const DeviceParams &device_;
  const IlpOptions &opts_;
  ShardingPool pool_;
  ShardingMap scratch_;
  std::vector<Node> nodes_;
  std::vector<Group> groups_;
  std::vector<Edge> edges_;
  std::vector<int> valueNode_;
  std::vector<uint32_t> valueDef_;
  std::map<OpId, int> opNode_;
  std::map<OpId, std::vector<int>> loopTies_;  // while / case results
  std::vector<OpId> callStack_;
  std::map<std::tuple<TypeId, ShardingId, ShardingId>, double> reshardCache_;
  int64_t numOps_ = 0;
  std::vector<std::string> warnings_;
};

// Every sharding of `v` that puts each mesh axis on at most one dimension it
// divides (axes of one dimension in mesh order), fewest local bytes first,
// the replicated one always kept.
std::vector<TensorSharding> IlpBuilder::enumerateShardings(ValueId v) const {
  std::vector<TensorSharding> out;
  if (!shardable(v)) return {replicated(v)};
  const std::vector<int64_t> &shape = m_.types.shape(m_.type(v));
  size_t rank = shape.size(), numAxes = mesh_.axes.size();
  std::vector<int> choice(numAxes, -1);
  while (true) {
    TensorSharding s = replicated(v);
    std::vector<int64_t> per(rank, 1);
    bool ok = true;
    for (size_t a = 0; a < numAxes && ok; ++a) {
      if (choice[a] < 0) continue;
      size_t d = size_t(choice[a]);
      per[d] *= mesh_.axes[a].size;
      ok = shape[d] % per[d] == 0;
      s.dims[d].axes.push_back(AxisRef{mesh_.axes[a].name});
    }
    if (ok) out.push_back(std::move(s));
    size_t a = 0;
    for (; a < numAxes; ++a) {
      if (++choice[a] < int(rank)) break;
      choice[a] = -1;
    }
    if (a == numAxes) break;
  }
  auto bytes = [&](const TensorSharding &s) { return localBytes(m_.types, m_.type(v), &s, &mesh_); };
  std::stable_sort(out.begin() + 1, out.end(), [&](const auto &a, const auto &b) { return bytes(a) < bytes(b); });
  if (out.size() > size_t(std::max(1, opts_.maxStrategiesPerValue))) out.resize(size_t(std::max(1, opts_.maxStrategiesPerValue)));
  return out;
}

// A node deciding `defs` (values of one type). With `follow` it takes the
// sharding `follow` has under each strategy of follow's group (and joins
// that group); else its own group of enumerated shardings -- or the
// sharding an argument or result already carries.
int IlpBuilder::addValueNode(const std::vector<ValueId> &defs, ValueId follow) {
  Node n;
  n.kind = Node::Kind::Value;
  n.defs = defs;
  if (follow != kNone && opts_.mergeElementwise && valueNode_[follow] >= 0 &&
      m_.type(follow) == m_.type(defs.front())) {
    n.group = groupOf(follow);
    std::vector<ShardingId> ids(size_t(groups_[size_t(n.group)].size));
    for (size_t k = 0; k < ids.size(); ++k) ids[k] = shardingOf(follow, int(k));
    n.defShardings.assign(defs.size(), ids);
    return addNode(std::move(n));
  }
  std::vector<ShardingId> ids;
  const TensorSharding *fixed = nullptr;
  FuncView f{const_cast<Module &>(m_), func_};
  std::span<const ValueId> args = f.args();
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == defs.front()) {
      AttrId a = f.argAttr(i, "sdy.sharding");
      if (a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding) fixed = m_.attrs.get(a).sharding.get();
    }
  if (fixed) {
    TensorSharding s = *fixed;
    s.meshName = meshName_;
    ids.push_back(pool_.intern(std::move(s)));
  } else {
    for (TensorSharding &s : enumerateShardings(defs.front())) ids.push_back(pool_.intern(std::move(s)));
  }
  n.group = newGroup(int(ids.size()));
  n.defShardings.assign(defs.size(), ids);
  return addNode(std::move(n));
}

int IlpBuilder::nodeFor(ValueId v) {
  if (valueNode_[v] >= 0) return valueNode_[v];
  if (!m_.types.isTensor(m_.type(v))) return -1;
  return addValueNode({v}, kNone);
}

void IlpBuilder::addInput(int node, ValueId v, double weight) {
  if (nodeFor(v) < 0) return;
  Node &n = nodes_[size_t(node)];
  Input in;
  in.value = v;
  in.weight = weight;
  // A boundary node wants its inputs in its own sharding.
  in.wanted = n.defShardings.front();
  n.inputs.push_back(std::move(in));
}

void IlpBuilder::addSink(ValueId v, const TensorSharding *target, double weight) {
  if (nodeFor(v) < 0) return;
  Node n;
  n.kind = Node::Kind::Fixed;
  n.group = newGroup(1);
  TensorSharding t = target ? *target : replicated(v);
  t.meshName = meshName_;
  n.inputs.push_back({v, weight, {pool_.intern(std::move(t))}});
  addNode(std::move(n));
}

void IlpBuilder::addFixedNode(OpId op, double multiplier) {
  auto it = opNode_.find(op);
  if (it != opNode_.end()) {
    nodes_[size_t(it->second)].multiplier += multiplier;
    return;
  }
  Node n;
  n.kind = Node::Kind::Fixed;
  n.op = op;
  n.multiplier = multiplier;
  n.group = newGroup(1);
  for (ValueId v : m_.operands(op))
    if (nodeFor(v) >= 0) {
      scratch_.set(v, replicated(v));
      n.inputs.push_back({v, -1, {pool_.intern(replicated(v))}});
    }
  for (uint32_t r = 0; r < m_.numResults(op); ++r) {
    ValueId v = m_.result(op, r);
    if (!m_.types.isTensor(m_.type(v))) continue;
    scratch_.set(v, replicated(v));
    n.defs.push_back(v);
    n.defShardings.push_back({pool_.intern(replicated(v))});
  }
  OpCost c = costOp(m_, op, nullptr, scratch_, device_);
  n.opCost = {c.computeSeconds + c.commSeconds};
  for (ValueId v : m_.operands(op)) scratch_.clear(v);
  for (uint32_t r = 0; r < m_.numResults(op); ++r) scratch_.clear(m_.result(op, r));
  opNode_[op] = addNode(std::move(n));
  ++numOps_;
}

// Strategies of an op: each mesh axis on at most one pass-through or
// reduction factor that it divides (with the axes of a factor in mesh
// order), or -- for an elementwise op following its producer -- the factor
// sharding its producer's result has under each of the producer's strategies.
void IlpBuilder::addOpNode(OpId op, const OpShardingRule &rule, double multiplier) {
  auto it = opNode_.find(op);
  if (it != opNode_.end()) {
    nodes_[size_t(it->second)].multiplier += multiplier;
    return;
  }
  uint32_t numOperands = m_.numOperands(op), numResults = m_.numResults(op);
  for (ValueId v : m_.operands(op)) nodeFor(v);
  std::vector<TensorFactorShardings> empty;
  for (uint32_t t = 0; t < numOperands + numResults; ++t)
    empty.push_back(projectTensor(nullptr, t < numOperands ? rule.operands[t] : rule.results[t - numOperands], rule, mesh_));
  double flops = opFlops(m_, op);

  struct Strategy {
    std::vector<ShardingId> ids;  // operands then results
    double cost = 0;
  };
  auto makeStrategy = [&](const AxesPerFactor &fa) {
    Strategy s;
    for (uint32_t t = 0; t < numOperands + numResults; ++t) {
      ValueId v = t < numOperands ? m_.operand(op, t) : m_.result(op, t - numOperands);
      TensorFactorShardings tfs = empty[t];
      for (size_t f = 0; f < rule.numFactors(); ++f)
        if (tfs.has(f)) tfs.factors[f].axes = fa[f];
      TensorSharding sh = unprojectTensor(tfs, t < numOperands ? rule.operands[t] : rule.results[t - numOperands], meshName_, mesh_);
      if (m_.types.isTensor(m_.type(v))) scratch_.set(v, sh);
      s.ids.push_back(pool_.intern(std::move(sh)));
    }
    OpCost c = costOp(m_, op, &rule, scratch_, device_, nullptr, &flops);
    s.cost = c.computeSeconds + c.commSeconds;
    return s;
  };

  Node n;
  n.kind = Node::Kind::Op;
  n.op = op;
  n.multiplier = multiplier;
  std::vector<Strategy> strategies;

  // Follow: an elementwise op whose operand has the result's type and layout.
  ValueId follow = kNone;
  bool elementwise = opts_.mergeElementwise && numResults == 1 && rule.reductionFactors.empty() &&
                     rule.needReplicationFactors.empty() && rule.permutationFactors.empty() &&
                     shardable(m_.result(op));
  for (int pass = 0; elementwise && pass < 2 && follow == kNone; ++pass)
    for (uint32_t j = 0; j < numOperands && follow == kNone; ++j) {
      ValueId v = m_.operand(op, j);
      if (m_.type(v) != m_.type(m_.result(op)) || rule.operands[j] != rule.results[0] || valueNode_[v] < 0) continue;
      // Prefer a value an op computes over an argument or constant.
      if (pass == 0 && nodes_[size_t(valueNode_[v])].kind != Node::Kind::Op) continue;
      follow = v;
    }
  if (follow != kNone) {
    n.group = groupOf(follow);
    uint32_t j = 0;
    while (m_.operand(op, j) != follow) ++j;
    for (int k = 0; k < groups_[size_t(n.group)].size; ++k) {
      TensorFactorShardings p = projectTensor(&pool_.get(shardingOf(follow, k)), rule.operands[j], rule, mesh_);
      AxesPerFactor fa(rule.numFactors());
      for (size_t f = 0; f < rule.numFactors(); ++f)
        if (p.has(f)) fa[f] = p.factors[f].axes;
      strategies.push_back(makeStrategy(fa));
    }
  } else {
    std::vector<int> allowed;
    for (size_t f = 0; f < rule.numFactors(); ++f) {
      FactorKind kind = rule.kind(int32_t(f));
      if ((kind == FactorKind::PassThrough || kind == FactorKind::Reduction) && rule.factorSizes[f] > 1)
        allowed.push_back(int(f));
    }
    size_t numAxes = mesh_.axes.size();
    std::vector<int> choice(numAxes, -1);
    std::map<std::vector<ShardingId>, size_t> seen;
    while (true) {
      AxesPerFactor fa(rule.numFactors());
      std::vector<int64_t> per(rule.numFactors(), 1);
      bool ok = true;
      for (size_t a = 0; a < numAxes && ok; ++a) {
        if (choice[a] < 0) continue;
        size_t f = size_t(allowed[size_t(choice[a])]);
        per[f] *= mesh_.axes[a].size;
        ok = rule.factorSizes[f] % per[f] == 0;
        fa[f].push_back(AxisRef{mesh_.axes[a].name});
      }
      if (ok) {
        Strategy s = makeStrategy(fa);
        // Identical shardings of every operand and result: keep the cheaper.
        auto [pos, inserted] = seen.try_emplace(s.ids, strategies.size());
        if (inserted)
          strategies.push_back(std::move(s));
        else if (s.cost < strategies[pos->second].cost)
          strategies[pos->second] = std::move(s);
      }
      size_t a = 0;
      for (; a < numAxes; ++a) {
        if (++choice[a] < int(allowed.size())) break;
        choice[a] = -1;
      }
      if (a == numAxes) break;
    }
    // strategies[0] is the replicated one; keep it and the cheapest others.
    std::stable_sort(strategies.begin() + 1, strategies.end(),
                     [](const Strategy &a, const Strategy &b) { return a.cost < b.cost; });
    size_t cap = size_t(std::max(1, opts_.maxStrategiesPerOp));
    if (strategies.size() > cap) strategies.resize(cap);
    n.group = newGroup(int(strategies.size()));
  }
  for (ValueId v : m_.operands(op)) scratch_.clear(v);
  for (uint32_t r = 0; r < numResults; ++r) scratch_.clear(m_.result(op, r));

  for (const Strategy &s : strategies) n.opCost.push_back(s.cost);
  for (uint32_t j = 0; j < numOperands; ++j) {
    ValueId v = m_.operand(op, j);
    if (valueNode_[v] < 0) continue;
    Input in{v, -1, {}};
    for (const Strategy &s : strategies) in.wanted.push_back(s.ids[j]);
    n.inputs.push_back(std::move(in));
  }
  for (uint32_t r = 0; r < numResults; ++r) {
    ValueId v = m_.result(op, r);
    if (!m_.types.isTensor(m_.type(v))) continue;
    n.defs.push_back(v);
    std::vector<ShardingId> ids;
    for (const Strategy &s : strategies) ids.push_back(s.ids[numOperands + r]);
    n.defShardings.push_back(std::move(ids));
  }
  opNode_[op] = addNode(std::move(n));
  ++numOps_;
}

void IlpBuilder::build(const Simulator &sim) {
  FuncView f{const_cast<Module &>(m_), func_};
  for (ValueId a : f.args()) nodeFor(a);
  for (const Simulator::Site &site : sim.sites()) {
    OpId op = site.op;
    std::string_view name = m_.opName(op);
    double mult = site.multiplier;
    if (name == "func.return") {
      OpId owner = m_.parentOp(op);
      if (owner == func_) {
        for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
          AttrId a = f.resultAttr(i, "sdy.sharding");
          const TensorSharding *target =
              a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
          if (target || !opts_.freeResultShardings) addSink(m_.operand(op, i), target, mult);
          // Carried state: the argument's node wants the returned value in
          // its sharding, as the simulator charges the next call's reshard.
          // (With a declared result sharding the simulator charges it from
          // there; the ILP leaves that constant-per-argument term out.)
          ValueId carriedArg = i < sim.carriedArguments().size() ? sim.carriedArguments()[i] : kNone;
          if (carriedArg != kNone && !target && opts_.freeResultShardings && nodeFor(carriedArg) >= 0)
            addInput(nodeFor(carriedArg), m_.operand(op, i), mult);
        }
      } else if (!callStack_.empty()) {
        // The callee's results become the call's results.
        OpId call = callStack_.back();
        std::string sym = m_.attrs.str(m_.attr(call, "callee"));
        if (!sym.empty() && sym[0] == '@') sym.erase(0, 1);
        if (m_.lookupSymbol(sym) != owner) continue;
        callStack_.pop_back();
        for (uint32_t i = 0; i < m_.numResults(call) && i < m_.numOperands(op); ++i) {
          ValueId r = m_.result(call, i), ret = m_.operand(op, i);
          if (valueNode_[r] >= 0 || nodeFor(ret) < 0 || !shardable(r)) continue;
          int node = addValueNode({r}, ret);
          addInput(node, ret, mult);
        }
      }
      continue;
    }
    if (name == "stablehlo.return") {
      // Loop-carried values and branch results take the returned values.
      OpId owner = m_.parentOp(op);
      auto it = loopTies_.find(owner);
      if (it == loopTies_.end()) continue;
      bool isCond = m_.isa(owner, "stablehlo.while") &&
                    m_.blocks[m_.ops[op].parent].parent == m_.region(owner, 0);
      if (isCond) continue;
      for (uint32_t i = 0; i < m_.numOperands(op) && i < it->second.size(); ++i)
        if (it->second[i] >= 0) addInput(it->second[i], m_.operand(op, i), mult);
      continue;
    }
    if (name == "func.call") {
      AttrId callee = m_.attr(op, "callee");
      std::string sym = callee == kNoAttr ? "" : m_.attrs.str(callee);
      if (!sym.empty() && sym[0] == '@') sym.erase(0, 1);
      OpId target = sym.empty() ? kNone : m_.lookupSymbol(sym);
      if (target == kNone || !m_.isa(target, "func.func") || m_.numRegions(target) == 0) {
        addFixedNode(op, mult);
        continue;
      }
      std::span<const ValueId> params = FuncView{const_cast<Module &>(m_), target}.args();
      for (uint32_t i = 0; i < m_.numOperands(op) && i < params.size(); ++i) {
        ValueId in = m_.operand(op, i);
        if (!shardable(params[i]) || nodeFor(in) < 0) continue;
        int node = valueNode_[params[i]] >= 0 ? valueNode_[params[i]] : addValueNode({params[i]}, in);
        addInput(node, in, mult);
      }
      callStack_.push_back(op);
      continue;
    }
    if (name == "stablehlo.while" || name == "stablehlo.optimization_barrier") {
      std::vector<int> ties;
      for (uint32_t i = 0; i < m_.numResults(op) && i < m_.numOperands(op); ++i) {
        ValueId in = m_.operand(op, i), r = m_.result(op, i);
        std::vector<ValueId> defs{r};
        for (uint32_t reg = 0; reg < m_.numRegions(op); ++reg)
          for (BlockId b : m_.regions[m_.region(op, reg)].blocks)
            if (i < m_.blocks[b].args.size()) defs.push_back(m_.blocks[b].args[i]);
        if (!shardable(r) || nodeFor(in) < 0 || valueNode_[r] >= 0) {
          ties.push_back(valueNode_[r]);
          continue;
        }
        int node = addValueNode(defs, in);
        addInput(node, in, mult);
        ties.push_back(node);
      }
      loopTies_[op] = std::move(ties);
      continue;
    }
    if (name == "stablehlo.case" || name == "stablehlo.if") {
      std::vector<int> ties;
      for (uint32_t i = 0; i < m_.numResults(op); ++i) {
        ValueId r = m_.result(op, i);
        ties.push_back(shardable(r) && valueNode_[r] < 0 ? addValueNode({r}, kNone) : valueNode_[r]);
      }
      loopTies_[op] = std::move(ties);
      continue;
    }
    if (name == "sdy.reshard" || name == "sdy.sharding_constraint") {
      // Treated as free choices: the plan replaces the input's constraints.
      ValueId in = m_.operand(op, 0), r = m_.result(op);
      if (shardable(r) && valueNode_[r] < 0 && nodeFor(in) >= 0) addInput(addValueNode({r}, kNone), in, mult);
      continue;
    }
    std::optional<OpShardingRule> rule = getOpShardingRule(m_, op);
    if (rule && rule->operands.size() == m_.numOperands(op) && rule->results.size() == m_.numResults(op)) {
      addOpNode(op, *rule, mult);
      continue;
    }
    if (m_.numResults(op) == 0 && m_.numRegions(op) == 0) continue;
    bool producesOnly = m_.numOperands(op) == 0 || name == "stablehlo.get_tuple_element";
    if (producesOnly || name == "stablehlo.constant" || name == "stablehlo.iota") {
      // Constants, iota, ...: free in the simulator; any sharding.
      for (uint32_t r = 0; r < m_.numResults(op); ++r) nodeFor(m_.result(op, r));
      continue;
    }
    if (m_.numRegions(op) && !m_.isa(op, "stablehlo.reduce") && !rule)
      warnings_.push_back(m_.where(op) + ": " + std::string(name) + " kept replicated (no rule)");
    addFixedNode(op, mult);
  }
  buildEdges();
}

double IlpBuilder::reshardSeconds(ValueId v, ShardingId from, ShardingId to) {
  if (from == to) return 0;
  auto key = std::make_tuple(m_.type(v), from, to);
  auto it = reshardCache_.find(key);
  if (it != reshardCache_.end()) return it->second;
  double s = 0;
  for (const Collective &c : reshardCollectives(m_.types, m_.type(v), &pool_.get(from), &pool_.get(to), mesh_, v))
    s += collectiveSeconds(c, mesh_, device_);
  reshardCache_.emplace(key, s);
  return s;
}

void IlpBuilder::buildEdges() {
  for (Node &n : nodes_)
    if (!n.opCost.empty())
      for (size_t k = 0; k < n.opCost.size(); ++k) groups_[size_t(n.group)].cost[k] += n.opCost[k] * n.multiplier;
  std::map<std::pair<int, int>, std::vector<size_t>> byPair;
  for (const Node &n : nodes_) {
    int gc = n.group;
    for (const Input &in : n.inputs) {
      double w = in.weight >= 0 ? in.weight : n.multiplier;
      if (w <= 0 || valueNode_[in.value] < 0) continue;
      int gp = groupOf(in.value);
      int kp = groups_[size_t(gp)].size, kc = groups_[size_t(gc)].size;
      if (gp == gc) {
        for (int k = 0; k < kc; ++k)
          groups_[size_t(gc)].cost[size_t(k)] += w * reshardSeconds(in.value, shardingOf(in.value, k), in.wanted[size_t(k)]);
        continue;
      }
      // Classes: distinct producer shardings (A) and distinct wanted ones (B).
      Edge e;
      e.producer = gp;
      e.consumer = gc;
      std::vector<ShardingId> a, b;
      auto classOf = [](std::vector<ShardingId> &list, ShardingId id) {
        auto it = std::find(list.begin(), list.end(), id);
        if (it != list.end()) return int(it - list.begin());
        list.push_back(id);
        return int(list.size() - 1);
      };
      for (int k = 0; k < kp; ++k) e.producerClass.push_back(classOf(a, shardingOf(in.value, k)));
      for (int k = 0; k < kc; ++k) e.consumerClass.push_back(classOf(b, in.wanted[size_t(k)]));
      e.numA = int(a.size());
      e.numB = int(b.size());
      e.cost.resize(a.size() * b.size());
      bool any = false;
      for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < b.size(); ++j) {
          e.cost[i * b.size() + j] = w * reshardSeconds(in.value, a[i], b[j]);
          any |= e.cost[i * b.size() + j] > 0;
        }
      if (!any) continue;
      // A cost that depends on one side only is a cost of that side's strategy.
      if (e.numA == 1) {
        for (int k = 0; k < kc; ++k) groups_[size_t(gc)].cost[size_t(k)] += e.cost[size_t(e.consumerClass[size_t(k)])];
        continue;
      }
      if (e.numB == 1) {
        for (int k = 0; k < kp; ++k) groups_[size_t(gp)].cost[size_t(k)] += e.cost[size_t(e.producerClass[size_t(k)]) * size_t(e.numB)];
        continue;
      }
      // Same groups and the same classes as an earlier edge: one edge.
      bool merged = false;
      for (size_t idx : byPair[{gp, gc}]) {
        Edge &old = edges_[idx];
        if (old.producerClass != e.producerClass || old.consumerClass != e.consumerClass) continue;
        for (size_t i = 0; i < e.cost.size(); ++i) old.cost[i] += e.cost[i];
        merged = true;
        break;
      }
      if (merged) continue;
      byPair[{gp, gc}].push_back(edges_.size());
      edges_.push_back(std::move(e));
    }
  }
}

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

std::optional<IlpPlan> IlpBuilder::solve(std::string *error) {
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
  // distribution whose marginals are the two one-hot strategy vectors.
  for (const Edge &e : edges_) {
    const Group &gp = groups_[size_t(e.producer)], &gc = groups_[size_t(e.consumer)];
    for (int a = 0; a < e.numA; ++a) {
      Row r;
      for (int b = 0; b < e.numB; ++b) {
        r.columns.push_back(e.firstColumn + a * e.numB + b);
        r.values.push_back(1);
      }
      for (int k = 0; k < gp.size; ++k)
        if (e.producerClass[size_t(k)] == a) {
          r.columns.push_back(gp.firstColumn + k);
          r.values.push_back(-1);
        }
      rows.push_back(std::move(r));
    }
    for (int b = 0; b < e.numB; ++b) {
      Row r;
      for (int a = 0; a < e.numA; ++a) {
        r.columns.push_back(e.firstColumn + a * e.numB + b);
        r.values.push_back(1);
      }
      for (int k = 0; k < gc.size; ++k)
        if (e.consumerClass[size_t(k)] == b) {
          r.columns.push_back(gc.firstColumn + k);
          r.values.push_back(-1);
        }
      rows.push_back(std::move(r));
    }
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
      CbcModel model(solver);
      model.setLogLevel(0);
      model.messageHandler()->setLogLevel(0);
      model.setMaximumSeconds(opts_.timeLimitSeconds);
      model.branchAndBound();
      plan.solveSeconds += since(ts);
      ++plan.solves;
      if (model.isProvenInfeasible() || !model.bestSolution()) {
        *error = model.isProvenInfeasible()
                     ? "no plan fits in " + std::to_string(int64_t(device_.hbmCapacity)) +
                           " bytes of device memory on this mesh (the ILP is infeasible)"
                     : "CBC found no plan within " + std::to_string(opts_.timeLimitSeconds) + " s";
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

}  // namespace

std::optional<IlpPlan> solveIlpPlan(const Module &m, OpId func, const Mesh &mesh, const std::string &meshName,
                                    const DeviceParams &device, const IlpOptions &opts, std::string *error) {
  std::string ignored;
  if (!error) error = &ignored;
  if (func == kNone || !m.isa(func, "func.func") || m.numRegions(func) == 0) {
    *error = "no function with a body to plan";
    return std::nullopt;
  }
  if (mesh.axes.empty()) {
    *error = "the mesh has no axes";
    return std::nullopt;
  }
  auto t0 = Clock::now();
  ShardingMap empty;
  empty.addMesh(meshName, mesh);
  SimOptions so;
  so.entry = std::string(FuncView{const_cast<Module &>(m), func}.name());
  so.unknownTripCount = opts.unknownTripCount;
  Simulator sim(m, empty, device, so);
  if (sim.entry() != func) {
    *error = "function '" + so.entry + "' not found";
    return std::nullopt;
  }
  IlpBuilder builder(m, func, mesh, meshName, device, opts);
  builder.build(sim);
  double buildSeconds = since(t0);
  std::optional<IlpPlan> plan = builder.solve(error);
  if (plan) plan->buildSeconds += buildSeconds;
  return plan;
}

IlpPlanSimulation simulateIlpPlan(Module &m, OpId func, const IlpPlan &plan, const Mesh &mesh,
                                  const std::string &meshName, const DeviceParams &device,
                                  const IlpOptions &opts) {
  setModuleMesh(m, meshName, mesh);
  FuncView f{m, func};
  auto sharding = [&](ValueId v) -> const TensorSharding * {
    return v < plan.shardings.size() && plan.shardings[v] ? &*plan.shardings[v] : nullptr;
  };
  OpId ret = f.returnOp();
  std::vector<const TensorSharding *> results(f.numResults(), nullptr);
  for (size_t i = 0; i < results.size(); ++i) {
    AttrId a = f.resultAttr(i, "sdy.sharding");
    if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding)
      results[i] = m.attrs.get(a).sharding.get();
    else if (opts.freeResultShardings && ret != kNone && i < m.numOperands(ret))
      results[i] = sharding(m.operand(ret, uint32_t(i)));
  }
  std::vector<TensorSharding> resultCopies;
  for (const TensorSharding *s : results)
    if (s) resultCopies.push_back(*s);
  size_t next = 0;
  for (const TensorSharding *&s : results)
    if (s) s = &resultCopies[next++];
  AnnotateOptions annotate;
  annotate.meshName = meshName;
  annotateFunction(
      m, func, mesh, annotate, [&](size_t i) { return sharding(f.args()[i]); },
      [&](size_t i) { return results[i]; });

  ShardingMap map = ShardingMap::fromModule(m);
  for (ValueId v = 0; v < plan.shardings.size(); ++v)
    if (plan.shardings[v]) map.set(v, *plan.shardings[v]);
  SimOptions so;
  so.entry = std::string(f.name());
  so.unknownTripCount = opts.unknownTripCount;
  Simulator sim(m, std::move(map), device, so);
  IlpPlanSimulation out;
  out.step = sim.evaluate();
  std::vector<int64_t> transient(m.ops.size(), 0);
  for (size_t i = 0; i < sim.sites().size(); ++i)
    for (const Collective &c : sim.siteCost(i).collectives) transient[sim.sites()[i].op] += c.bytes;
  out.memory = analyzeMemory(m, func, sim.shardings(), [&](OpId op) { return transient[op]; });
  return out;
}

}  // namespace autopart
