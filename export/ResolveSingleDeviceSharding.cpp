// `-sdy-resolve-single-device-sharding`, as Shardy's pass of that name: an op
// whose results are placed on one device (a sharding on a maximal mesh,
// `sdy.mesh @dev1 = <[], device_ids=[1]>`) runs under a
// `stablehlo.if` that only that device takes; every other device produces
// zeros (tokens: a fresh token), and an all-reduce (sum) over all axes of the
// module's global mesh hands the device's values to everyone.
//
//   %1 = sdy.reshard %0 <@dev1, []>
//   %2 = stablehlo.add %1, %1 {sdy.sharding = ...<@dev1, []>...}
//   %3 = sdy.reshard %2 <@mesh, [{}, {}]>
//   ->
//   %p = stablehlo.partition_id ; %i = convert %p to i64 ; %c = constant 1
//   %e = stablehlo.compare EQ, %i, %c
//   %r = "stablehlo.if"(%e) ({ %a = stablehlo.add %0, %0 ; return %a },
//                            { %z = constant 0.0 ; return %z })
//   %3 = sdy.all_reduce {"x"} %r out_sharding=<@mesh, [{}, {}]>
//
// Operands read through a reshard to the single device read the reshard's
// input instead (the reshard goes once unused); a use that reshards the result
// to the replicated global sharding reads the all-reduce directly. The device
// is the partition id, or the replica id when `replica-count` > 1.
#include <algorithm>

#include "export/ZeroConstant.h"
#include "ir/AxisList.h"
#include "ir/Clone.h"
#include "ir/Pass.h"
#include "ir/PassOptionCatalog.h"
#include "sim/ShardingMap.h"

namespace autopart {

namespace {

class SingleDeviceResolver {
public:
  SingleDeviceResolver(Module &m, Diagnostics &diags, bool useReplicaId)
      : m_(m), diags_(diags), useReplicaId_(useReplicaId), map_(ShardingMap::fromModule(m)) {}

  bool run() {
    if (!findGlobalMesh()) return true;
    for (OpId func : m_.functions()) {
      std::vector<std::pair<OpId, int64_t>> todo;
      bool ok = true;
      m_.walk(func, [&](OpId op) {
        if (m_.opName(op).starts_with("sdy.")) return;
        std::optional<int64_t> device = targetDevice(op, ok);
        if (device) todo.push_back({op, *device});
      });
      if (!ok) return false;
      for (auto [op, device] : todo)
        if (!resolve(func, op, device)) return false;
    }
    return true;
  }

private:
  // The first non-maximal mesh with axes, in module order (Shardy's global mesh).
  bool findGlobalMesh() {
    if (m_.top == kNone) return false;
    for (BlockId b : m_.regions[m_.region(m_.top, 0)].blocks)
      for (OpId op : m_.blocks[b].ops) {
        if (!m_.isa(op, "sdy.mesh")) continue;
        std::string name(m_.attrs.stringValue(m_.attr(op, "sym_name")));
        const Mesh *mesh = map_.mesh(name);
        if (!mesh || mesh->isMaximal() || mesh->axes.empty()) continue;
        globalName_ = name;
        global_ = mesh;
        return true;
      }
    return false;
  }

  const Mesh *maximalMesh(const TensorSharding *s) const {
    const Mesh *mesh = s ? map_.mesh(*s) : nullptr;
    return mesh && mesh->isMaximal() ? mesh : nullptr;
  }

  // The device every single-device result of `op` names; the other tensor
  // results must be replicated.
  std::optional<int64_t> targetDevice(OpId op, bool &ok) {
    std::optional<int64_t> device;
    bool sharded = false;
    for (uint32_t r = 0; r < m_.numResults(op); ++r) {
      ValueId v = m_.result(op, r);
      if (!m_.types.isTensor(m_.type(v))) continue;
      const TensorSharding *s = map_.get(v);
      if (!s) continue;
      if (const Mesh *mesh = maximalMesh(s)) {
        if (device && *device != mesh->deviceIds[0]) {
          diags_.error(m_, op, "has results on different single devices");
          ok = false;
          return std::nullopt;
        }
        device = mesh->deviceIds[0];
      } else if (!s->isFullyReplicated()) {
        sharded = true;
      }
    }
    if (device && sharded) {
      diags_.error(m_, op, "mixes single-device results with sharded results");
      ok = false;
      return std::nullopt;
    }
    return device;
  }

