// `-sdy-resolve-permutation-factors`, as Shardy's pass of that name: a
// dimension mapped to a permutation factor of an op's sharding rule (a padded,
// sliced, reversed or windowed dimension) cannot simply be computed shard by
// shard, since an output shard needs input elements another device holds.
// The pass replicates such dimensions around the op: the operands are
// resharded without the factor's axes, the op computes its result that way,
// and the result is resharded back to its annotated sharding.
//
//   %0 = stablehlo.reverse %arg0 [{"a"}, {"b"}], dims = [0] -> [{"a"}, {"b"}]
//   ->
//   %r = sdy.reshard %arg0 <@mesh, [{}, {"b"}]>
//   %0 = stablehlo.reverse %r, dims = [0] {sdy.sharding = ...[{}, {"b"}]...}
//   %1 = sdy.reshard %0 <@mesh, [{"a"}, {"b"}]>
//
// A pad or slice dimension whose every output shard comes from the same
// device's input shard needs nothing (slice [0:3] of 4 elements on 2 devices).
// Reshapes have no permutation factor but a non-divisible sharding across a
// group of reshaped dimensions moves data as well; the axes of such groups
// are replicated the same way (export/ReshapeGroups.h says when).
//
// With `enable-halo-exchange` (the default, as in Shardy) pads, slices,
// reverses and splitting reshapes move only the data each device needs
// instead: reverses compute on a mesh whose device order runs backwards
// (export/HaloExchange.h), pads and slices gather neighbouring shards
// (export/HaloPadSlice.h), splits of non-divisible dimensions gather their
// output tiles (export/HaloReshape.h). Where that cannot work (a window more
// than one shard away that wraps around, a merge) the op is replicated as
// above. Two cases Shardy's halo exchange accepts are replicated here for
// correctness: a pad whose padding value is not zero (collective permutes
// fill the buffer's edges with zeros) and a strided slice of a sharded
// dimension. `replica-count` > 1 numbers devices by replica id and gives the
// collective permutes no channel.
#include <algorithm>
#include <set>

#include "export/HaloExchange.h"
#include "export/HaloPadSlice.h"
#include "export/HaloReshape.h"
#include "export/HaloWindowExchange.h"
#include "export/ReshapeGroups.h"
#include "ir/FactorProjection.h"
#include "ir/Pass.h"
#include "ir/PassOptionCatalog.h"
#include "rules/OpShardingRuleRegistry.h"
#include "sim/ReshardPlan.h"
#include "sim/ShardingMap.h"
#include "support/IntMath.h"
#include "rules/RuleFamilies.h"

namespace autopart {

namespace {

using rules::shapeOf;


class Resolver {
public:
  Resolver(Module &m, bool haloRequested, bool crossPartition)
      : m_(m), haloRequested_(haloRequested), map_(ShardingMap::fromModule(m)),
        channels_(ChannelIds::forModule(m, crossPartition)) {}

  void run() {
    for (OpId func : m_.functions()) {
      std::vector<OpId> ops;
      m_.walk(func, [&](OpId op) { ops.push_back(op); });
      for (OpId op : ops) {
        std::string_view name = m_.opName(op);
        if (!name.starts_with("stablehlo.") || name == "stablehlo.return") continue;
        if (name == "stablehlo.reshape")
          resolveReshape(func, op);
        else
          resolveByRule(func, op);
      }
    }
  }

private:
  ValueId reshardBefore(OpId user, ValueId v, const TensorSharding &target) {
    OpId r = m_.createOp("sdy.reshard", {v}, {m_.type(v)},
                         {{m_.names.get("sharding"), m_.attrs.sharding(target)}});
    m_.ops[r].srcOffset = m_.ops[user].srcOffset;
    m_.ops[r].loc = m_.ops[user].loc;
    m_.insertOp(m_.ops[user].parent, r, user);
    map_.set(m_.result(r), target);
    return m_.result(r);
  }

  // Inserts `created` (reading `v`) right after `op`; every other use of `v`
  // reads `created`'s result.
  void insertAfterAndReplace(OpId func, OpId op, OpId created, ValueId v) {
    m_.ops[created].srcOffset = m_.ops[op].srcOffset;
    m_.ops[created].loc = m_.ops[op].loc;
    const std::vector<OpId> &siblings = m_.blocks[m_.ops[op].parent].ops;
    auto it = std::find(siblings.begin(), siblings.end(), op);
    OpId next = it == siblings.end() || it + 1 == siblings.end() ? kNone : *(it + 1);
    m_.insertOp(m_.ops[op].parent, created, next);
    m_.replaceAllUsesWith(v, m_.result(created), func);
    m_.setOperand(created, 0, v);
  }

