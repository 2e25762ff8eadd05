// Shardy's canonicalization patterns for its collectives. Collectives have
// side effects, so an unused one stays unless a pattern below removes it; the
// patterns fold away collectives that move nothing, cancel inverse pairs and
// fuse chains:
//
//   %0 = sdy.all_gather [{}, {}] %arg0 ...           -> %arg0  (no axes)
//   %1 = sdy.all_slice [{"x"}] (all_gather [{"x"}] %a) -> %a   (inverse pair)
//   %2 = sdy.all_slice [{"x", "z"}] (all_reduce {"x"} %a)
//        -> sdy.all_slice [{"z"}] (sdy.reduce_scatter [{"x"}] %a)
//   sdy.all_to_all [{"y"}: 1->3] (sdy.all_to_all [{"x"}: 0->2] %a)
//        -> sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->3] %a
#include <algorithm>

#include "canonicalize/Canonicalize.h"
#include "ir/CollectiveAxes.h"
#include "ir/ValueSharding.h"

namespace autopart::canonicalize {

namespace {

// The axes as written. Not necessarily an Opaque attribute: the table
// interns by spelling, so `{}` may come back as the empty dictionary.
std::string attrText(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::string() : m.attrs.str(a);
}

// The axes attribute `name` when it is written in the shape `is` accepts.
std::optional<CollectiveAxes> axesIn(const Module &m, OpId op, std::string_view name,
                                     bool (CollectiveAxes::*is)() const) {
  std::string text = attrText(m, op, name);
  std::optional<CollectiveAxes> axes = text.empty() ? std::nullopt : parseCollectiveAxes(text);
  return axes && ((*axes).*is)() ? axes : std::nullopt;
}

std::optional<CollectiveAxes> perDim(const Module &m, OpId op, std::string_view name) {
  return axesIn(m, op, name, &CollectiveAxes::isPerDim);
}

std::optional<CollectiveAxes> flat(const Module &m, OpId op, std::string_view name) {
  return axesIn(m, op, name, &CollectiveAxes::isFlat);
}

std::optional<TensorSharding> outSharding(const Module &m, OpId op) {
  AttrId a = m.attr(op, "out_sharding");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) return std::nullopt;
  return *m.attrs.get(a).sharding;
}

// The op defining `op`'s single operand when it is called `name`.
OpId operandDefinedBy(const Module &m, OpId op, std::string_view name) {
  if (m.numOperands(op) != 1) return kNone;
  OpId def = m.definingOp(m.operand(op, 0));
  return def != kNone && m.isa(def, name) ? def : kNone;
}

bool forwardOperand(Rewriter &rw, OpId op) {
  rw.replaceOp(op, {rw.m.operand(op, 0)});
  return true;
}

// --- Collectives that move nothing -------------------------------------------

template <const char *kAxesAttr>
bool foldEmptyPerDim(Rewriter &rw, OpId op) {
  std::optional<CollectiveAxes> axes = perDim(rw.m, op, kAxesAttr);
  return axes && axes->allEmpty() && forwardOperand(rw, op);
}

bool foldEmptyAllReduce(Rewriter &rw, OpId op) {
  std::optional<CollectiveAxes> axes = flat(rw.m, op, "reduction_axes");
  return axes && axes->axes.empty() && forwardOperand(rw, op);
}

// Same mesh, same axes per dimension and the same unreduced axes: open or
// closed dimensions and priorities do not change where the data lives.
bool equivalent(const TensorSharding &a, const TensorSharding &b) {
  if (a.meshName != b.meshName || a.inlineMesh != b.inlineMesh) return false;
  if (a.rank() != b.rank() || a.unreduced != b.unreduced || a.unreducedKind != b.unreducedKind) return false;
  for (size_t d = 0; d < a.rank(); ++d)
    if (a.dims[d].axes != b.dims[d].axes) return false;
  return true;
}

// A permute whose operand already has the target sharding; an operand
// without one counts as fully replicated.
bool foldNoopCollectivePermute(Rewriter &rw, OpId op) {
  std::optional<TensorSharding> out = outSharding(rw.m, op);
  if (!out || rw.m.numOperands(op) != 1) return false;
  const TensorSharding *in = valueSharding(rw.m, rw.m.operand(op, 0));
  bool same = in ? equivalent(*in, *out) : out->isFullyReplicated();
  return same && forwardOperand(rw, op);
}

constexpr char kGatheringAxes[] = "gathering_axes";
constexpr char kSlicingAxes[] = "slicing_axes";
constexpr char kReduceScatterAxes[] = "reduce_scatter_axes";

// --- Inverse pairs -------------------------------------------------------------

// Slicing exactly what was gathered gives back the gather's operand. The
// gather itself is left for whoever else reads it (as Shardy does).
bool foldAllSliceOfAllGather(Rewriter &rw, OpId op) {
  OpId gather = operandDefinedBy(rw.m, op, "sdy.all_gather");
  if (gather == kNone) return false;
  std::optional<CollectiveAxes> gathered = perDim(rw.m, gather, kGatheringAxes);
  std::optional<CollectiveAxes> sliced = perDim(rw.m, op, kSlicingAxes);
  if (!gathered || !sliced || gathered->perDim != sliced->perDim) return false;
  rw.replaceOp(op, {rw.m.operand(gather, 0)});
  return true;
}

// Reducing the axes a replicated_to_unreduced just made unreduced.
bool foldAllReduceOfReplicatedToUnreduced(Rewriter &rw, OpId op) {
  OpId r2u = operandDefinedBy(rw.m, op, "sdy.replicated_to_unreduced");
  if (r2u == kNone) return false;
  std::optional<CollectiveAxes> made = flat(rw.m, r2u, "axes");
  std::optional<CollectiveAxes> reduced = flat(rw.m, op, "reduction_axes");
  if (!made || !reduced || made->axes != reduced->axes) return false;
  rw.replaceOp(op, {rw.m.operand(r2u, 0)});
  return true;
}

// Reducing every axis a sharded_to_unreduced made unreduced is gathering the
// sharded operand along those axes.
bool allReduceOfShardedToUnreducedToAllGather(Rewriter &rw, OpId op) {
  Module &m = rw.m;
  OpId s2u = operandDefinedBy(m, op, "sdy.sharded_to_unreduced");
  if (s2u == kNone) return false;
  std::optional<CollectiveAxes> sharded = perDim(m, s2u, "axes");
  std::optional<CollectiveAxes> reduced = flat(m, op, "reduction_axes");
  std::optional<TensorSharding> s2uOut = outSharding(m, s2u);
  if (!sharded || !reduced || !s2uOut) return false;
  const Mesh *mesh = rw.mesh(*s2uOut);
  if (!mesh) return false;
  AxisList all;
  for (const AxisList &d : sharded->perDim) all.insert(all.end(), d.begin(), d.end());
  sortAndMerge(all, *mesh);
  if (all != reduced->axes) return false;
  CollectiveAxes gathering = CollectiveAxes::ofDims("", sharded->perDim);
  OpId gather = rw.createBefore(
      op, "sdy.all_gather", {m.operand(s2u, 0)}, {m.type(m.result(op))},
      {{m.names.get(kGatheringAxes), m.attrs.opaque(gathering.str())},
       {m.names.get("out_sharding"), m.attr(op, "out_sharding")}});
  rw.replaceOp(op, {m.result(gather)});
  return true;
}

// --- Reduce-scatter fusion -------------------------------------------------------

// all_reduce + all_slice -> reduce_scatter (+ the all_slice of what is left)
// when every reduction axis starts the slicing of some dimension, and every
// reader of the all_reduce is the same all_slice (this one the first), so the
// all_reduce goes away with them.
bool fuseReduceScatter(Rewriter &rw, OpId op) {
  Module &m = rw.m;
  OpId reduce = operandDefinedBy(m, op, "sdy.all_reduce");
  if (reduce == kNone) return false;
  std::optional<CollectiveAxes> slicing = perDim(m, op, kSlicingAxes);
  std::optional<CollectiveAxes> reduction = flat(m, reduce, "reduction_axes");
  std::optional<TensorSharding> reduceOut = outSharding(m, reduce);
  std::optional<TensorSharding> sliceOut = outSharding(m, op);
  if (!slicing || !reduction || !reduceOut || !sliceOut) return false;
  std::vector<OpId> slices = rw.users(m.result(reduce));
  for (OpId user : slices) {
    if (!m.isa(user, "sdy.all_slice") || m.ops[user].parent != m.ops[op].parent) return false;
    std::optional<CollectiveAxes> other = perDim(m, user, kSlicingAxes);
    if (!other || other->perDim != slicing->perDim) return false;
    if (user != op && rw.isBeforeInBlock(user, op)) return false;
  }
  const Mesh *mesh = rw.mesh(*reduceOut);
  if (!mesh) return false;

  AxisList remaining = reduction->axes;
  std::vector<AxisList> scattered, residual;
  bool hasResidual = false;
  for (const AxisList &dim : slicing->perDim) {
    size_t k = 0;
    for (; k < dim.size(); ++k) {
      auto it = std::find(remaining.begin(), remaining.end(), dim[k]);
      if (it == remaining.end()) break;
      remaining.erase(it);
    }
    scattered.emplace_back(dim.begin(), dim.begin() + k);
    residual.emplace_back(dim.begin() + k, dim.end());
    hasResidual |= k < dim.size();
  }
  if (!remaining.empty()) return false;

  ValueId input = m.operand(reduce, 0);
  size_t rank = slicing->perDim.size();
  const TensorSharding *stored = valueSharding(m, input);
  TensorSharding inSharding = stored ? *stored : TensorSharding::closed(reduceOut->meshName, rank);
  if (inSharding.rank() != rank) return false;
  TensorSharding scatterOut;
  scatterOut.meshName = reduceOut->meshName;
  scatterOut.inlineMesh = reduceOut->inlineMesh;
  for (size_t d = 0; d < rank; ++d) {
    DimSharding dim;
    dim.axes = inSharding.dims[d].axes;
    for (const AxisRef &a : scattered[d]) appendOrMerge(dim.axes, a, *mesh);
    scatterOut.dims.push_back(std::move(dim));
  }
  scatterOut.replicated = sliceOut->replicated;
  scatterOut.unreduced = sliceOut->unreduced;
  scatterOut.unreducedKind = sliceOut->unreducedKind;

  TypeId type = m.type(m.result(op));
  CollectiveAxes scatterAxes = CollectiveAxes::ofDims(reduction->reduction, std::move(scattered));
  OpId scatter = rw.createBefore(
      op, "sdy.reduce_scatter", {input}, {type},
      {{m.names.get("out_sharding"), m.attrs.sharding(std::move(scatterOut))},
       {m.names.get(kReduceScatterAxes), m.attrs.opaque(scatterAxes.str())}});
  ValueId result = m.result(scatter);
  if (hasResidual) {
    CollectiveAxes rest = CollectiveAxes::ofDims("", std::move(residual));
    OpId slice = rw.createBefore(op, "sdy.all_slice", {result}, {type},
                                 {{m.names.get("out_sharding"), m.attr(op, "out_sharding")},
                                  {m.names.get(kSlicingAxes), m.attrs.opaque(rest.str())}});
    result = m.result(slice);
  }
  for (OpId user : slices)
    if (!rw.isErased(user)) rw.replaceOp(user, {result});
  rw.eraseOp(reduce);
  return true;
}

// --- All-to-all ----------------------------------------------------------------------

bool eraseUnusedAllToAll(Rewriter &rw, OpId op) {
  if (!rw.resultsUnused(op)) return false;
  rw.eraseOp(op);
  return true;
}

// Two all-to-alls over disjoint dimensions, the inner read only by the outer,
// become one with both parameter lists (sorted by source dimension).
bool fuseAllToAll(Rewriter &rw, OpId op) {
  Module &m = rw.m;
  OpId inner = operandDefinedBy(m, op, "sdy.all_to_all");
  if (inner == kNone || !rw.hasOneUse(m.result(inner))) return false;
  std::optional<CollectiveAxes> first = axesIn(m, inner, "params", &CollectiveAxes::isAllToAll);
  std::optional<CollectiveAxes> second = axesIn(m, op, "params", &CollectiveAxes::isAllToAll);
  if (!first || !second) return false;
  for (const AllToAllParam &a : first->params)
    for (const AllToAllParam &b : second->params)
      if (a.srcDim == b.srcDim || a.srcDim == b.tgtDim || a.tgtDim == b.srcDim || a.tgtDim == b.tgtDim)
        return false;
  std::vector<AllToAllParam> combined = first->params;
  combined.insert(combined.end(), second->params.begin(), second->params.end());
  std::stable_sort(combined.begin(), combined.end(),
                   [](const AllToAllParam &a, const AllToAllParam &b) { return a.srcDim < b.srcDim; });
  rw.setAttr(op, "params", m.attrs.opaque(CollectiveAxes::ofParams(std::move(combined)).str()));
  rw.setOperand(op, 0, m.operand(inner, 0));
  return true;
}

PatternRegistration allGatherNoop("sdy.all_gather", "all-gather-noop",
                                  foldEmptyPerDim<kGatheringAxes>, 1, kCollectiveLabel);
PatternRegistration allSliceNoop("sdy.all_slice", "all-slice-noop", foldEmptyPerDim<kSlicingAxes>, 1, kCollectiveLabel);
PatternRegistration reduceScatterNoop("sdy.reduce_scatter", "reduce-scatter-noop",
                                      foldEmptyPerDim<kReduceScatterAxes>, 1, kCollectiveLabel);
PatternRegistration allReduceNoop("sdy.all_reduce", "all-reduce-noop", foldEmptyAllReduce, 1, kCollectiveLabel);
PatternRegistration permuteNoop("sdy.collective_permute", "collective-permute-noop",
                                foldNoopCollectivePermute, 1, kCollectiveLabel);
PatternRegistration sliceOfGather("sdy.all_slice", "all-slice-of-all-gather",
                                  foldAllSliceOfAllGather, 2, kCollectiveLabel);
PatternRegistration reduceOfR2u("sdy.all_reduce", "all-reduce-of-replicated-to-unreduced",
                                foldAllReduceOfReplicatedToUnreduced, 2, kCollectiveLabel);
PatternRegistration reduceOfS2u("sdy.all_reduce", "all-reduce-of-sharded-to-unreduced",
                                allReduceOfShardedToUnreducedToAllGather, 1, kCollectiveLabel);
PatternRegistration reduceScatterFusion("sdy.all_slice", "reduce-scatter-fusion",
                                        fuseReduceScatter, 1, kCollectiveLabel);
PatternRegistration allToAllNoUse("sdy.all_to_all", "all-to-all-no-use", eraseUnusedAllToAll, 1, kCollectiveLabel);
PatternRegistration allToAllFusion("sdy.all_to_all", "all-to-all-fusion", fuseAllToAll, 2, kCollectiveLabel);

}  // namespace

}  // namespace autopart::canonicalize
