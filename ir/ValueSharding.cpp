#include "ir/ValueSharding.h"

namespace autopart {

namespace {

const TensorSharding *single(const Module &m, AttrId a) {
  return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get() : nullptr;
}

// Entry `i` of a list of shardings; a lone #sdy.sharding counts as a list of
// one (the verifier reports it, the simulator still reads it).
const TensorSharding *nth(const Module &m, AttrId a, uint32_t i) {
  if (a == kNoAttr) return nullptr;
  const AttrStorage &s = m.attrs.get(a);
  if (s.kind == AttrKind::ShardingPerValue) return i < s.shardings.size() ? &s.shardings[i] : nullptr;
  if (s.kind == AttrKind::Sharding && i == 0) return s.sharding.get();
  return nullptr;
}

}  // namespace

const TensorSharding *resultSharding(const Module &m, OpId op, uint32_t i) {
  std::string_view name = m.opName(op);
  if (name == "sdy.sharding_constraint" || name == "sdy.reshard" || name == "sdy.data_flow_edge")
    return single(m, m.attr(op, "sharding"));
  if (name == "sdy.manual_computation" || name == "sdy.named_computation")
    return nth(m, m.attr(op, "out_shardings"), i);
  if (name.starts_with("sdy."))
    if (const TensorSharding *s = single(m, m.attr(op, "out_sharding"))) return s;
  return nth(m, m.attr(op, "sdy.sharding"), i);
}

const TensorSharding *valueSharding(const Module &m, ValueId v) {
  const ValueInfo &info = m.values[v];
  if (!info.isBlockArg) return resultSharding(m, info.owner, info.index);
  OpId owner = m.regions[m.blocks[info.owner].parent].parent;
  if (owner == kNone) return nullptr;
  if (m.isa(owner, "func.func")) {
    FuncView f{m, owner};
    return f.entry() == info.owner ? single(m, f.argAttr(info.index, "sdy.sharding")) : nullptr;
  }
  if (m.isa(owner, "sdy.named_computation")) return nth(m, m.attr(owner, "in_shardings"), info.index);
  if (m.isa(owner, "stablehlo.while") && info.index < m.numResults(owner))
    return resultSharding(m, owner, info.index);
  return nullptr;
}

std::vector<std::string> manualAxesOf(const Module &m, OpId op) {
  std::vector<std::string> out;
  AttrId a = m.attr(op, "manual_axes");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Array) return out;
  for (AttrId e : m.attrs.get(a).elems) out.emplace_back(m.attrs.stringValue(e));
  return out;
}

}  // namespace autopart