  // Reshards `v`, a result of `op`, to `target` right after `op`; every other
  // use of `v` reads the reshard.
  OpId reshardAfter(OpId func, OpId op, ValueId v, const TensorSharding &target) {
    OpId r = m_.createOp("sdy.reshard", {v}, {m_.type(v)},
                         {{m_.names.get("sharding"), m_.attrs.sharding(target)}});
    insertAfterAndReplace(func, op, r, v);
    map_.set(m_.result(r), target);
    return r;
  }

  // The `sdy.mesh` symbol for `mesh`: an existing one, else a new one named
  // `base` (or `base_0`, `base_1`, ... when taken) at the top of the module.
  std::string meshSymbol(const Mesh &mesh, const std::string &base) {
    for (const auto &[name, existing] : map_.meshes())
      if (existing == mesh && m_.lookupSymbol(name) != kNone) return name;
    std::string name = base;
    for (int k = 0; m_.lookupSymbol(name) != kNone; ++k) name = base + "_" + std::to_string(k);
    OpId def = m_.createOp("sdy.mesh", {}, {},
                           {{m_.names.get("mesh"), m_.attrs.mesh(mesh)},
                            {m_.names.get("sym_name"), m_.attrs.string(name)}});
    BlockId body = m_.regions[m_.region(m_.top, 0)].blocks[0];
    m_.insertOp(body, def, m_.blocks[body].ops.empty() ? kNone : m_.blocks[body].ops.front());
    map_.addMesh(name, mesh);
    return name;
  }

  // Shardy's sharded reverse: a reversed dimension keeps its sharding when
  // the devices along its axes are taken in reverse order, i.e. on a mesh
  // whose device ids run backwards along them; a reshard to the annotated
  // sharding then moves whole shards. A dimension the axes do not divide is
  // first padded at the end, and the padding shifted to the start by a halo
  // exchange, so that it ends at the end again after the reverse. Returns
  // false when the op is left for replication (a sharding with an inline
  // mesh has no mesh symbol to reverse, dynamic shapes cannot be padded).
  bool resolveReverseByHalo(OpId func, OpId op) {
    ValueId in = m_.operand(op, 0), out = m_.result(op);
    std::optional<TensorSharding> inSharding = copyOf(map_.get(in));
    if (!inSharding || inSharding->isFullyReplicated()) return true;
    const Mesh *mesh = map_.mesh(*inSharding);
    if (!mesh || mesh->isMaximal()) return true;
    std::vector<int64_t> shape = shapeOf(m_, in);
    if (inSharding->meshName.empty() || shape.size() != inSharding->rank()) return false;
    for (int64_t d : shape)
      if (d < 0) return false;
    std::optional<TensorSharding> annotated = copyOf(map_.get(out));
    TensorSharding outSharding = annotated ? *annotated : TensorSharding::closed(inSharding->meshName, shape.size());
    std::vector<int64_t> dims = m_.attrs.intList(m_.attr(op, "dimensions"));

    std::vector<int64_t> padded = shape;
    AxisList toReverse;
    std::set<std::string> manual;
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t count = inSharding->dims[d].shardCount(*mesh);
      if (count <= 1 || std::find(dims.begin(), dims.end(), int64_t(d)) == dims.end()) continue;
      for (const AxisRef &a : inSharding->dims[d].axes) toReverse.push_back(a);
      if (shape[d] % count == 0) continue;
      for (const AxisRef &a : inSharding->dims[d].axes) manual.insert(a.name);
      padded[d] = ceilDiv(shape[d], count) * count;
    }
    if (toReverse.empty()) return true;

    OpPlacer at{m_, map_, op, m_.ops[op].parent, op};
    ValueId input = in;
    TypeId element = m_.types.elementType(m_.type(in));
    if (!manual.empty()) {
      input = padHighToShape(at, in, padded, *inSharding, kNone);
      std::vector<int64_t> shiftDims, shifts;
      for (size_t d = 0; d < shape.size(); ++d)
        if (padded[d] != shape[d]) {
          shiftDims.push_back(int64_t(d));
          shifts.push_back(padded[d] - shape[d]);
        }
      input = haloRightShift(at, channels_, input, *inSharding, *mesh, manual, shiftDims, shifts);
    }

    TensorSharding reversed = *inSharding;
    reversed.meshName = meshSymbol(reversedMesh(*mesh, toReverse), inSharding->meshName + "_reversed");
    m_.setOperand(op, 0, input);
    m_.setType(out, m_.type(input));
    m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue({reversed}));
    map_.set(out, reversed);
    OpId back = reshardAfter(func, op, out, outSharding);
    if (manual.empty()) return true;
    std::vector<int64_t> zeros(shape.size(), 0), ones(shape.size(), 1);
    TypeId i64 = m_.types.scalar("i64");
    OpId trim = m_.createOp("stablehlo.slice", {m_.result(back)}, {m_.types.tensor(shape, element)},
                            {{m_.names.get("start_indices"), m_.attrs.denseArray(i64, zeros)},
                             {m_.names.get("limit_indices"), m_.attrs.denseArray(i64, shape)},
                             {m_.names.get("strides"), m_.attrs.denseArray(i64, ones)},
                             {m_.names.get("sdy.sharding"), m_.attrs.shardingPerValue({*inSharding})}});
    insertAfterAndReplace(func, back, trim, m_.result(back));
    map_.set(m_.result(trim), *inSharding);
    return true;
  }

