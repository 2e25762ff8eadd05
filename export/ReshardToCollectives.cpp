// `-sdy-reshard-to-collectives`: every `sdy.reshard` becomes the chain of sdy
// collectives that moves its operand's sharding to the reshard's sharding
// (export/CollectivePlanner says which, in Shardy's order). Each collective
// carries the sharding reached so far, closed. On mesh ["x"=2, "y"=2]:
//
//   func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>})
//   %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
//   ->
//   %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
//
// A reshard to the sharding its operand already has is erased (kept with
// `keep-redundant-reshards=true`). A reshard to a fully replicated sharding
// gathers everything on the operand's mesh. A reshard between meshes that
// differ in more than device order stays: no collective expresses it. An
// operand without a sharding counts as replicated; propagation barriers in
// front of the operand are looked through. Axes the target adds as unreduced
// become unreduced first:
//
//   %0 = sdy.reshard %arg0 <@mesh, [{}, {}], unreduced={"x"}>   (%arg0: [{"x"}, {}])
//   -> %0 = sdy.sharded_to_unreduced [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x"}>
//
// Unreduced axes the target drops need an sdy.all_reduce first (which
// -sdy-insert-explicit-reshards puts in): such a reshard is an error, as is
// one the planner cannot reach.
#include <algorithm>
#include <string>

#include "export/CollectivePlanner.h"
#include "ir/MeshLookup.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

// What identifies a mesh for Shardy here: its symbol, or the inline mesh.
std::string meshKey(const TensorSharding &s) { return s.inlineMesh ? "<inline>" + s.inlineMesh->str() : s.meshName; }

ValueId skipBarriers(const Module &m, ValueId v) {
  for (OpId def = m.definingOp(v); def != kNone && m.isa(def, "sdy.propagation_barrier"); def = m.definingOp(v))
    v = m.operand(def, 0);
  return v;
}

std::vector<AxisList> dimAxes(const TensorSharding &s) {
  std::vector<AxisList> out;
  for (const DimSharding &d : s.dims) out.push_back(d.axes);
  return out;
}

bool sameAxes(const TensorSharding &a, const TensorSharding &b) {
  if (a.rank() != b.rank()) return false;
  for (size_t d = 0; d < a.rank(); ++d)
    if (a.dims[d].axes != b.dims[d].axes) return false;
  return a.unreduced == b.unreduced;
}

class Rewriter {
public:
  Rewriter(Module &m, Diagnostics &diags, bool keepRedundant) : m_(m), diags_(diags), keepRedundant_(keepRedundant) {}

  bool run() {
    for (OpId func : m_.functions()) {
      std::vector<OpId> reshards;
      m_.walk(func, [&](OpId op) {
        if (m_.isa(op, "sdy.reshard")) reshards.push_back(op);
      });
      for (OpId op : reshards)
        if (!rewrite(func, op)) return false;
    }
    return true;
  }

private:
  const TensorSharding *attrSharding(OpId op, std::string_view name) const {
    AttrId a = m_.attr(op, name);
    return a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
  }

  bool rewrite(OpId func, OpId op) {
    const TensorSharding *target = attrSharding(op, "sharding");
    if (!target) return true;  // the verifier reports a reshard without one
    TensorSharding out = *target;
    ValueId input = skipBarriers(m_, m_.operand(op, 0));
    const TensorSharding *present = valueSharding(m_, input);
    if (keepRedundant_ && present && meshKey(*present) == meshKey(out) && sameAxes(*present, out)) return true;
    TensorSharding in = present ? *present : TensorSharding::open(out.meshName, out.rank());
    if (!present) in.inlineMesh = out.inlineMesh;
    if (in.rank() != out.rank()) {
      diags_.error(m_, op, "sdy.reshard: operand sharding rank " + std::to_string(in.rank()) +
                               " differs from the target's " + std::to_string(out.rank()));
      return false;
    }
    if (out.isFullyReplicated()) {
      if (in.isFullyReplicated()) return replace(func, op, input);
      TensorSharding closed = TensorSharding::closed(in.meshName, in.rank());
      closed.inlineMesh = in.inlineMesh;
      out = closed;
    }
    const Mesh *inMesh = shardingMesh(m_, in);
    const Mesh *outMesh = shardingMesh(m_, out);
    if (!inMesh || !outMesh) {
      diags_.error(m_, op, "sdy.reshard: unknown mesh");
      return false;
    }
    bool meshChanges = meshKey(in) != meshKey(out);
    if (meshChanges && inMesh->axes != outMesh->axes) return true;  // not expressible as collectives
    AxisList added;
    for (const AxisRef &a : out.unreduced) {
      if (std::find(in.unreduced.begin(), in.unreduced.end(), a) == in.unreduced.end()) added.push_back(a);
    }
    bool kindChanges = !in.unreduced.empty() && in.unreducedKind != out.unreducedKind;
    if (kindChanges || in.unreduced.size() + added.size() != out.unreduced.size()) {
      diags_.error(m_, op, "sdy.reshard: unreduced axes " + axisListStr(in.unreduced) + " are not kept in " +
                               axisListStr(out.unreduced) + "; an sdy.all_reduce must come first");
      return false;
    }
    ValueId last = input;
    std::vector<AxisList> from = dimAxes(in);
    if (!added.empty()) last = makeUnreduced(op, last, from, added, in, out, *inMesh);
    const std::vector<int64_t> &shape = m_.types.shape(m_.type(m_.result(op)));
    CollectivePlan plan = planCollectives(*inMesh, shape, from, dimAxes(out), meshChanges);
    if (!plan.reached) {
      diags_.error(m_, op, "sdy.reshard: no sequence of collectives found from " + in.str() + " to " + out.str());
      return false;
    }
    for (const CollectiveStep &step : plan.steps) last = emit(op, last, step, step.onTargetMesh ? out : in, out);
    return replace(func, op, last);
  }

