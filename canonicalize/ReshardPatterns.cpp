// Shardy's canonicalization patterns for sdy.reshard (which has no side
// effects, so a reshard nothing reads is erased as dead):
//
// Reshard of a reshard read by nothing else: only the last target matters.
//   %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]>
//   %1 = sdy.reshard %0 <@mesh, [{"a", ?}, {?}]>   -> sdy.reshard %arg0 <...[{"a", ?}, {?}]>
//
// Common subexpressions across reshapes and transposes: a reshard whose data
// an earlier reshard of the same source already laid out the same way (the
// same linear stride per mesh axis) reuses it, redoing only the metadata ops.
//   %0 = stablehlo.reshape %arg0 : (tensor<2x4x4xf32>) -> tensor<8x4xf32>
//   %1 = sdy.reshard %0 <@mesh, [{"a"}, {}]>
//   %2 = stablehlo.reshape %arg0 : (tensor<2x4x4xf32>) -> tensor<32xf32>
//   %3 = sdy.reshard %2 <@mesh, [{"a"}]>
// -> %3 becomes reshape(reshape(%1) to 2x4x4) to 32: both shard the first 16
//    elements to a=0, the rest to a=1.
#include <algorithm>
#include <unordered_set>

#include "canonicalize/Canonicalize.h"
#include "ir/AxisList.h"

namespace autopart::canonicalize {

namespace {

std::optional<TensorSharding> reshardTarget(const Module &m, OpId op) {
  AttrId a = m.attr(op, "sharding");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) return std::nullopt;
  return *m.attrs.get(a).sharding;
}

bool mergeReshardOfReshard(Rewriter &rw, OpId op) {
  Module &m = rw.m;
  OpId inner = m.definingOp(m.operand(op, 0));
  if (inner == kNone || !m.isa(inner, "sdy.reshard") || !rw.hasOneUse(m.result(inner))) return false;
  rw.setOperand(op, 0, m.operand(inner, 0));
  return true;
}

// Ops that change how a tensor is indexed but not its data.
bool isMetadataOp(const Module &m, OpId op) {
  return m.isa(op, "stablehlo.reshape") || m.isa(op, "stablehlo.transpose");
}

ValueId throughMetadata(const Module &m, ValueId v) {
  for (OpId def = m.definingOp(v); def != kNone && isMetadataOp(m, def); def = m.definingOp(v))
    v = m.operand(def, 0);
  return v;
}

// The sharding `s` of `v` seen from above the transposes (and rank-keeping
// reshapes) that produced `v`: a transpose's result dimension i is its
// operand's dimension perm[i].
TensorSharding throughTransposes(const Module &m, TensorSharding s, ValueId v) {
  for (OpId def = m.definingOp(v); def != kNone; def = m.definingOp(v)) {
    if (m.isa(def, "stablehlo.transpose")) {
      std::vector<int64_t> perm = m.attrs.intList(m.attr(def, "permutation"));
      if (perm.size() != s.rank()) break;
      std::vector<DimSharding> dims(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) dims[size_t(perm[i])] = s.dims[i];
      s.dims = std::move(dims);
    } else if (!m.isa(def, "stablehlo.reshape") ||
               m.types.rank(m.type(m.operand(def, 0))) != m.types.rank(m.type(v))) {
      break;
    }
    v = m.operand(def, 0);
  }
  return s;
}

struct AxisStride {
  AxisRef axis;
  int64_t stride;
  bool operator==(const AxisStride &) const = default;
};

// For every mesh axis, the distance in the row-major linear order between
// elements of neighbouring shards along it. Two sub-axes of one axis whose
// strides continue each other (the minor half stepping by 2, the major half
// by 4 = 2 * 2) are the axis stepping by 2, so they are merged.
std::optional<std::vector<AxisStride>> axisStrides(const Module &m, const TensorSharding &s, TypeId type,
                                                   const Mesh &mesh) {
  const std::vector<int64_t> &shape = m.types.shape(type);
  if (shape.size() != s.rank()) return std::nullopt;
  std::vector<AxisStride> out;
  int64_t linear = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == kDynamic) return std::nullopt;
    const AxisList &axes = s.dims[d].axes;
    int64_t shards = axesSize(axes, mesh);
    if (shards <= 0) return std::nullopt;
    int64_t stride = linear * ((shape[d] + shards - 1) / shards);
    for (size_t k = axes.size(); k-- > 0;) {
      out.push_back({axes[k], stride});
      stride *= axes[k].size(mesh);
    }
    linear *= shape[d];
  }
  std::stable_sort(out.begin(), out.end(), [](const AxisStride &a, const AxisStride &b) { return a.stride < b.stride; });
  std::vector<AxisStride> merged;
  for (const AxisStride &e : out) {
    if (!merged.empty()) {
      AxisStride &minor = merged.back();
      if (minor.axis.name == e.axis.name && axisEnd(e.axis, mesh) == axisStart(minor.axis) &&
          e.stride == minor.stride * minor.axis.size(mesh)) {
        int64_t pre = axisStart(e.axis);
        minor.axis = makeAxis(e.axis.name, pre, axisEnd(minor.axis, mesh) / pre, mesh);
        continue;
      }
    }
    merged.push_back(e);
  }
  return merged;
}