  void resolveByRule(OpId func, OpId op) {
    std::optional<OpShardingRule> rule = getOpShardingRule(m_, op);
    if (!rule || rule->isCustom || rule->permutationFactors.empty()) return;
    if (haloRequested_) {
      if (m_.isa(op, "stablehlo.reverse") && resolveReverseByHalo(func, op)) return;
      HaloOutcome outcome = HaloOutcome::Unsupported;
      if (m_.isa(op, "stablehlo.pad")) outcome = resolvePadByHalo(m_, map_, channels_, func, op);
      if (m_.isa(op, "stablehlo.slice")) outcome = resolveSliceByHalo(m_, map_, channels_, func, op);
      if (outcome != HaloOutcome::Unsupported) return;
    }
    uint32_t numOperands = m_.numOperands(op), numResults = m_.numResults(op);
    if (rule->operands.size() != numOperands || rule->results.size() != numResults) return;

    // Copies: inserting reshards below grows the map and moves its entries.
    std::vector<std::optional<TensorSharding>> owned;
    for (ValueId v : m_.operands(op)) owned.push_back(copyOf(map_.get(v)));
    for (uint32_t r = 0; r < numResults; ++r) owned.push_back(copyOf(map_.get(m_.result(op, r))));
    std::vector<const TensorSharding *> current;
    for (const auto &s : owned) current.push_back(s ? &*s : nullptr);
    std::string meshName;
    const Mesh *mesh = commonMesh(current, map_, &meshName);
    if (!mesh) return;

    std::vector<TensorFactorShardings> tensors;
    for (size_t t = 0; t < current.size(); ++t)
      tensors.push_back(projectTensor(current[t], mappingOf(*rule, t, numOperands), *rule, *mesh,
                                      /*closedIfMissing=*/true));

    bool isPad = m_.isa(op, "stablehlo.pad"), isSlice = m_.isa(op, "stablehlo.slice");
    std::vector<bool> updated(tensors.size(), false);
    for (int32_t f : rule->permutationFactors) {
      if ((isPad || isSlice) && numOperands > 0) {
        std::optional<size_t> dim = dimOfFactor(rule->operands[0], f);
        const TensorSharding *in = current[0];
        if (dim && (isPad ? isLocalPadDim(m_, op, *dim, in, *mesh) : isLocalSliceDim(m_, op, *dim, in, *mesh)))
          continue;
      }
      for (size_t t = 0; t < tensors.size(); ++t) {
        if (!tensors[t].has(size_t(f))) continue;
        FactorSharding &fs = tensors[t].factors[size_t(f)];
        if (fs.axes.empty() && fs.overflow.empty()) continue;
        fs.axes.clear();
        fs.overflow.clear();
        updated[t] = true;
      }
    }
    if (std::none_of(updated.begin(), updated.end(), [](bool b) { return b; })) return;

    // A mesh written inline in the shardings stays inline in the new ones.
    std::optional<Mesh> inlineMesh;
    for (const TensorSharding *c : current)
      if (c && c->meshName == meshName && c->inlineMesh) inlineMesh = c->inlineMesh;
    auto unproject = [&](const TensorFactorShardings &tfs, const OpShardingRule::TensorFactors &mapping) {
      TensorSharding s = unprojectTensor(tfs, mapping, meshName, *mesh);
      s.inlineMesh = inlineMesh;
      return s;
    };
    for (uint32_t i = 0; i < numOperands; ++i) {
      if (!updated[i]) continue;
      TensorSharding target = unproject(tensors[i], rule->operands[i]);
      m_.setOperand(op, i, reshardBefore(op, m_.operand(op, i), target));
    }
    std::vector<TensorSharding> computed;
    std::vector<std::optional<TensorSharding>> restore(numResults);
    for (uint32_t r = 0; r < numResults; ++r) {
      const TensorSharding *annotated = current[numOperands + r];
      ValueId v = m_.result(op, r);
      TensorSharding closed = TensorSharding::closed(meshName, size_t(std::max<int64_t>(0, m_.types.rank(m_.type(v)))));
      closed.inlineMesh = inlineMesh;
      if (!updated[numOperands + r]) {
        computed.push_back(annotated ? *annotated : closed);
        continue;
      }
      computed.push_back(unproject(tensors[numOperands + r], rule->results[r]));
      restore[r] = annotated ? *annotated : closed;
    }
    m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue(computed));
    for (uint32_t r = 0; r < numResults; ++r) {
      if (!restore[r]) continue;
      ValueId v = m_.result(op, r);
      map_.set(v, computed[r]);
      reshardAfter(func, op, v, *restore[r]);
    }
  }

  static std::optional<TensorSharding> copyOf(const TensorSharding *s) {
    return s ? std::optional<TensorSharding>(*s) : std::nullopt;
  }

  static const OpShardingRule::TensorFactors &mappingOf(const OpShardingRule &rule, size_t t, size_t numOperands) {
    return t < numOperands ? rule.operands[t] : rule.results[t - numOperands];
  }

  static std::optional<size_t> dimOfFactor(const OpShardingRule::TensorFactors &mapping, int32_t f) {
    for (size_t d = 0; d < mapping.size(); ++d)
      if (std::find(mapping[d].begin(), mapping[d].end(), f) != mapping[d].end()) return d;
    return std::nullopt;
  }

  // Replicates the axes of every non-pass-through group with a non-divisible
  // dimension, unless each device already holds what it must produce.
  void resolveReshape(OpId func, OpId op) {
    ValueId in = m_.operand(op, 0), out = m_.result(op);
    std::optional<TensorSharding> inOwned = copyOf(map_.get(in)), outOwned = copyOf(map_.get(out));
    if (!inOwned || !outOwned) return;
    const TensorSharding *inSharding = &*inOwned, *outSharding = &*outOwned;
    const Mesh *mesh = map_.mesh(*inSharding);
    if (!mesh || mesh->isMaximal()) return;
    std::vector<int64_t> inShape = shapeOf(m_, in), outShape = shapeOf(m_, out);
    if (inShape.size() != inSharding->rank() || outShape.size() != outSharding->rank()) return;
    for (int64_t d : inShape)
      if (d < 0) return;
    for (int64_t d : outShape)
      if (d < 0) return;
    if (shardingLocalAcrossReshape(inShape, *inSharding, outShape, *outSharding, *mesh)) return;

    AxisList removed;
    for (const ReshapeGroup &g : reshapeGroups(inShape, outShape)) {
      if (g.isPassThrough() ||
          !groupHasIndivisibleDim(g, inShape, *inSharding, outShape, *outSharding, *mesh))
        continue;
      for (int64_t d = g.inBegin; d < g.inEnd; ++d)
        for (const AxisRef &a : inSharding->dims[size_t(d)].axes) removed.push_back(a);
      for (int64_t d = g.outBegin; d < g.outEnd; ++d)
        for (const AxisRef &a : outSharding->dims[size_t(d)].axes) removed.push_back(a);
    }
    if (removed.empty()) return;
    if (haloRequested_ &&
        resolveReshapeByHalo(m_, map_, channels_, func, op, *inSharding, *outSharding, *mesh) == HaloOutcome::Rewritten)
      return;

    auto without = [&](TensorSharding s) {
      for (DimSharding &d : s.dims) d.axes = axisSetDiff(d.axes, removed, *mesh);
      return s;
    };
    TensorSharding annotated = *outSharding;
    m_.setOperand(op, 0, reshardBefore(op, in, without(*inSharding)));
    TensorSharding computed = without(annotated);
    m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue({computed}));
    map_.set(out, computed);
    reshardAfter(func, op, out, annotated);
  }

  Module &m_;
  bool haloRequested_;
  ShardingMap map_;
  ChannelIds channels_;
};

bool runPass(Module &m, const PassOptions &options, Diagnostics &diags) {
  int64_t replicas = options.getInt("replica-count", 1);
  int64_t partitions = options.getInt("partition-count", 1);
  if (replicas < 1 || partitions < 1) {
    diags.error("-sdy-resolve-permutation-factors: replica-count and partition-count must be at least 1");
    return false;
  }
  if (replicas > 1 && partitions > 1) {
    diags.error("-sdy-resolve-permutation-factors: replica-count > 1 together with partition-count > 1 "
                "is not supported (as in Shardy)");
    return false;
  }
  Resolver(m, options.getBool("enable-halo-exchange", true), replicas == 1).run();
  return true;
}

PassRegistration reg("sdy-resolve-permutation-factors",
                     "Resolve dimensions on permutation factors (and non-divisible reshape groups) by "
                     "halo exchange (enable-halo-exchange, default) or by replicating them around the op",
                     runPass,
                     {{"enable-halo-exchange", "bool", "halo exchange for windows (default true); false: replicate"},
                      sharedPassOption("replica-count"), sharedPassOption("partition-count")});

}  // namespace

}  // namespace autopart