  // Axes the target holds unreduced that the operand does not: those the
  // operand shards become unreduced in place (sdy.sharded_to_unreduced,
  // dropping them from `dims`), the others from replicated
  // (sdy.replicated_to_unreduced). A sharding axis that only partly overlaps
  // one keeps its parts before and after it.
  ValueId makeUnreduced(OpId reshard, ValueId input, std::vector<AxisList> &dims, const AxisList &added,
                        const TensorSharding &in, const TensorSharding &out, const Mesh &mesh) {
    std::vector<AxisList> moved(dims.size());
    AxisList unreducedNow = in.unreduced;
    for (size_t d = 0; d < dims.size(); ++d) {
      AxisList kept;
      for (const AxisRef &a : dims[d]) {
        const AxisRef *hit = nullptr;
        for (const AxisRef &u : added)
          if (a.overlaps(u, mesh)) hit = &u;
        if (!hit) {
          kept.push_back(a);
          continue;
        }
        int64_t start = std::max(axisStart(a), axisStart(*hit));
        int64_t end = std::min(axisEnd(a, mesh), axisEnd(*hit, mesh));
        if (axisStart(a) < start) kept.push_back(makeAxis(a.name, axisStart(a), start / axisStart(a), mesh));
        appendOrMerge(moved[d], makeAxis(a.name, start, end / start, mesh), mesh);
        unreducedNow.push_back(makeAxis(a.name, start, end / start, mesh));
        if (end < axisEnd(a, mesh)) kept.push_back(makeAxis(a.name, end, axisEnd(a, mesh) / end, mesh));
      }
      dims[d] = std::move(kept);
    }
    auto sharding = [&](const AxisList &unreduced) {
      TensorSharding s = TensorSharding::closed(in.meshName, dims.size());
      s.inlineMesh = in.inlineMesh;
      for (size_t d = 0; d < dims.size(); ++d) s.dims[d].axes = dims[d];
      s.unreduced = unreduced;
      sortAndMerge(s.unreduced, mesh);
      s.unreducedKind = out.unreducedKind;
      return s;
    };
    ValueId last = input;
    bool anySharded = false;
    for (const AxisList &d : moved) anySharded |= !d.empty();
    if (anySharded)
      last = create(reshard, "sdy.sharded_to_unreduced", last,
                    {{m_.names.get("axes"), m_.attrs.opaque(CollectiveAxes::ofDims("", moved).str())}},
                    sharding(unreducedNow));
    AxisList replicated = axisSetDiff(added, unreducedNow, mesh);
    if (!replicated.empty()) {
      sortAndMerge(replicated, mesh);
      last = create(reshard, "sdy.replicated_to_unreduced", last,
                    {{m_.names.get("axes"), m_.attrs.opaque(axisListStr(replicated))}}, sharding(out.unreduced));
    }
    return last;
  }

  ValueId create(OpId reshard, std::string_view name, ValueId input, std::vector<NamedAttr> attrs,
                 TensorSharding result) {
    attrs.push_back({m_.names.get("out_sharding"), m_.attrs.sharding(std::move(result))});
    OpId op = m_.createOp(name, {input}, {m_.type(m_.result(reshard))}, attrs);
    m_.ops[op].srcOffset = m_.ops[reshard].srcOffset;
    m_.ops[op].loc = m_.ops[reshard].loc;
    m_.insertOp(m_.ops[reshard].parent, op, reshard);
    return m_.result(op);
  }

  ValueId emit(OpId reshard, ValueId input, const CollectiveStep &step, const TensorSharding &meshSide,
               const TensorSharding &out) {
    TensorSharding s = TensorSharding::closed(meshSide.meshName, step.result.size());
    s.inlineMesh = meshSide.inlineMesh;
    for (size_t d = 0; d < step.result.size(); ++d) s.dims[d].axes = step.result[d];
    s.unreduced = out.unreduced;
    s.unreducedKind = out.unreducedKind;
    std::vector<NamedAttr> attrs;
    std::string_view name;
    switch (step.kind) {
      case CollectiveStep::Kind::AllGather:
        name = "sdy.all_gather";
        attrs.push_back(
            {m_.names.get("gathering_axes"), m_.attrs.opaque(CollectiveAxes::ofDims("", step.perDim).str())});
        break;
      case CollectiveStep::Kind::AllSlice:
        name = "sdy.all_slice";
        attrs.push_back(
            {m_.names.get("slicing_axes"), m_.attrs.opaque(CollectiveAxes::ofDims("", step.perDim).str())});
        break;
      case CollectiveStep::Kind::AllToAll:
        name = "sdy.all_to_all";
        attrs.push_back({m_.names.get("params"), m_.attrs.opaque(CollectiveAxes::ofParams({step.param}).str())});
        break;
      case CollectiveStep::Kind::CollectivePermute:
        name = "sdy.collective_permute";
        break;
    }
    return create(reshard, name, input, std::move(attrs), std::move(s));
  }

  bool replace(OpId func, OpId op, ValueId with) {
    m_.replaceAllUsesWith(m_.result(op), with, func);
    m_.eraseOp(op);
    return true;
  }

  Module &m_;
  Diagnostics &diags_;
  bool keepRedundant_;
};

PassRegistration reg("sdy-reshard-to-collectives",
                     "Turn every sdy.reshard into sdy collectives (Shardy's choice and order)",
                     [](Module &m, const PassOptions &o, Diagnostics &diags) {
                       return Rewriter(m, diags, o.getBool("keep-redundant-reshards", false)).run();
                     },
                     {{"keep-redundant-reshards", "bool", "keep reshards between equal shardings (default false)"}});

}  // namespace

}  // namespace autopart
