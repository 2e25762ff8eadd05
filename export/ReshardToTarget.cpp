#include "export/ReshardToTarget.h"

#include <algorithm>

#include "ir/AxisList.h"
#include "ir/FactorProjection.h"

namespace autopart {

namespace {

// `[{"x"}, {}]`: the per-dimension axes of a sharded_to_unreduced.
std::string perDimStr(const std::vector<AxisList> &dims) {
  std::string s = "[";
  for (size_t d = 0; d < dims.size(); ++d) s += (d ? ", " : "") + axisListStr(dims[d]);
  return s + "]";
}

bool sameDims(const TensorSharding &a, const TensorSharding &b, const Mesh &mesh) {
  if (a.dims.size() != b.dims.size()) return false;
  for (size_t d = 0; d < a.dims.size(); ++d)
    if (mergeAdjacent(a.dims[d].axes, mesh) != mergeAdjacent(b.dims[d].axes, mesh)) return false;
  return true;
}

}  // namespace

InsertPoint TargetResharder::before(OpId op) const { return {m_.ops[op].parent, op}; }

InsertPoint TargetResharder::afterValue(ValueId v) const {
  const ValueInfo &info = m_.values[v];
  if (info.isBlockArg) {
    const std::vector<OpId> &ops = m_.blocks[info.owner].ops;
    return {BlockId(info.owner), ops.empty() ? kNone : ops.front()};
  }
  OpId def = info.owner;
  const std::vector<OpId> &ops = m_.blocks[m_.ops[def].parent].ops;
  auto it = std::find(ops.begin(), ops.end(), def);
  return {m_.ops[def].parent, it == ops.end() || it + 1 == ops.end() ? kNone : *(it + 1)};
}

ValueId TargetResharder::emit(std::string_view name, ValueId v, const TensorSharding &out,
                              std::string_view shardingAttr, std::vector<NamedAttr> attrs, InsertPoint at,
                              OpId near) {
  attrs.push_back({m_.names.get(shardingAttr), m_.attrs.sharding(out)});
  OpId op = m_.createOp(name, {v}, {m_.type(v)}, attrs);
  m_.ops[op].srcOffset = m_.ops[near].srcOffset;
  m_.ops[op].loc = m_.ops[near].loc;
  m_.insertOp(at.block, op, at.before);
  map_.set(m_.result(op), out);
  return m_.result(op);
}

ValueId TargetResharder::allReduceUnreduced(ValueId v, const TensorSharding *target, InsertPoint at, OpId near) {
  const TensorSharding *src = map_.get(v);
  const Mesh *mesh = src ? map_.mesh(*src) : nullptr;
  if (!mesh || src->unreduced.empty()) return v;
  AxisList keep = target ? target->unreduced : AxisList();
  AxisList axes = axisSetSubtract(src->unreduced, keep, *mesh);
  if (axes.empty()) return v;
  TensorSharding out = *src;
  out.unreduced = keep;
  if (keep.empty()) out.unreducedKind.clear();
  std::string text = (src->unreducedKind.empty() ? "" : src->unreducedKind + " ") + axisListStr(axes);
  return emit("sdy.all_reduce", v, out, "out_sharding",
              {{m_.names.get("reduction_axes"), m_.attrs.opaque(text)}}, at, near);
}

std::optional<ValueId> TargetResharder::lowerToUnreduced(ValueId v, const TensorSharding &src,
                                                         const TensorSharding &dst, InsertPoint at, OpId near) {
  const Mesh *mesh = map_.mesh(src);
  if (!mesh || src.dims.size() != dst.dims.size()) return std::nullopt;
  AxisList extra = axisSetSubtract(dst.unreduced, src.unreduced, *mesh);
  if (extra.empty()) return std::nullopt;
  // out = in + r2u + s2u: the axes each dimension drops become unreduced.
  std::vector<AxisList> dropped(src.dims.size());
  AxisList s2u;
  for (size_t d = 0; d < src.dims.size(); ++d) {
    AxisList in = mergeAdjacent(src.dims[d].axes, *mesh), out = mergeAdjacent(dst.dims[d].axes, *mesh);
    if (in == out) continue;
    if (!isStrictPrefix(out, in, *mesh)) return std::nullopt;
    size_t k = out.size();
    if (k && out.back() != in[k - 1]) {
      int64_t cut = axisEnd(out.back(), *mesh);
      dropped[d].push_back(makeAxis(in[k - 1].name, cut, axisEnd(in[k - 1], *mesh) / cut, *mesh));
    }
    dropped[d].insert(dropped[d].end(), in.begin() + std::ptrdiff_t(k), in.end());
    s2u.insert(s2u.end(), dropped[d].begin(), dropped[d].end());
  }
  if (!axisSetSubtract(s2u, extra, *mesh).empty()) return std::nullopt;
  AxisList r2u = axisSetSubtract(extra, s2u, *mesh);
  if (!r2u.empty()) {
    TensorSharding mid = src;
    mid.replicated = dst.replicated;
    mid.unreduced.insert(mid.unreduced.end(), r2u.begin(), r2u.end());
    sortAndMerge(mid.unreduced, *mesh);
    mid.unreducedKind = dst.unreducedKind;
    v = emit("sdy.replicated_to_unreduced", v, mid, "out_sharding",
             {{m_.names.get("axes"), m_.attrs.opaque(axisListStr(r2u))}}, at, near);
  }
  if (!s2u.empty())
    v = emit("sdy.sharded_to_unreduced", v, dst, "out_sharding",
             {{m_.names.get("axes"), m_.attrs.opaque(perDimStr(dropped))}}, at, near);
  return v;
}

ValueId TargetResharder::addUnreduced(ValueId v, const TensorSharding &target, InsertPoint at, OpId near) {
  const TensorSharding *src = map_.get(v);
  const Mesh *mesh = src ? map_.mesh(*src) : nullptr;
  if (!mesh) return v;
  AxisList extra = axisSetSubtract(target.unreduced, src->unreduced, *mesh);
  if (extra.empty()) return v;
  TensorSharding current = *src;
  bool sharded = false;
  for (const DimSharding &d : current.dims) sharded |= axisListsOverlap(d.axes, extra, *mesh);
  // Axes that are only replicated: move the dimensions first, then mark the
  // replicated axes unreduced.
  if (!sharded && !sameDims(current, target, *mesh)) {
    TensorSharding moved = target;
    moved.unreduced = current.unreduced;
    moved.unreducedKind = current.unreducedKind;
    v = emit("sdy.reshard", v, moved, "sharding", {}, at, near);
    current = std::move(moved);
  }
  return lowerToUnreduced(v, current, target, at, near).value_or(v);
}

ValueId TargetResharder::toTarget(ValueId v, const TensorSharding *target, InsertPoint at, OpId near,
                                  bool reshard) {
  v = allReduceUnreduced(v, target, at, near);
  if (target) v = addUnreduced(v, *target, at, near);
  if (!reshard) return v;
  const TensorSharding *src = map_.get(v);
  if (!src && !target) return v;
  // A value without a sharding is replicated: nothing moves for a target that
  // only adds unreduced axes (Shardy leaves it as is).
  if (!src && std::all_of(target->dims.begin(), target->dims.end(),
                          [](const DimSharding &d) { return d.axes.empty(); }))
    return v;
  const Mesh *mesh = map_.mesh(target ? *target : *src);
  if (!mesh) return v;
  // Shardings on different meshes differ unless neither shards anything.
  bool otherMesh = src && target && (src->meshName != target->meshName || src->inlineMesh != target->inlineMesh);
  if (otherMesh ? (src->isFullyReplicated() && target->isFullyReplicated()) : equivalentShardings(src, target, *mesh))
    return v;
  TensorSharding t = target ? *target : TensorSharding::closed(src->meshName, src->rank());
  if (!target) t.inlineMesh = src->inlineMesh;
  return emit("sdy.reshard", v, t, "sharding", {}, at, near);
}

bool TargetResharder::lowerReshardToUnreduced(OpId reshard) {
  ValueId v = m_.operand(reshard, 0);
  const TensorSharding *src = map_.get(v);
  AttrId a = m_.attr(reshard, "sharding");
  if (!src || a == kNoAttr || m_.attrs.kind(a) != AttrKind::Sharding) return false;
  TensorSharding dst = *m_.attrs.get(a).sharding;
  if (dst.unreduced.empty()) return false;
  std::optional<ValueId> lowered = lowerToUnreduced(v, *src, dst, before(reshard), reshard);
  if (!lowered) return false;
  m_.replaceAllUsesWith(m_.result(reshard), *lowered, m_.top);
  m_.eraseOp(reshard);
  return true;
}

}  // namespace autopart
