// Shardy's checks of its collectives: each one's axes applied to the
// operand's sharding must give its `out_sharding`, on the same mesh.
//
//   sdy.mesh @mesh = <["x"=2, "y"=2]>
//   %arg0 sharded [{"y"}, {"x"}]
//   %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>
//   -> 'sdy.all_gather' op result sharding doesn't match expected sharding []
//      on dimension 1
//
// Every collective first passes the checks Shardy's collective interface
// makes (the operand has a sharding, `out_sharding` is valid for the result,
// both use one mesh, of one rank); then its own. Each op reports its first
// problem only, as an MLIR verifier stops at the first failure.
#include <functional>
#include <optional>
#include <string>

#include "ir/CollectiveAxes.h"
#include "ir/ValueSharding.h"
#include "verify/DimAxisAlgebra.h"
#include "verify/TensorShardingVerifier.h"
#include "verify/Verifier.h"

namespace autopart {

namespace {

const TensorSharding *shardingAttr(const Module &m, AttrId a) {
  return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get()
                                                               : nullptr;
}

bool isManualAxis(const Module &m, OpId manualComputation, const std::string &name) {
  AttrId a = m.attr(manualComputation, "manual_axes");
  if (a == kNoAttr) return false;
  for (AttrId e : m.attrs.get(a).elems)
    if (m.attrs.stringValue(e) == name) return true;
  return false;
}

// The sharding of a collective's operand: what the value carries, or inside
// a manual computation's body, its argument's in-sharding less the manual
// axes, which the body no longer sees.
std::optional<TensorSharding> localSharding(const Module &m, ValueId v) {
  const ValueInfo &info = m.values[v];
  OpId owner = info.isBlockArg ? m.regions[m.blocks[info.owner].parent].parent : kNone;
  if (owner == kNone || !m.isa(owner, "sdy.manual_computation")) {
    const TensorSharding *s = valueSharding(m, v);
    return s ? std::optional<TensorSharding>(*s) : std::nullopt;
  }
  AttrId in = m.attr(owner, "in_shardings");
  if (in == kNoAttr || m.attrs.kind(in) != AttrKind::ShardingPerValue) return std::nullopt;
  const std::vector<TensorSharding> &all = m.attrs.get(in).shardings;
  if (info.index >= all.size()) return std::nullopt;
  TensorSharding s = all[info.index];
  auto dropManual = [&](AxisList &axes) {
    std::erase_if(axes, [&](const AxisRef &a) { return isManualAxis(m, owner, a.name); });
  };
  for (DimSharding &d : s.dims) dropManual(d.axes);
  dropManual(s.replicated);
  dropManual(s.unreduced);
  return s;
}

// Where MLIR places a value's location: its defining op, or for a block
// argument the op owning the block (a function's line for its arguments).
OpId valueLocation(const Module &m, ValueId v) {
  if (!m.values[v].isBlockArg) return m.values[v].owner;
  return m.regions[m.blocks[m.values[v].owner].parent].parent;
}

// `z` or `z:(2)2`: an axis without the quotes of its name.
std::string bareAxis(const AxisRef &a) {
  if (!a.isSubAxis()) return a.name;
  return a.name + ":(" + std::to_string(a.preSize) + ")" + std::to_string(a.subSize);
}

std::string reductionOf(const TensorSharding &s) {
  return s.unreducedKind.empty() ? "sum" : s.unreducedKind;
}

// A collective once the interface checks passed: its operand's sharding (a
// replicated one on the result's mesh when missing and allowed), its
// out_sharding and mesh, and its axes.
struct Collective {
  OpId op;
  TensorSharding operand;
  const TensorSharding *result;
  const Mesh *mesh;
  const Mesh *operandMesh;
  CollectiveAxes axes;
};

struct CollectiveKind {
  const char *axesAttr;  // "" for none
  bool allowMissingOperandSharding = false;
  bool allowDifferentMeshes = false;
};

std::optional<Collective> verifyCollective(VerifyContext &ctx, OpId op,
                                           const CollectiveKind &kind) {
  const Module &m = ctx.m;
  const TensorSharding *result = shardingAttr(m, m.attr(op, "out_sharding"));
  if (!result || m.numOperands(op) != 1 || m.numResults(op) != 1) return std::nullopt;
  Collective c{op, {}, result, nullptr, nullptr, {}};
  if (kind.axesAttr[0]) {
    AttrId a = m.attr(op, kind.axesAttr);
    if (a == kNoAttr) return std::nullopt;
    std::optional<CollectiveAxes> axes = parseCollectiveAxes(m.attrs.str(a));
    // Text the parser accepted but that is in no collective's form is left
    // to the parser's owner; nothing here can be checked against it.
    if (!axes) return std::nullopt;
    c.axes = std::move(*axes);
  }
  ValueId operand = m.operand(op, 0);
  std::optional<TensorSharding> operandSharding = localSharding(m, operand);
  if (!operandSharding && !kind.allowMissingOperandSharding) {
    ctx.opError(op, "collective on operand without sharding");
    return std::nullopt;
  }
  if (!verifyTensorSharding(ctx, *result, m.type(m.result(op)),
                            [&](const std::string &msg) { ctx.opError(op, msg); }))
    return std::nullopt;
  c.mesh = ctx.mesh(*result);
  if (!c.mesh) return std::nullopt;
  if (operandSharding) {
    c.operandMesh = ctx.mesh(*operandSharding);
    if (!c.operandMesh) return std::nullopt;
    if (!kind.allowDifferentMeshes && !(*c.operandMesh == *c.mesh)) {
      ctx.opError(op, "result mesh does not match operand mesh");
      ctx.diags.emit(Severity::Note, m, valueLocation(m, operand),
                     "operand mesh: #sdy.mesh" + c.operandMesh->str());
      return std::nullopt;
    }
    if (operandSharding->rank() != result->rank()) {
      ctx.opError(op, "result sharding has rank " + std::to_string(result->rank()) +
                          " but operand sharding has rank " +
                          std::to_string(operandSharding->rank()));
      return std::nullopt;
    }
    c.operand = std::move(*operandSharding);
  } else {
    c.operandMesh = c.mesh;
    c.operand = TensorSharding::closed(result->meshName, result->rank());
    c.operand.inlineMesh = result->inlineMesh;
  }
  return c;
}

// The collective's reduction must be the one its operand's unreduced
// partial values are waiting for.
bool verifyReductionMatches(VerifyContext &ctx, const Collective &c) {
  if (c.operand.unreduced.empty() || reductionOf(c.operand) == c.axes.reductionOp()) return true;
  ctx.opError(c.op, "cannot reduce '" + reductionOf(c.operand) + "' unreduced axes. Expected '" +
                        c.axes.reductionOp() + "'.");
  return false;
}

// Ops whose axes are one list per dimension (all_gather, all_slice,
// reduce_scatter, sharded_to_unreduced): the lists are valid axis lists
// together, one per result dimension, and applying each to the operand's
// dimension sharding gives the result's.
template <typename ApplyFn>
bool verifyAxesPerDim(VerifyContext &ctx, const Collective &c, ApplyFn apply) {
  EmitFn emit = [&](const std::string &msg) { ctx.opError(c.op, msg); };
  AxisRefChecker checker(*c.mesh, emit);
  for (const AxisList &axes : c.axes.perDim)
    if (!checker.addList(axes)) return false;
  if (c.result->rank() != c.axes.perDim.size()) {
    emit("result sharding has rank " + std::to_string(c.result->rank()) +
         " but collective axes has rank " + std::to_string(c.axes.perDim.size()));
    return false;
  }
  for (size_t d = 0; d < c.axes.perDim.size(); ++d) {
    std::optional<AxisList> expected = apply(c.operand.dims[d].axes, c.axes.perDim[d], d);
    if (!expected) return false;
    if (*expected != c.result->dims[d].axes) {
      emit("result sharding doesn't match expected sharding " + axisListStr(*expected, "[]") +
           " on dimension " + std::to_string(d));
      return false;
    }
  }
  return true;
}

// Gathering `axes` off the minor end of a dimension, or the error naming
// the axis that is not there.
std::optional<AxisList> gatherOrReport(VerifyContext &ctx, const Collective &c, const AxisList &dim,
                                       const AxisList &axes, size_t d, std::string_view axisKind) {
  AxisRef bad;
  std::optional<AxisList> out = gatherAlongDim(dim, axes, *c.mesh, bad);
  if (!out)
    ctx.opError(c.op, "can't apply " + std::string(axisKind) + " axis " + bad.str() +
                          " to operand sharding on dimension " + std::to_string(d));
  return out;
}

// The unreduced axes of the result are the operand's plus `added`, in the
// mesh's order. Both sides are sorted first: their order as written is the
// tensor-sharding check's concern.
bool verifyUnreducedGrows(VerifyContext &ctx, const Collective &c, AxisList added,
                          std::string_view addedName) {
  if (!c.result->unreduced.empty() && reductionOf(*c.result) != "sum") {
    ctx.opError(c.op, "out_sharding reduction_op must be SUM");
    return false;
  }
  AxisList expected = c.operand.unreduced;
  expected.insert(expected.end(), added.begin(), added.end());
  sortAndMerge(expected, *c.mesh);
  AxisList actual = c.result->unreduced;
  sortAndMerge(actual, *c.mesh);
  if (expected != actual) {
    ctx.opError(c.op, "out_unreduced_axes should be in_unreduced_axes + " + std::string(addedName));
    return false;
  }
  return true;
}

void verifyAllGather(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c = verifyCollective(ctx, op, {"gathering_axes"});
  if (!c) return;
  verifyAxesPerDim(ctx, *c, [&](const AxisList &dim, const AxisList &axes, size_t d) {
    return gatherOrReport(ctx, *c, dim, axes, d, "gathering");
  });
}

void verifyAllSlice(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c =
      verifyCollective(ctx, op, {"slicing_axes", /*allowMissingOperandSharding=*/true});
  if (!c) return;
  verifyAxesPerDim(ctx, *c, [&](const AxisList &dim, const AxisList &axes, size_t) {
    return std::optional(sliceAlongDim(dim, axes, *c->mesh));
  });
}

void verifyReduceScatter(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c =
      verifyCollective(ctx, op, {"reduce_scatter_axes", /*allowMissingOperandSharding=*/true});
  if (!c || !verifyReductionMatches(ctx, *c)) return;
  verifyAxesPerDim(ctx, *c, [&](const AxisList &dim, const AxisList &axes, size_t) {
    return std::optional(sliceAlongDim(dim, axes, *c->mesh));
  });
}

void verifyShardedToUnreduced(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c = verifyCollective(ctx, op, {"axes"});
  if (!c) return;
  bool ok = verifyAxesPerDim(ctx, *c, [&](const AxisList &dim, const AxisList &axes, size_t d) {
    return gatherOrReport(ctx, *c, dim, axes, d, "shard-to-unreduce");
  });
  if (!ok) return;
  AxisList moved;
  for (const AxisList &axes : c->axes.perDim) moved.insert(moved.end(), axes.begin(), axes.end());
  verifyUnreducedGrows(ctx, *c, std::move(moved), "sharded_to_unreduced_axes");
}

bool sameDimAxes(const TensorSharding &a, const TensorSharding &b) {
  if (a.rank() != b.rank()) return false;
  for (size_t d = 0; d < a.rank(); ++d)
    if (a.dims[d].axes != b.dims[d].axes) return false;
  return true;
}

// A flat list of axes (all_reduce's, replicated_to_unreduced's): sorted
// w.r.t. the mesh and a valid axis list.
bool verifySortedAxes(VerifyContext &ctx, const Collective &c, std::string_view what) {
  if (!isSortedByMesh(c.axes.axes, *c.mesh)) {
    ctx.opError(c.op, std::string(what) + " axes are not ordered w.r.t. mesh");
    return false;
  }
  EmitFn emit = [&](const std::string &msg) { ctx.opError(c.op, msg); };
  return AxisRefChecker(*c.mesh, emit).addList(c.axes.axes);
}

void verifyAllReduce(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c =
      verifyCollective(ctx, op, {"reduction_axes", /*allowMissingOperandSharding=*/true});
  if (!c) return;
  const Mesh &mesh = *c->mesh;
  if (!sameDimAxes(c->operand, *c->result)) {
    ctx.opError(op, "operand and result shardings are not equivalent");
    return;
  }
  if (!verifySortedAxes(ctx, *c, "reduction")) return;
  for (const AxisRef &axis : c->axes.axes) {
    // Reducing over an axis the operand is split or replicated along would
    // add up different pieces (or copies) of the tensor.
    bool overlapsOperand = false;
    for (const DimSharding &d : c->operand.dims)
      overlapsOperand = overlapsOperand || overlapsAny(axis, d.axes, mesh);
    if (overlapsOperand || overlapsAny(axis, c->operand.replicated, mesh)) {
      ctx.opError(op, "reduction axis " + axis.str() +
                          " overlaps with operand dimension sharding or replicated axes");
      return;
    }
    if (overlapsAny(axis, c->result->unreduced, mesh)) {
      ctx.opError(op, "reduction axis " + axis.str() + " overlaps with result unreduced axes");
      return;
    }
  }
  if (!verifyReductionMatches(ctx, *c)) return;
  for (const AxisRef &axis : c->result->unreduced)
    if (!overlapsAny(axis, c->operand.unreduced, mesh)) {
      ctx.opError(op, "cannot add new unreduced axis '" + bareAxis(axis) + "'.");
      return;
    }
}

void verifyReplicatedToUnreduced(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c = verifyCollective(ctx, op, {"axes"});
  if (!c) return;
  const Mesh &mesh = *c->mesh;
  if (c->axes.axes.empty()) {
    ctx.opError(op, "r2u axes must not be empty");
    return;
  }
  if (!verifySortedAxes(ctx, *c, "r2u")) return;
  if (!sameDimAxes(c->operand, *c->result)) {
    ctx.opError(op, "input and output must share the same dimension shardings");
    return;
  }
  for (const AxisRef &axis : c->axes.axes) {
    for (const DimSharding &d : c->operand.dims)
      if (overlapsAny(axis, d.axes, mesh)) {
        ctx.opError(op, "r2u axis " + axis.str() + " overlaps with operand dimension sharding");
        return;
      }
    if (overlapsAny(axis, c->operand.unreduced, mesh)) {
      ctx.opError(op, "r2u axis " + axis.str() + " overlaps with operand unreduced axes");
      return;
    }
  }
  verifyUnreducedGrows(ctx, *c, c->axes.axes, "r2u_axes");
}

// A collective permute may move the operand to another mesh, but only to a
// reordering of the same devices under the same axes, and must keep every
// dimension split into as many pieces.
void verifyCollectivePermute(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c =
      verifyCollective(ctx, op, {"", false, /*allowDifferentMeshes=*/true});
  if (!c) return;
  const Module &m = ctx.m;
  auto noteOperandMesh = [&] {
    ctx.diags.emit(Severity::Note, m, valueLocation(m, m.operand(op, 0)),
                   "operand mesh: #sdy.mesh" + c->operandMesh->str());
  };
  if (c->mesh->axes != c->operandMesh->axes) {
    ctx.opError(op, "result mesh has different axes than operand mesh");
    noteOperandMesh();
    return;
  }
  bool sameMeshRef =
      c->operand.meshName == c->result->meshName && c->operand.inlineMesh == c->result->inlineMesh;
  if (!sameMeshRef && c->mesh->deviceIds == c->operandMesh->deviceIds) {
    ctx.opError(op, "result mesh name is different but same device ids as operand");
    noteOperandMesh();
    return;
  }
  for (size_t d = 0; d < c->result->rank(); ++d) {
    const AxisList &in = c->operand.dims[d].axes, &out = c->result->dims[d].axes;
    if (in == out) continue;
    int64_t inSize = axesSize(in, *c->mesh), outSize = axesSize(out, *c->mesh);
    if (inSize != outSize) {
      ctx.opError(op, "sharded size of result doesn't match operand on dimension " +
                          std::to_string(d) + ": " + std::to_string(outSize) +
                          " != " + std::to_string(inSize));
      return;
    }
  }
}

// All-to-all: each parameter moves its axes from the minor end of the source
// dimension to the minor end of the target one; every dimension appears in
// at most one parameter and sources ascend.
void verifyAllToAll(VerifyContext &ctx, OpId op) {
  std::optional<Collective> c = verifyCollective(ctx, op, {"params"});
  if (!c) return;
  EmitFn emit = [&](const std::string &msg) { ctx.opError(op, msg); };
  const std::vector<AllToAllParam> &params = c->axes.params;
  if (params.empty()) {
    emit("parameter list is empty");
    return;
  }
  const Module &m = ctx.m;
  TypeId type = m.type(m.result(op));
  int64_t rank = m.types.isTensor(type) ? m.types.rank(type) : 0;
  std::vector<bool> seenDims(size_t(rank), false);
  AxisRefChecker checker(*c->mesh, emit);
  int64_t prevSrc = -1;
  for (const AllToAllParam &p : params) {
    if (!checker.addList(p.axes)) return;
    for (auto [dim, name] : {std::pair(p.srcDim, "source"), std::pair(p.tgtDim, "target")})
      if (dim < 0 || dim >= rank) {
        emit(std::string(name) + " dimension " + std::to_string(dim) + " is out of range [0, " +
             std::to_string(rank) + ")");
        return;
      }
    for (int64_t dim : {p.srcDim, p.tgtDim}) {
      if (seenDims[size_t(dim)]) {
        emit("overlapping source/target dimensions in all-to-all params: " + std::to_string(dim));
        return;
      }
      seenDims[size_t(dim)] = true;
    }
    if (prevSrc >= p.srcDim) {
      emit("source dimensions are not sorted in ascending order: " + std::to_string(p.srcDim) +
           " appears after " + std::to_string(prevSrc));
      return;
    }
    prevSrc = p.srcDim;
  }
  if (size_t(rank) != c->result->rank()) return;
  auto matches = [&](int64_t dim, const AxisList &expected) {
    if (expected == c->result->dims[size_t(dim)].axes) return true;
    emit("result sharding doesn't match expected sharding " + axisListStr(expected, "[]") +
         " on dimension " + std::to_string(dim));
    return false;
  };
  for (const AllToAllParam &p : params) {
    std::optional<AxisList> src = gatherOrReport(ctx, *c, c->operand.dims[size_t(p.srcDim)].axes,
                                                 p.axes, size_t(p.srcDim), "all-to-all");
    if (!src || !matches(p.srcDim, *src)) return;
    if (!matches(p.tgtDim, sliceAlongDim(c->operand.dims[size_t(p.tgtDim)].axes, p.axes, *c->mesh)))
      return;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (!seenDims[size_t(d)] && !matches(d, c->operand.dims[size_t(d)].axes)) return;
}

const OpVerifierRegistration kAllGather("sdy.all_gather", verifyAllGather);
const OpVerifierRegistration kAllSlice("sdy.all_slice", verifyAllSlice);
const OpVerifierRegistration kAllReduce("sdy.all_reduce", verifyAllReduce);
const OpVerifierRegistration kReduceScatter("sdy.reduce_scatter", verifyReduceScatter);
const OpVerifierRegistration kAllToAll("sdy.all_to_all", verifyAllToAll);
const OpVerifierRegistration kCollectivePermute("sdy.collective_permute", verifyCollectivePermute);
const OpVerifierRegistration kShardedToUnreduced("sdy.sharded_to_unreduced",
                                                 verifyShardedToUnreduced);
const OpVerifierRegistration kReplicatedToUnreduced("sdy.replicated_to_unreduced",
                                                    verifyReplicatedToUnreduced);

}  // namespace

}  // namespace autopart
