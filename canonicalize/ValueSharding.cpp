#include "canonicalize/ValueSharding.h"

namespace autopart::canonicalize {

namespace {

std::optional<TensorSharding> single(const Module &m, AttrId a) {
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) return std::nullopt;
  return *m.attrs.get(a).sharding;
}

std::optional<TensorSharding> nth(const Module &m, AttrId a, uint32_t i) {
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return std::nullopt;
  const std::vector<TensorSharding> &list = m.attrs.get(a).shardings;
  if (i >= list.size()) return std::nullopt;
  return list[i];
}

}  // namespace

std::optional<TensorSharding> valueSharding(const Module &m, ValueId v) {
  const ValueInfo &info = m.values[v];
  if (info.isBlockArg) {
    OpId owner = m.regions[m.blocks[info.owner].parent].parent;
    if (owner == kNone) return std::nullopt;
    if (m.isa(owner, "func.func")) return single(m, FuncView{m, owner}.argAttr(info.index, "sdy.sharding"));
    // A manual computation's body sees local shapes; its in_shardings are
    // global, so only a named computation's carry over to the argument.
    if (m.isa(owner, "sdy.named_computation")) return nth(m, m.attr(owner, "in_shardings"), info.index);
    return std::nullopt;
  }
  OpId op = info.owner;
  if (AttrId a = m.attr(op, "sdy.sharding"); a != kNoAttr) return nth(m, a, info.index);
  if (m.opName(op).starts_with("sdy.")) {
    if (AttrId a = m.attr(op, "out_sharding"); a != kNoAttr) return single(m, a);
    if (AttrId a = m.attr(op, "sharding"); a != kNoAttr) return single(m, a);
    if (AttrId a = m.attr(op, "out_shardings"); a != kNoAttr) return nth(m, a, info.index);
  }
  return std::nullopt;
}

bool equivalent(const TensorSharding &a, const TensorSharding &b) {
  if (a.meshName != b.meshName || a.inlineMesh != b.inlineMesh) return false;
  if (a.rank() != b.rank() || a.unreduced != b.unreduced || a.unreducedKind != b.unreducedKind) return false;
  for (size_t d = 0; d < a.rank(); ++d)
    if (a.dims[d].axes != b.dims[d].axes) return false;
  return true;
}

}  // namespace autopart::canonicalize
