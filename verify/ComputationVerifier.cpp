// Shardy's checks of the ops that wrap a region: `sdy.manual_computation`
// (whose body sees each value's local shard along the manual axes) and
// `sdy.named_computation` (whose body sees the values as they are).
//
//   sdy.mesh @mesh = <["a"=2]>
//   %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>]
//          out_shardings=[<@mesh, [{}, {}]>] manual_axes={"a"}
//          (%arg1: tensor<16x32xf32>) { ... } : (tensor<16x32xf32>) -> tensor<16x32xf32>
//   -> 'sdy.manual_computation' op operand shape, corresponding sharding, and
//      region operand shape at index 0 must match. Expected local shape
//      'tensor<8x32xf32>', actual local shape 'tensor<16x32xf32>'
//
// Both ops are isolated from above: their bodies read only their block
// arguments and what they define themselves.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "verify/TensorShardingVerifier.h"
#include "verify/Verifier.h"

namespace autopart {

namespace {

std::vector<TypeId> typesOf(const Module &m, std::span<const ValueId> values) {
  std::vector<TypeId> out;
  out.reserve(values.size());
  for (ValueId v : values) out.push_back(m.type(v));
  return out;
}

BlockId bodyBlock(const Module &m, OpId op) {
  if (m.numRegions(op) == 0) return kNone;
  const Region &r = m.regions[m.region(op, 0)];
  return r.blocks.empty() ? kNone : r.blocks[0];
}

// The types the body returns (its terminator's operands).
std::vector<TypeId> returnedTypes(const Module &m, BlockId body) {
  if (body == kNone || m.blocks[body].ops.empty()) return {};
  return typesOf(m, m.operands(m.blocks[body].ops.back()));
}

std::string quotedTypes(const Module &m, const std::vector<TypeId> &types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) s += ", ";
    s += "'" + std::string(m.types.str(types[i])) + "'";
  }
  return s;
}

const std::vector<TensorSharding> *shardingList(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
  return &m.attrs.get(a).shardings;
}

// One sharding per value, each valid for its value's type; messages start
// with `what` ("operand", "in_shardings"), then " - " for a single value or
// " <index> - " among several, as Shardy words them.
bool verifyShardingList(VerifyContext &ctx, OpId op, const std::vector<TensorSharding> &list,
                        const std::vector<TypeId> &types, const std::string &what) {
  // A value-less op may still name where it runs with one replicated sharding.
  if (types.empty() && list.size() == 1 && list[0].isFullyReplicated()) return true;
  if (list.size() != types.size()) {
    ctx.opError(op, what +
                        " shardings don't match number of values: " + std::to_string(list.size()) +
                        " shardings vs " + std::to_string(types.size()) + " values");
    return false;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    std::string prefix = types.size() == 1 ? what + " - " : what + " " + std::to_string(i) + " - ";
    if (!verifyTensorSharding(ctx, list[i], types[i],
                              [&](const std::string &msg) { ctx.opError(op, prefix + msg); }))
      return false;
  }
  return true;
}

// The body of an isolated op reads nothing defined outside it: reports the
// first op that does, with a note at the isolated op.
bool verifyIsolatedFromAbove(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  std::unordered_set<ValueId> inside;
  auto addBlocksOf = [&](OpId owner) {
    for (uint32_t r = 0; r < m.numRegions(owner); ++r)
      for (BlockId b : m.regions[m.region(owner, r)].blocks)
        inside.insert(m.blocks[b].args.begin(), m.blocks[b].args.end());
  };
  addBlocksOf(op);
  m.walk(op, [&](OpId inner) {
    for (uint32_t i = 0; i < m.numResults(inner); ++i) inside.insert(m.result(inner, i));
    addBlocksOf(inner);
  });
  OpId offender = kNone;
  m.walk(op, [&](OpId inner) {
    if (offender != kNone) return;
    for (ValueId v : m.operands(inner))
      if (!inside.count(v)) {
        offender = inner;
        return;
      }
  });
  if (offender == kNone) return true;
  ctx.opError(offender, "using value defined outside the region");
  ctx.diags.emit(Severity::Note, m, op, "required by region isolation constraints");
  return false;
}

