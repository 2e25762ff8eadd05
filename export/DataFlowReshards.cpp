#include "export/DataFlowReshards.h"

#include <algorithm>

#include "propagation/DataFlowEdges.h"

namespace autopart {

namespace {

struct Source {
  OpId user;
  uint32_t index;
};

OpId terminatorOf(const Module &m, OpId op, uint32_t region) {
  const Region &r = m.regions[m.region(op, region)];
  if (r.blocks.empty() || m.blocks[r.blocks[0]].ops.empty()) return kNone;
  return m.blocks[r.blocks[0]].ops.back();
}

std::vector<TensorSharding> shardingList(const Module &m, OpId op, std::string_view name) {
  std::vector<TensorSharding> out;
  AttrId a = m.attr(op, name);
  if (a == kNoAttr) return out;
  const AttrStorage &list = m.attrs.get(a);
  if (list.kind == AttrKind::ShardingPerValue) out = list.shardings;
  return out;
}

// The body's view of a manual computation's sharding: manual axes removed.
TensorSharding withoutManualAxes(TensorSharding s, const std::vector<std::string> &manual) {
  auto isManual = [&](const AxisRef &a) { return std::find(manual.begin(), manual.end(), a.name) != manual.end(); };
  for (DimSharding &d : s.dims) std::erase_if(d.axes, isManual);
  std::erase_if(s.replicated, isManual);
  std::erase_if(s.unreduced, isManual);
  if (s.unreduced.empty()) s.unreducedKind.clear();
  return s;
}

bool isComputation(const Module &m, OpId op) {
  return m.isa(op, "sdy.manual_computation") || m.isa(op, "sdy.named_computation");
}

}  // namespace

void addComputationShardings(const Module &m, ShardingMap &map) {
  for (OpId func : m.functions())
    m.walk(func, [&](OpId op) {
      if (!isComputation(m, op)) return;
      std::vector<std::string> manual = manualAxesOf(m, op);
      std::vector<TensorSharding> in = shardingList(m, op, "in_shardings"),
                                  out = shardingList(m, op, "out_shardings");
      for (uint32_t i = 0; i < m.numResults(op) && i < out.size(); ++i) map.set(m.result(op, i), out[i]);
      const Region &r = m.regions[m.region(op, 0)];
      if (r.blocks.empty()) return;
      const std::vector<ValueId> &args = m.blocks[r.blocks[0]].args;
      for (size_t i = 0; i < args.size() && i < in.size(); ++i) map.set(args[i], withoutManualAxes(in[i], manual));
    });
}

bool insertDataFlowReshards(Module &m, const ShardingMap &map, TargetResharder &resharder, OpId op,
                            bool reshard) {
  std::string_view name = m.opName(op);
  bool barrier = name == "stablehlo.optimization_barrier", loop = name == "stablehlo.while",
       branches = name == "stablehlo.case", computation = isComputation(m, op);
  if (!barrier && !loop && !branches && !computation) return false;

  // Each owner's target and sources, results first, then block arguments.
  std::vector<std::pair<std::optional<TensorSharding>, std::vector<Source>>> edges;
  std::vector<std::string> manual = manualAxesOf(m, op);
  std::vector<TensorSharding> in = shardingList(m, op, "in_shardings");
  for (uint32_t i = 0; i < m.numResults(op); ++i) {
    const TensorSharding *s = map.get(m.result(op, i));
    std::optional<TensorSharding> target;
    if (s) target = computation ? withoutManualAxes(*s, manual) : *s;
    std::vector<Source> sources;
    if (barrier || loop) sources.push_back({op, i});
    uint32_t firstBody = loop ? 1 : 0, numBodies = loop || computation ? firstBody + 1 : m.numRegions(op);
    for (uint32_t r = firstBody; !barrier && r < numBodies; ++r)
      if (OpId t = terminatorOf(m, op, r); t != kNone && i < m.numOperands(t)) sources.push_back({t, i});
    edges.push_back({std::move(target), std::move(sources)});
  }
  for (uint32_t i = 0; computation && i < m.numOperands(op); ++i)
    edges.push_back({i < in.size() ? std::optional<TensorSharding>(in[i]) : std::nullopt, {{op, i}}});

  for (auto &[target, sources] : edges)
    for (const Source &s : sources) {
      ValueId v = m.operand(s.user, s.index);
      ValueId now = resharder.toTarget(v, target ? &*target : nullptr, resharder.afterValue(v), s.user, reshard);
      if (now != v) m.setOperand(s.user, s.index, now);
    }
  return true;
}

}  // namespace autopart