bool hasEncoding(const Module &m, TypeId t) {
  return m.types.str(t).find(',') != std::string_view::npos;
}

bool sameLayoutAcrossReshapes(Rewriter &rw, const TensorSharding &a, TypeId ta, const TensorSharding &b,
                              TypeId tb) {
  if (a == b && ta == tb) return true;
  const Module &m = rw.m;
  if (a.meshName != b.meshName || a.inlineMesh != b.inlineMesh || a.replicated != b.replicated) return false;
  if (a.unreduced != b.unreduced || a.unreducedKind != b.unreducedKind) return false;
  if (!m.types.isTensor(ta) || !m.types.isTensor(tb) || hasEncoding(m, ta) || hasEncoding(m, tb)) return false;
  const Mesh *mesh = rw.mesh(a);
  if (!mesh) return false;
  std::optional<std::vector<AxisStride>> sa = axisStrides(m, a, ta, *mesh), sb = axisStrides(m, b, tb, *mesh);
  return sa && sb && *sa == *sb;
}

// An earlier reshard, in `op`'s block, reachable from `root` through reshapes
// only (a transpose on the way would change which elements a stride picks),
// that lays the data out as `target` does.
OpId findEquivalentReshard(Rewriter &rw, OpId op, ValueId root, const TensorSharding &target) {
  const Module &m = rw.m;
  TypeId type = m.type(m.result(op));
  std::vector<ValueId> stack = {root};
  std::unordered_set<ValueId> seen;
  while (!stack.empty()) {
    ValueId v = stack.back();
    stack.pop_back();
    if (!seen.insert(v).second) continue;
    for (OpId user : rw.users(v)) {
      if (user == op) continue;
      if (m.isa(user, "sdy.reshard")) {
        std::optional<TensorSharding> other = reshardTarget(m, user);
        if (other && m.ops[user].parent == m.ops[op].parent &&
            sameLayoutAcrossReshapes(rw, *other, m.type(m.result(user)), target, type) &&
            rw.isBeforeInBlock(user, op))
          return user;
      } else if (m.isa(user, "stablehlo.reshape")) {
        stack.push_back(m.result(user));
      }
    }
  }
  return kNone;
}

bool reuseEquivalentReshard(Rewriter &rw, OpId op) {
  Module &m = rw.m;
  std::optional<TensorSharding> sharding = reshardTarget(m, op);
  if (!sharding) return false;
  ValueId input = m.operand(op, 0);
  ValueId root = throughMetadata(m, input);
  TensorSharding target = throughTransposes(m, *sharding, input);
  OpId found = findEquivalentReshard(rw, op, root, target);
  if (found == kNone) return false;

  ValueId value = m.result(found);
  if (m.type(value) != m.type(root))
    value = m.result(rw.createAfter(found, "stablehlo.reshape", {value}, {m.type(root)}, {}));
  // Redo the metadata ops between the root and the input on the reused value,
  // outermost first, each right after what it reads.
  std::vector<OpId> path;
  for (ValueId v = input; v != root; v = m.operand(m.definingOp(v), 0)) path.push_back(m.definingOp(v));
  for (size_t i = path.size(); i-- > 0;) {
    OpId copy = rw.cloneAfter(path[i], m.definingOp(value));
    rw.setOperand(copy, 0, value);
    value = m.result(copy);
  }
  rw.replaceOp(op, {value});
  return true;
}

PatternRegistration reshardOfReshard("sdy.reshard", "reshard-of-reshard", mergeReshardOfReshard, 2, kReshardLabel);
PatternRegistration reshardCse("sdy.reshard", "reshard-cse", reuseEquivalentReshard);

}  // namespace

}  // namespace autopart::canonicalize