std::vector<std::string> manualAxes(const Module &m, OpId op) {
  std::vector<std::string> out;
  if (AttrId a = m.attr(op, "manual_axes"); a != kNoAttr)
    for (AttrId e : m.attrs.get(a).elems) out.emplace_back(m.attrs.stringValue(e));
  return out;
}

// The global values of a manual computation (its operands or results)
// against their shardings and the body's local values: manual axes lead
// each dimension's axes, divide the dimension, and the local shape is the
// global one divided by them.
bool verifyManualValues(VerifyContext &ctx, OpId op, const std::vector<TypeId> &global,
                        const std::vector<TypeId> &local, const std::vector<TensorSharding> &list,
                        const std::vector<std::string> &manual, const std::string &kind) {
  const Module &m = ctx.m;
  if (global.empty() && local.empty() && list.empty()) return true;
  if (!verifyShardingList(ctx, op, list, global, kind)) return false;
  if (global.size() != local.size()) {
    ctx.opError(op, "number of op " + kind + "s and region " + kind + "s must match. Op has " +
                        std::to_string(global.size()) + " op " + kind + "s and " +
                        std::to_string(local.size()) + " region " + kind + "s");
    return false;
  }
  auto isManual = [&](const AxisRef &a) {
    return std::find(manual.begin(), manual.end(), a.name) != manual.end();
  };
  for (size_t i = 0; i < global.size() && i < list.size(); ++i) {
    const TensorSharding &s = list[i];
    for (size_t d = 0; d < s.dims.size(); ++d) {
      const std::vector<AxisRef> &axes = s.dims[d].axes;
      auto free = std::find_if_not(axes.begin(), axes.end(), isManual);
      auto lateManual = std::find_if(free, axes.end(), isManual);
      if (lateManual != axes.end()) {
        ctx.opError(op, kind + " sharding at index " + std::to_string(i) +
                            " must have all manual axes come before free axes in its dimension "
                            "sharding at index " +
                            std::to_string(d) + ". Saw manual axis " + lateManual->str() +
                            " after free axis " + (lateManual - 1)->str());
        return false;
      }
    }
    // Tokens and other unshaped values have no local shape to check.
    if (!m.types.isTensor(global[i])) continue;
    const Mesh *mesh = ctx.mesh(s);
    if (!mesh) continue;
    const std::vector<int64_t> &shape = m.types.shape(global[i]);
    std::string expected = "tensor<";
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t size = shape[d];
      if (size != kDynamic && d < s.dims.size()) {
        int64_t manualSize = 1;
        for (const AxisRef &a : s.dims[d].axes)
          if (isManual(a)) manualSize *= a.size(*mesh);
        // The parser refuses axes of size < 1; a module built in memory may
        // still hold one, and it must not divide by zero here.
        if (manualSize < 1) continue;
        if (size % manualSize != 0) {
          ctx.opError(op, kind + " dimension size " + std::to_string(size) +
                              " is not divisible by the manual axes size " +
                              std::to_string(manualSize));
          return false;
        }
        size /= manualSize;
      }
      expected += size == kDynamic ? "?" : std::to_string(size);
      expected += 'x';
    }
    expected += std::string(m.types.str(m.types.elementType(global[i]))) + ">";
    if (expected != m.types.str(local[i])) {
      ctx.opError(op, kind + " shape, corresponding sharding, and region " + kind +
                          " shape at index " + std::to_string(i) +
                          " must match. Expected local shape '" + expected +
                          "', actual local shape '" + std::string(m.types.str(local[i])) + "'");
      return false;
    }
  }
  return true;
}