  OpId place(OpId created, OpId near, BlockId block, OpId before) {
    m_.ops[created].srcOffset = m_.ops[near].srcOffset;
    m_.ops[created].loc = m_.ops[near].loc;
    m_.insertOp(block, created, before);
    return created;
  }

  ValueId scalarI64(int64_t value, OpId near, BlockId block, OpId before) {
    TypeId type = m_.types.tensor({}, m_.types.scalar("i64"));
    OpId c = m_.createOp("stablehlo.constant", {}, {type},
                         {{m_.names.get("value"), m_.attrs.denseElementsOwned("dense", std::to_string(value), type)}});
    return m_.result(place(c, near, block, before));
  }

  std::optional<std::string> zeroBody(TypeId tensorType) { return zeroLiteral(m_.types, tensorType); }

  // All uses of `v` inside `func`, as (op, operand index).
  std::vector<std::pair<OpId, uint32_t>> usesOf(OpId func, ValueId v) const {
    std::vector<std::pair<OpId, uint32_t>> uses;
    m_.walk(func, [&](OpId op) {
      for (uint32_t i = 0; i < m_.numOperands(op); ++i)
        if (m_.operand(op, i) == v) uses.push_back({op, i});
    });
    return uses;
  }

  bool resolve(OpId func, OpId op, int64_t device) {
    BlockId block = m_.ops[op].parent;
    std::vector<TypeId> resultTypes;
    for (uint32_t r = 0; r < m_.numResults(op); ++r) {
      TypeId t = m_.type(m_.result(op, r));
      if (!m_.types.isTensor(t) && t != m_.types.token()) {
        diags_.error(m_, op, "single-device op has a result that is neither a tensor nor a token");
        return false;
      }
      if (m_.types.isTensor(t) && !zeroBody(t)) {
        diags_.error(m_, op, "single-device op has a result whose element type has no zero literal");
        return false;
      }
      resultTypes.push_back(t);
    }

    // Guard: device id == target.
    TypeId i64 = m_.types.tensor({}, m_.types.scalar("i64"));
    TypeId u32 = m_.types.tensor({}, m_.types.scalar("ui32"));
    OpId id = place(m_.createOp(useReplicaId_ ? "stablehlo.replica_id" : "stablehlo.partition_id", {}, {u32}), op,
                    block, op);
    OpId idI64 = place(m_.createOp("stablehlo.convert", {m_.result(id)}, {i64}), op, block, op);
    ValueId target = scalarI64(device, op, block, op);
    TypeId i1 = m_.types.tensor({}, m_.types.scalar("i1"));
    OpId isTarget = place(m_.createOp("stablehlo.compare", {m_.result(idI64), target}, {i1},
                                      {{m_.names.get("comparison_direction"),
                                        m_.attrs.opaque("#stablehlo<comparison_direction EQ>")}}),
                          op, block, op);

    // The op itself, on the target device, reading single-device operands
    // from before their reshard.
    std::vector<OpId> operandReshards;
    RegionId thenRegion = m_.createRegion();
    BlockId thenBlock = m_.createBlock(thenRegion);
    OpId copy = cloneOp(m_, op, [](ValueId v) { return v; });
    m_.removeAttr(copy, "sdy.sharding");
    for (uint32_t i = 0; i < m_.numOperands(copy); ++i) {
      OpId def = m_.definingOp(m_.operand(copy, i));
      if (def == kNone || !m_.isa(def, "sdy.reshard") || !maximalMesh(map_.get(m_.result(def)))) continue;
      m_.setOperand(copy, i, m_.operand(def, 0));
      operandReshards.push_back(def);
    }
    place(copy, op, thenBlock, kNone);
    std::vector<ValueId> copyResults;
    for (uint32_t r = 0; r < m_.numResults(copy); ++r) copyResults.push_back(m_.result(copy, r));
    place(m_.createOp("stablehlo.return", copyResults, {}), op, thenBlock, kNone);

    // Everyone else: zeros and fresh tokens.
    RegionId elseRegion = m_.createRegion();
    BlockId elseBlock = m_.createBlock(elseRegion);
    std::vector<ValueId> zeros;
    for (TypeId t : resultTypes) {
      OpId z = m_.types.isTensor(t)
                   ? m_.createOp("stablehlo.constant", {}, {t},
                                 {{m_.names.get("value"), m_.attrs.denseElementsOwned("dense", *zeroBody(t), t)}})
                   : m_.createOp("stablehlo.create_token", {}, {t});
      zeros.push_back(m_.result(place(z, op, elseBlock, kNone)));
    }
    place(m_.createOp("stablehlo.return", zeros, {}), op, elseBlock, kNone);

    OpId ifOp = m_.createOp("stablehlo.if", {m_.result(isTarget)}, resultTypes, {}, 2);
    m_.attachRegions(ifOp, {thenRegion, elseRegion});
    place(ifOp, op, block, op);

    AxisList allAxes;
    for (const MeshAxis &a : global_->axes) allAxes.push_back(AxisRef{a.name});
    for (uint32_t r = 0; r < m_.numResults(op); ++r) {
      ValueId old = m_.result(op, r), now = m_.result(ifOp, r);
      if (!m_.types.isTensor(resultTypes[r])) {
        m_.replaceAllUsesWith(old, now, func);
        continue;
      }
      TensorSharding replicated = TensorSharding::closed(globalName_, size_t(m_.types.rank(resultTypes[r])));
      OpId ar = place(m_.createOp("sdy.all_reduce", {now}, {resultTypes[r]},
                                  {{m_.names.get("out_sharding"), m_.attrs.sharding(replicated)},
                                   {m_.names.get("reduction_axes"), m_.attrs.opaque(axisListStr(allAxes))}}),
                      op, block, op);
      map_.set(m_.result(ar), replicated);
      for (auto [user, i] : usesOf(func, old)) {
        const TensorSharding *s = map_.get(m_.result(user, 0));
        if (m_.isa(user, "sdy.reshard") && s && *s == replicated) {
          m_.replaceAllUsesWith(m_.result(user), m_.result(ar), func);
          m_.eraseOp(user);
          continue;
        }
        m_.setOperand(user, i, m_.result(ar));
      }
    }
    m_.eraseOp(op);
    for (OpId r : operandReshards)
      if (m_.ops[r].parent != kNone && usesOf(func, m_.result(r)).empty()) m_.eraseOp(r);
    return true;
  }

  Module &m_;
  Diagnostics &diags_;
  bool useReplicaId_;
  ShardingMap map_;
  std::string globalName_;
  const Mesh *global_ = nullptr;
};

bool runPass(Module &m, const PassOptions &options, Diagnostics &diags) {
  int64_t replicas = options.getInt("replica-count", 1);
  int64_t partitions = options.getInt("partition-count", 1);
  if (replicas < 1 || partitions < 1 || (replicas > 1 && partitions > 1)) {
    diags.error("-sdy-resolve-single-device-sharding: needs replica-count or partition-count to be 1 "
                "(and both at least 1), as Shardy does");
    return false;
  }
  return SingleDeviceResolver(m, diags, replicas > 1).run();
}

PassRegistration reg("sdy-resolve-single-device-sharding",
                     "Run each single-device op under a stablehlo.if on its device and all-reduce its "
                     "results over the global mesh",
                     runPass,
                     {sharedPassOption("replica-count"), sharedPassOption("partition-count")});

}  // namespace

}  // namespace autopart
