#include "sim/CostModel.h"

#include <algorithm>

#include "rules/OpInfo.h"
#include "sim/CollectiveCost.h"
#include "sim/ExplicitCollectives.h"
#include "sim/Flops.h"
#include "sim/LocalSize.h"
#include "sim/MatmulEfficiency.h"
#include "sim/ReshardPlan.h"

namespace autopart {

namespace {

const Mesh *meshOf(const ShardingMap &map, const TensorSharding *a, const TensorSharding *b) {
  if (a)
    if (const Mesh *m = map.mesh(*a)) return m;
  if (b) return map.mesh(*b);
  return nullptr;
}

void addCollectives(OpCost &cost, std::vector<Collective> cs, const Mesh &mesh, const DeviceParams &device) {
  for (Collective &c : cs) {
    double s = collectiveSeconds(c, mesh, device);
    Collective empty{c.kind, c.axes, 0, c.value};
    cost.commSeconds += s;
    cost.collectiveSeconds.push_back(s);
    cost.collectiveLatency.push_back(std::min(s, collectiveSeconds(empty, mesh, device)));
    cost.collectives.push_back(std::move(c));
  }
}

}  // namespace

OpCost costOp(const Module &m, OpId op, const OpShardingRule *rule, const ShardingMap &shardings,
              const DeviceParams &device, const std::vector<ReturnTarget> *returnTargets,
              const double *globalFlopsIn) {
  OpCost cost;
  std::string_view name = m.opName(op);

  if (name == "func.return" && returnTargets) {
    auto reshard = [&](ValueId v, const TensorSharding *from, const TensorSharding *to) {
      if (const Mesh *mesh = meshOf(shardings, from, to))
        addCollectives(cost, reshardCollectives(m.types, m.type(v), from, to, *mesh, v), *mesh, device);
    };
    for (uint32_t i = 0; i < m.numOperands(op) && i < returnTargets->size(); ++i) {
      ValueId v = m.operand(op, i);
      const ReturnTarget &t = (*returnTargets)[i];
      const TensorSharding *at = shardings.get(v);
      if (t.declared) {
        reshard(v, at, t.result);
        at = t.result;
      }
      if (t.carried) reshard(v, at, t.argument);
    }
    return cost;
  }
  const OpInfo &info = opInfo(m, op);
  if (info.cost == CostKind::Free) return cost;
  if (info.cost == CostKind::Collective) {
    for (ExplicitCollective &e : explicitCollectives(m, op, shardings))
      addCollectives(cost, {std::move(e.collective)}, e.mesh, device);
    return cost;
  }

  if (info.cost == CostKind::Reshard && m.numOperands(op) == 1) {
    ValueId in = m.operand(op, 0), out = m.result(op);
    const TensorSharding *from = shardings.get(in), *to = shardings.get(out);
    if (const Mesh *mesh = meshOf(shardings, from, to))
      addCollectives(cost, reshardCollectives(m.types, m.type(in), from, to, *mesh, in), *mesh, device);
    return cost;
  }

  double globalFlops = globalFlopsIn ? *globalFlopsIn : opFlops(m, op);
  double shards = 1;
  std::optional<OpReshardPlan> plan;
  if (rule) {
    plan = planOp(m, op, *rule, shardings);
    if (!plan->applies) plan.reset();
  }
  const Mesh *mesh = plan ? plan->mesh : nullptr;
  for (uint32_t i = 0; i < m.numOperands(op); ++i) {
    ValueId v = m.operand(op, i);
    const TensorSharding *s = plan && plan->operandTargets[i] ? &*plan->operandTargets[i] : shardings.get(v);
    double b = double(localBytes(m.types, m.type(v), s, s ? shardings.mesh(*s) : nullptr));
    cost.operandBytes.push_back(b);
    cost.bytes += b;
  }
  for (uint32_t r = 0; r < m.numResults(op); ++r) {
    ValueId v = m.result(op, r);
    const TensorSharding *s = plan && plan->resultShardings[r] ? &*plan->resultShardings[r] : shardings.get(v);
    const Mesh *rm = s ? shardings.mesh(*s) : nullptr;
    double b = double(localBytes(m.types, m.type(v), s, rm));
    cost.resultBytes.push_back(b);
    cost.bytes += b;
    // Without a rule the op is assumed to split its work as its most
    // sharded result is split.
    if (!plan && s && rm) shards = std::max(shards, double(s->numShards(*rm)));
  }
  if (plan) shards = double(plan->iterationShards);
  cost.flops = globalFlops / shards;
  TypeId t = m.numResults(op) ? m.type(m.result(op)) : kNoType;
  if (info.flops == FlopModel::Contraction || info.flops == FlopModel::Convolution) {
    // Tensor cores and MXUs run at the operands' precision; an f32 result
    // (preferred_element_type) is only the accumulator.
    if (m.numOperands(op)) t = m.type(m.operand(op, 0));
    const TensorSharding *rs = nullptr;
    if (m.numResults(op) == 1) rs = plan && plan->resultShardings[0] ? &*plan->resultShardings[0] : shardings.get(m.result(op));
    if (std::optional<GemmShape> g = localGemmShape(m, op, rs, rs ? shardings.mesh(*rs) : nullptr, cost.flops))
      cost.efficiency = gemmEfficiency(*g, device.matmul);
    else
      cost.efficiency = device.matmul.peakFraction;
  }
  cost.peakSeconds = cost.flops / (device.peakFlops(m.types, t) * cost.efficiency);
  cost.computeSeconds = std::max(cost.peakSeconds, cost.bytes / (device.hbmBandwidth * device.hbmEfficiency)) +
                        device.kernelLaunchSeconds;
  if (plan) addCollectives(cost, planCollectives(m, op, *plan, shardings), *mesh, device);
  return cost;
}

}  // namespace autopart
