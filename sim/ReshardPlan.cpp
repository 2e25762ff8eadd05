#include "sim/ReshardPlan.h"

#include <algorithm>

#include "sim/LocalSize.h"

namespace autopart {

const Mesh *commonMesh(const std::vector<const TensorSharding *> &shardings,
                       const ShardingMap &map, std::string *name) {
  // Few tensors and usually one mesh: a linear count beats a map.
  std::vector<std::pair<std::string_view, int>> counts;
  const Mesh *mesh = nullptr;
  std::string_view best;
  int bestCount = 0;
  for (const TensorSharding *s : shardings) {
    if (!s) continue;
    const Mesh *m = map.mesh(*s);
    if (!m) return nullptr;
    if (mesh && mesh != m && mesh->axes != m->axes) return nullptr;
    if (!mesh) {
      mesh = m;
      best = s->meshName;
    }
    if (s->isFullyReplicated()) continue;
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto &c) { return c.first == s->meshName; });
    int c = it == counts.end() ? (counts.emplace_back(s->meshName, 1), 1) : ++it->second;
    if (c > bestCount) {
      bestCount = c;
      best = s->meshName;
      mesh = m;
    }
  }
  if (!mesh || mesh->isMaximal() || mesh->axes.empty()) return nullptr;
  if (name) *name = std::string(best);
  return mesh;
}

OpReshardPlan planOp(const Module &m, OpId op, const OpShardingRule &rule, const ShardingMap &shardings) {
  OpReshardPlan plan;
  uint32_t numOperands = m.numOperands(op), numResults = m.numResults(op);
  if (rule.operands.size() != numOperands || rule.results.size() != numResults) return plan;
  std::vector<const TensorSharding *> current;
  current.reserve(numOperands + numResults);
  for (ValueId v : m.operands(op)) current.push_back(shardings.get(v));
  for (uint32_t r = 0; r < numResults; ++r) current.push_back(shardings.get(m.result(op, r)));
  plan.mesh = commonMesh(current, shardings, &plan.meshName);
  if (!plan.mesh) return plan;
  const Mesh &mesh = *plan.mesh;
  plan.applies = true;

  size_t numTensors = current.size();
  std::vector<TensorFactorShardings> tensors(numTensors);
  std::vector<int64_t> sizes(numTensors);
  for (size_t t = 0; t < numTensors; ++t) {
    bool isOperand = t < numOperands;
    const OpShardingRule::TensorFactors &mapping =
        isOperand ? rule.operands[t] : rule.results[t - numOperands];
    tensors[t] = projectTensor(current[t], mapping, rule, mesh);
    ValueId v = isOperand ? m.operand(op, uint32_t(t)) : m.result(op, uint32_t(t - numOperands));
    TypeId type = m.type(v);
    sizes[t] = m.types.isTensor(type) && !m.types.hasDynamicDim(type) ? m.types.numElements(type) : 0;
  }

  // As in Shardy, a reshape with overflow axes deals its axes out again
  // (sim/CommonFactorSharding.h) and reshards a tensor only when its
  // sharding, laid out, changes.
  bool overflowReshape = m.isa(op, "stablehlo.reshape") && numOperands == 1 && numResults == 1 &&
                         (tensors[0].hasOverflow() || tensors[1].hasOverflow());
  if (overflowReshape) {
    plan.factorAxes = reshapeOverflowAxes(tensors, rule, mesh);
  } else {
    std::optional<AxesPerFactor> compatible = compatibleFactorShardings(tensors, rule, numOperands, mesh);
    plan.factorAxes = compatible ? std::move(*compatible)
                                 : findCommonAxes(tensors, rule, numOperands, sizes, mesh);
  }

  plan.operandTargets.resize(numOperands);
  plan.resultShardings.resize(numResults);
  for (size_t t = 0; t < numTensors; ++t) {
    bool isOperand = t < numOperands;
    const OpShardingRule::TensorFactors &mapping =
        isOperand ? rule.operands[t] : rule.results[t - numOperands];
    bool updated = false;
    std::optional<TensorSharding> laid;
    if (overflowReshape) {
      // Every factor of the tensor takes its common axes, also those an
      // overflow kept out of the projection.
      for (const OpShardingRule::DimFactors &dim : mapping)
        for (int32_t f : dim) {
          FactorSharding &fs = tensors[t].factors[size_t(f)];
          fs.present = true;
          fs.axes = plan.factorAxes[size_t(f)];
          fs.overflow.clear();
        }
      laid = toTensorSharding(tensors[t], mapping, rule, plan.meshName, mesh);
      for (DimSharding &d : laid->dims) d.closed = true;
      updated = !equivalentShardings(current[t], &*laid, mesh);
    } else {
      for (size_t f = 0; f < rule.numFactors(); ++f) {
        if (!tensors[t].has(f)) continue;
        FactorSharding &fs = tensors[t].factors[f];
        if (fs.axes != plan.factorAxes[f] || !fs.overflow.empty()) {
          fs.axes = plan.factorAxes[f];
          fs.overflow.clear();
          updated = true;
        }
      }
    }
    // A sharded tensor on a mesh with another device order moves to the
    // op's mesh even when its axes already agree.
    const Mesh *own = current[t] ? shardings.mesh(*current[t]) : nullptr;
    if (!updated && !(own && own->deviceIds != mesh.deviceIds && !current[t]->isFullyReplicated())) continue;
    TensorSharding s = laid ? std::move(*laid) : unprojectTensor(tensors[t], mapping, plan.meshName, mesh);
    // A reshard moves shards, not partial sums: unreduced axes stay.
    if (current[t]) {
      s.unreduced = current[t]->unreduced;
      s.unreducedKind = current[t]->unreducedKind;
    }
    if (isOperand)
      plan.operandTargets[t] = std::move(s);
    else
      plan.resultShardings[t - numOperands] = std::move(s);
  }

  for (size_t f = 0; f < rule.numFactors(); ++f) {
    plan.iterationShards *= axesSize(plan.factorAxes[f], mesh);
  }
  AxisList reduction;
  for (int32_t f : rule.reductionFactors)
    reduction.insert(reduction.end(), plan.factorAxes[size_t(f)].begin(), plan.factorAxes[size_t(f)].end());
  const TensorSharding *firstResult = numResults ? current[numOperands] : nullptr;
  if (firstResult) reduction = subtractAxes(reduction, firstResult->unreduced, mesh);
  sortAndMerge(reduction, mesh);
  plan.allReduceAxes = std::move(reduction);
  return plan;
}

