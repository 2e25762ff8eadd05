#include "search/ilp/IlpBuilder.h"

#include <algorithm>
#include <numeric>

#include "ir/FactorProjection.h"
#include "rules/OpShardingRuleRegistry.h"
#include "search/AxisPlacements.h"
#include "sim/CollectiveCost.h"
#include "sim/CommonFactorSharding.h"
#include "sim/CostModel.h"
#include "sim/Flops.h"
#include "sim/LocalSize.h"

namespace autopart::ilp {

// Every sharding of `v` that puts each mesh axis on at most one dimension it
// divides (axes of one dimension in mesh order), fewest local bytes first,
// the replicated one always kept.
std::vector<TensorSharding> IlpBuilder::enumerateShardings(ValueId v) const {
  if (!shardable(v)) return {replicated(v)};
  std::vector<std::string> axes;
  for (const MeshAxis &a : mesh_.axes)
    if (!manual_.binds(v, a.name)) axes.push_back(a.name);
  std::vector<TensorSharding> out = everyAxisPlacement(meshName_, mesh_, axes, m_.types.shape(m_.type(v)));
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
  FuncView f{m_, func_};
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
    // Inside a manual computation only the axes it left free.
    std::span<const std::string> bound = manual_.ofOp(op);
    std::vector<size_t> freeAxes;
    for (size_t a = 0; a < mesh_.axes.size(); ++a)
      if (std::find(bound.begin(), bound.end(), mesh_.axes[a].name) == bound.end()) freeAxes.push_back(a);
    size_t numAxes = freeAxes.size();
    std::vector<int> choice(numAxes, -1);
    std::map<std::vector<ShardingId>, size_t> seen;
    while (true) {
      AxesPerFactor fa(rule.numFactors());
      std::vector<int64_t> per(rule.numFactors(), 1);
      bool ok = true;
      for (size_t a = 0; a < numAxes && ok; ++a) {
        if (choice[a] < 0) continue;
        size_t f = size_t(allowed[size_t(choice[a])]);
        const MeshAxis &axis = mesh_.axes[freeAxes[a]];
        per[f] *= axis.size;
        ok = rule.factorSizes[f] % per[f] == 0;
        fa[f].push_back(AxisRef{axis.name});
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
      if (!nextAxisChoice(choice, int(allowed.size()))) break;
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

bool IlpBuilder::build(const Simulator &sim, Clock::time_point deadline) {
  FuncView f{m_, func_};
  for (ValueId a : f.args()) nodeFor(a);
  size_t visited = 0;
  for (const Simulator::Site &site : sim.sites()) {
    // Pricing every strategy of a large program on a large mesh takes
    // seconds (GPT 125M on 512 devices: 10 s): the budget covers it.
    if (++visited % 64 == 0 && Clock::now() >= deadline) return false;
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
        if (m_.lookupFunc(m_.attr(call, "callee")) != owner) continue;
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
      bool isCond = opInfo(m_, owner).dataFlow == DataFlow::Loop &&
                    m_.blocks[m_.ops[op].parent].parent == m_.region(owner, 0);
      if (isCond) continue;
      for (uint32_t i = 0; i < m_.numOperands(op) && i < it->second.size(); ++i)
        if (it->second[i] >= 0) addInput(it->second[i], m_.operand(op, i), mult);
      continue;
    }
    DataFlow flow = opInfo(m_, op).dataFlow;
    if (flow == DataFlow::Call) {
      OpId target = m_.lookupFunc(m_.attr(op, "callee"));
      if (target == kNone || m_.numRegions(target) == 0) {
        addFixedNode(op, mult);
        continue;
      }
      std::span<const ValueId> params = FuncView{m_, target}.args();
      for (uint32_t i = 0; i < m_.numOperands(op) && i < params.size(); ++i) {
        ValueId in = m_.operand(op, i);
        if (!shardable(params[i]) || nodeFor(in) < 0) continue;
        int node = valueNode_[params[i]] >= 0 ? valueNode_[params[i]] : addValueNode({params[i]}, in);
        addInput(node, in, mult);
      }
      callStack_.push_back(op);
      continue;
    }
    if (flow == DataFlow::Loop || flow == DataFlow::Barrier) {
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
    if (flow == DataFlow::Branch) {
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
  return true;
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

}  // namespace autopart::ilp