void verifyManualComputation(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  std::vector<std::string> manual = manualAxes(m, op);
  // An axis is manual once: the outermost enclosing computation that made
  // it manual is the one named.
  for (const std::string &axis : manual) {
    OpId binder = kNone;
    for (OpId p = m.parentOp(op); p != kNone; p = m.parentOp(p)) {
      if (!m.isa(p, "sdy.manual_computation")) continue;
      std::vector<std::string> outer = manualAxes(m, p);
      if (std::find(outer.begin(), outer.end(), axis) != outer.end()) binder = p;
    }
    if (binder != kNone) {
      ctx.opError(op, "operates on axis \"" + axis +
                          "\" which is already bound by a parent sdy.manual_computation op");
      ctx.diags.emit(Severity::Note, m, binder, "parent bounding this axis as manual");
      return;
    }
  }
  static const std::vector<TensorSharding> kNoShardings;
  const std::vector<TensorSharding> *in = shardingList(m, op, "in_shardings");
  const std::vector<TensorSharding> *out = shardingList(m, op, "out_shardings");
  if (!in) in = &kNoShardings;
  if (!out) out = &kNoShardings;
  BlockId body = bodyBlock(m, op);
  bool noShardings = in->empty() && out->empty();
  std::vector<TypeId> operandTypes = typesOf(m, m.operands(op));
  std::vector<TypeId> argTypes =
      body == kNone ? std::vector<TypeId>{} : typesOf(m, m.blocks[body].args);
  std::vector<TypeId> resultTypes;
  for (uint32_t i = 0; i < m.numResults(op); ++i) resultTypes.push_back(m.type(m.result(op, i)));
  if (!verifyManualValues(ctx, op, operandTypes, argTypes, *in, manual, "operand") ||
      !verifyManualValues(ctx, op, resultTypes, returnedTypes(m, body), *out, manual, "result"))
    return;
  if (!noShardings) {
    // One mesh for every in and out sharding; meshes without axes fit any.
    const Mesh *common = nullptr;
    bool conflict = false;
    for (const std::vector<TensorSharding> *list : {in, out})
      for (const TensorSharding &s : *list) {
        const Mesh *mesh = ctx.mesh(s);
        if (!mesh || mesh->axes.empty()) continue;
        if (!common)
          common = mesh;
        else if (!(*common == *mesh))
          conflict = true;
      }
    if ((conflict || !common) && !manual.empty()) {
      ctx.opError(op, "all in and out shardings must be bound to the same mesh or an empty mesh.");
      return;
    }
    if (common && !conflict)
      for (const std::string &axis : manual)
        if (common->axisIndex(axis) < 0) {
          ctx.opError(op, "unknown manual axis: \"" + axis + "\"");
          return;
        }
  }
  verifyIsolatedFromAbove(ctx, op);
}

void verifyNamedComputation(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  BlockId body = bodyBlock(m, op);
  std::vector<TypeId> resultTypes;
  for (uint32_t i = 0; i < m.numResults(op); ++i) resultTypes.push_back(m.type(m.result(op, i)));
  // The op's result types are inferred from what its body returns.
  std::vector<TypeId> returned = returnedTypes(m, body);
  if (returned != resultTypes) {
    ctx.opError(op, "inferred type(s) " + quotedTypes(m, returned) +
                        " are incompatible with return type(s) of operation " +
                        quotedTypes(m, resultTypes));
    ctx.opError(op, "failed to infer returned types");
    return;
  }
  std::vector<TypeId> operandTypes = typesOf(m, m.operands(op));
  std::vector<TypeId> argTypes =
      body == kNone ? std::vector<TypeId>{} : typesOf(m, m.blocks[body].args);
  if (argTypes.size() != operandTypes.size()) {
    ctx.error(op, "number of block arguments must match the number of operands: " +
                      std::to_string(argTypes.size()) +
                      " != " + std::to_string(operandTypes.size()));
    return;
  }
  for (size_t i = 0; i < argTypes.size(); ++i)
    if (argTypes[i] != operandTypes[i]) {
      ctx.error(op, "expected the type of the " + std::to_string(i) +
                        "'th block argument to match the type of the corresponding operand: '" +
                        std::string(m.types.str(argTypes[i])) + "' vs '" +
                        std::string(m.types.str(operandTypes[i])) + "'");
      return;
    }
  if (const std::vector<TensorSharding> *in = shardingList(m, op, "in_shardings");
      in && !verifyShardingList(ctx, op, *in, operandTypes, "in_shardings"))
    return;
  if (const std::vector<TensorSharding> *out = shardingList(m, op, "out_shardings");
      out && !verifyShardingList(ctx, op, *out, resultTypes, "out_shardings"))
    return;
  verifyIsolatedFromAbove(ctx, op);
}

const OpVerifierRegistration kManualComputation("sdy.manual_computation", verifyManualComputation);
const OpVerifierRegistration kNamedComputation("sdy.named_computation", verifyNamedComputation);

}  // namespace

}  // namespace autopart