std::vector<Collective> planCollectives(const Module &m, OpId op, const OpReshardPlan &plan,
                                        const ShardingMap &shardings) {
  std::vector<Collective> out;
  if (!plan.applies) return out;
  const Mesh &mesh = *plan.mesh;
  for (uint32_t i = 0; i < plan.operandTargets.size(); ++i) {
    if (!plan.operandTargets[i]) continue;
    ValueId v = m.operand(op, i);
    std::vector<Collective> c =
        reshardCollectives(m.types, m.type(v), shardings.get(v), &*plan.operandTargets[i], mesh, v);
    out.insert(out.end(), c.begin(), c.end());
  }
  for (uint32_t r = 0; r < plan.resultShardings.size(); ++r) {
    ValueId v = m.result(op, r);
    const TensorSharding *annotated = shardings.get(v);
    const TensorSharding *produced = plan.resultShardings[r] ? &*plan.resultShardings[r] : annotated;
    std::vector<Collective> after;
    if (plan.resultShardings[r]) after = reshardCollectives(m.types, m.type(v), produced, annotated, mesh, v);
    // A reduced result that is then sliced along reduced axes is one
    // reduce-scatter, not an all-reduce and a slice.
    AxisList scattered;
    for (Collective &c : after) {
      if (c.kind != CollectiveKind::AllSlice) continue;
      AxisList keep;
      for (const AxisRef &a : c.axes) (overlapsAny(a, plan.allReduceAxes, mesh) ? scattered : keep).push_back(a);
      c.axes = std::move(keep);
    }
    std::erase_if(after, [](const Collective &c) { return c.axes.empty(); });
    int64_t bytes = localBytes(m.types, m.type(v), produced, &mesh);
    AxisList reduced = axisSetDiff(plan.allReduceAxes, scattered, mesh);
    if (!reduced.empty()) out.push_back({CollectiveKind::AllReduce, reduced, bytes, v});
    if (!scattered.empty()) out.push_back({CollectiveKind::ReduceScatter, scattered, bytes, v});
    out.insert(out.end(), after.begin(), after.end());
  }
  return out;
}

}  // namespace autopart
