// `-sdy-pad-for-divisibility`: grows every tensor whose sharding does not
// split it evenly to the next divisible shape, so the partitioner that follows
// sees only even splits. Collectives pad their input (with zeros) and trim
// gathered dimensions back; slices and pads widen their windows; a
// dot_general or convolution first zeroes the padded part of the dimensions
// it sums over, unless that region is already known to be zero; any op left
// as it was reads a slice back to the original shape. The entry function's
// arguments and results must already divide: nothing outside can be padded.
//
//   sdy.mesh @mesh = <["x"=4]>
//   %0 = stablehlo.slice %arg0 [0:7, 0:8] {sdy.sharding = <[{"x"}, {}]>} : (8x8) -> 7x8
//   %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<7x8xf32>
//   return %1
// becomes
//   %0 = stablehlo.slice %arg0 [0:8, 0:8] {sdy.sharding = <[{"x"}, {}]>} : (8x8) -> 8x8
//   %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
//   %2 = stablehlo.slice %1 [0:7, 0:8] {sdy.sharding = <[{}, {}]>} : (8x8) -> 7x8
//   return %2
//
// Ops are rebuilt, not edited, so each original op keeps its original types
// and its sharding rule stays readable while later ops are rewritten; `cur_`
// maps each original value to the value that now stands for it.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "export/DivisibleShape.h"
#include "export/PaddedResultShape.h"
#include "export/PaddingBuilder.h"
#include "export/ReductionIdentity.h"
#include "ir/CollectiveAxes.h"
#include "ir/Pass.h"
#include "ir/StablehloAttrs.h"
#include "ir/ValueSharding.h"
#include "asm/StablehloSyntaxHelpers.h"
#include "rules/OpShardingRuleRegistry.h"

namespace autopart {

namespace {

const TensorSharding *outSharding(const Module &m, OpId op) {
  AttrId a = m.attr(op, "out_sharding");
  return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get() : nullptr;
}

std::optional<CollectiveAxes> axesOf(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::nullopt : parseCollectiveAxes(m.attrs.str(a));
}

// The dimensions of operand `i` that `rule` sums over (its reduction factors):
// their padding must hold the reduction's identity.
std::vector<int64_t> summedDims(const OpShardingRule &rule, size_t i) {
  std::vector<int64_t> dims;
  if (i >= rule.operands.size()) return dims;
  for (size_t d = 0; d < rule.operands[i].size(); ++d)
    for (int32_t f : rule.operands[i][d])
      if (rule.kind(f) == FactorKind::Reduction) {
        dims.push_back(int64_t(d));
        break;
      }
  return dims;
}

bool isSameShapeCollective(std::string_view name) {
  return name == "sdy.all_reduce" || name == "sdy.sharded_to_unreduced" || name == "sdy.replicated_to_unreduced";
}

class Padder {
public:
  Padder(Module &m, Diagnostics &diags) : m_(m), diags_(diags), b_(m) {
    // Symbols resolved once: a lookup per value would scan the module.
    if (m.top != kNone)
      for (BlockId blk : m.regions[m.region(m.top, 0)].blocks)
        for (OpId op : m.blocks[blk].ops) {
          AttrId name = m.attr(op, "sym_name");
          if (name == kNoAttr) continue;
          std::string key(m.attrs.stringValue(name));
          if (m.isa(op, "func.func")) funcs_[key] = op;
          AttrId mesh = m.attr(op, "mesh");
          if (m.isa(op, "sdy.mesh") && mesh != kNoAttr && m.attrs.kind(mesh) == AttrKind::Mesh)
            meshes_[key] = m.attrs.get(mesh).mesh.get();
        }
    origType_.reserve(m.values.size());
    for (const ValueInfo &v : m.values) origType_.push_back(v.type);
    cur_.resize(m.values.size());
    for (ValueId v = 0; v < cur_.size(); ++v) cur_[v] = v;
  }

  bool run() {
    OpId entry = entryFunction();
    if (entry != kNone && !checkEntrySignature(entry)) return false;
    for (OpId func : m_.functions())
      if (func != entry) padSignature(func);
    for (OpId func : m_.functions())
      for (uint32_t r = 0; r < m_.numRegions(func); ++r)
        for (BlockId blk : std::vector<BlockId>(m_.regions[m_.region(func, r)].blocks)) processBlock(blk);
    return ok_;
  }

private:
  // --- Shardy's entry-function rule ---------------------------------------------

  // `main`, else the module's only function (a test file's lone function).
  OpId entryFunction() const {
    OpId main = m_.lookupSymbol("main");
    if (main != kNone && m_.isa(main, "func.func")) return main;
    std::vector<OpId> funcs = m_.functions();
    return funcs.size() == 1 ? funcs[0] : kNone;
  }

  bool checkEntrySignature(OpId func) {
    FuncView f{m_, func};
    auto fail = [&](std::string what) {
      diags_.error(m_, func, "'func.func' op " + what +
                                 " has a non-divisible sharding. Shardy expects function IO to be divisible.");
      diags_.error(m_, func, "failed to legalize operation 'func.func'");
      return false;
    };
    for (size_t i = 0; i < f.args().size(); ++i) {
      ValueId arg = f.args()[i];
      if (divisible(m_.type(arg), valueSharding(m_, arg)) != m_.type(arg))
        return fail("argument #" + std::to_string(i));
    }
    std::vector<TypeId> results = f.resultTypes();
    for (size_t i = 0; i < results.size(); ++i) {
      AttrId a = f.resultAttr(i, "sdy.sharding");
      const TensorSharding *s =
          a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
      if (divisible(results[i], s) != results[i]) return fail("result #" + std::to_string(i));
    }
    return true;
  }

  // --- Subroutine signatures -------------------------------------------------------

  const TensorSharding *resultShardingOf(OpId func, size_t i) const {
    AttrId a = FuncView{m_, func}.resultAttr(i, "sdy.sharding");
    return a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
  }

  // A function other than the entry is only called from inside the program,
  // so its arguments and results may grow: each argument is replaced by one of
  // the divisible type, calls and returns follow (rewriteCall, rewriteReturn).
  void padSignature(OpId func) {
    FuncView f{m_, func};
    BlockId entry = f.entry();
    if (entry == kNone) return;
    std::vector<TypeId> args, results = f.resultTypes();
    bool changed = false;
    for (size_t i = 0; i < f.args().size(); ++i) {
      ValueId arg = f.args()[i];
      TypeId want = divisible(m_.type(arg), valueSharding(m_, arg));
      args.push_back(want);
      if (want == m_.type(arg)) continue;
      // The old argument keeps its type (its users' rules read it) until every
      // user has moved to the new one.
      ValueId grown = m_.addBlockArg(entry, want);
      m_.blocks[entry].args.pop_back();
      m_.blocks[entry].args[i] = grown;
      m_.values[grown].index = uint32_t(i);
      m_.values[grown].loc = m_.values[arg].loc;
      cur_[arg] = grown;
      changed = true;
    }
    for (size_t i = 0; i < results.size(); ++i) {
      TypeId want = divisible(results[i], resultShardingOf(func, i));
      changed |= want != results[i];
      results[i] = want;
    }
    if (!changed) return;
    m_.setAttr(func, "function_type", m_.attrs.typeAttr(m_.types.function(args, results)));
    paddedResults_[func] = results;
    paddedCallees_.insert(func);
  }

  // --- Values ---------------------------------------------------------------------

  TypeId divisible(TypeId type, const TensorSharding *s) const {
    if (!s) return type;
    const Mesh *mesh = nullptr;
    if (s->inlineMesh) {
      mesh = &*s->inlineMesh;
    } else if (auto it = meshes_.find(s->meshName); it != meshes_.end()) {
      mesh = it->second;
    }
    return divisibleType(m_, type, s, mesh);
  }

  // The function a call names (kNone when it names none of the module's).
  OpId callee(OpId call) const {
    AttrId a = m_.attr(call, "callee");
    if (a == kNoAttr) return kNone;
    std::string_view sym = m_.attrs.get(a).text;
    if (sym.starts_with("@")) sym.remove_prefix(1);
    if (sym.size() >= 2 && sym.front() == '"' && sym.back() == '"') sym = sym.substr(1, sym.size() - 2);
    auto it = funcs_.find(std::string(sym));
    return it == funcs_.end() ? kNone : it->second;
  }

  TypeId origType(ValueId v) const { return v < origType_.size() ? origType_[v] : m_.type(v); }
  ValueId current(ValueId v) const { return v < cur_.size() ? cur_[v] : v; }
  const std::vector<int64_t> &shape(ValueId v) const { return m_.types.shape(m_.type(v)); }
  // The divisible type of an original value under its own sharding.
  TypeId convertedType(ValueId v) { return divisible(origType(v), valueSharding(m_, v)); }
  bool legal(ValueId v) { return convertedType(v) == origType(v); }

  std::optional<PaddingKind> kindOf(ValueId v) const {
    auto it = kinds_.find(v);
    return it == kinds_.end() ? std::nullopt : std::optional<PaddingKind>(it->second);
  }

  // What a rewritten op reads for original operand `v`: its replacement, grown
  // with zeros when that is smaller than `v`'s divisible type (a value an
  // unrewritten op produced).
  ValueId adapt(ValueId v) {
    ValueId c = current(v);
    TypeId want = convertedType(v);
    if (m_.type(c) == want || !m_.types.isTensor(want)) return c;
    ValueId zero = b_.constant(m_.types.elementType(want), PaddingKind::Zero);
    return b_.padHigh(c, want, zero, valueSharding(m_, c));
  }

  // --- Which ops change (Shardy's legality) -----------------------------------

  bool allLegal(std::span<const ValueId> vs) {
    return std::all_of(vs.begin(), vs.end(), [&](ValueId v) { return legal(v); });
  }
  std::vector<ValueId> results(OpId op) const {
    std::vector<ValueId> rs;
    for (uint32_t r = 0; r < m_.numResults(op); ++r) rs.push_back(m_.result(op, r));
    return rs;
  }

  bool needsRewrite(OpId op) {
    std::string_view name = m_.opName(op);
    if (name.starts_with("stablehlo.") || name == "sdy.all_to_all" || isSameShapeCollective(name))
      return !allLegal(m_.operands(op)) || !allLegal(results(op));
    if (name == "sdy.all_slice" || name == "sdy.reduce_scatter")
      return m_.numOperands(op) == 1 && divisible(origType(m_.operand(op, 0)), outSharding(m_, op)) !=
                                            origType(m_.operand(op, 0));
    if (name == "sdy.all_gather") return !allLegal(m_.operands(op));
    if (name == "func.call") return paddedCallees_.count(callee(op)) != 0;
    if (name == "func.return") return paddedResults_.count(m_.enclosingFunc(op)) != 0;
    return false;
  }

  // An op that stays reads its operands at their original types: a trimmed
  // replacement as is, a grown one through a slice back.
  void keepOp(OpId op) {
    for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
      ValueId v = m_.operand(op, i), c = current(v);
      if (c == v) continue;
      if (m_.type(c) != origType(v)) c = b_.sliceTo(c, origType(v), valueSharding(m_, c));
      m_.setOperand(op, i, c);
    }
  }

  // --- Rebuilding ---------------------------------------------------------------

  void processBlock(BlockId blk) {
    std::vector<OpId> old = m_.blocks[blk].ops, rebuilt;
    rebuilt.reserve(old.size());
    for (OpId op : old) {
      b_.reset(op);
      OpId now = op;
      if (needsRewrite(op))
        now = rewrite(op);
      else
        keepOp(op);
      std::vector<OpId> before = b_.opsBefore(), after = b_.opsAfter();
      rebuilt.insert(rebuilt.end(), before.begin(), before.end());
      rebuilt.push_back(now);
      rebuilt.insert(rebuilt.end(), after.begin(), after.end());
      if (now != op) m_.ops[op].parent = kNone;
      for (uint32_t r = 0; r < m_.numRegions(now); ++r)
        for (BlockId inner : std::vector<BlockId>(m_.regions[m_.region(now, r)].blocks)) processBlock(inner);
    }
    for (OpId op : rebuilt) m_.ops[op].parent = blk;
    m_.blocks[blk].ops = std::move(rebuilt);
  }

  // A copy of `op` reading `operands` with `types`, taking over its regions;
  // it stands for `op` from now on.
  OpId replaceOp(OpId op, const std::vector<ValueId> &operands, const std::vector<TypeId> &types) {
    std::span<const NamedAttr> attrSpan = m_.attributes(op);
    std::vector<NamedAttr> attrs(attrSpan.begin(), attrSpan.end());
    std::string name(m_.opName(op));
    OpId n = m_.createOp(name, operands, types, attrs);
    std::vector<RegionId> regions;
    for (uint32_t r = 0; r < m_.numRegions(op); ++r) regions.push_back(m_.region(op, r));
    if (!regions.empty()) {
      m_.attachRegions(n, regions);
      m_.ops[op].numRegions = 0;
    }
    m_.ops[n].srcOffset = m_.ops[op].srcOffset;
    m_.ops[n].loc = m_.ops[op].loc;
    for (uint32_t r = 0; r < m_.numResults(op); ++r) cur_[m_.result(op, r)] = m_.result(n, r);
    return n;
  }

  // Makes `res` (a result standing for original `orig`) `target`-sized along
  // `dims` with a slice after the op; other dimensions keep their size.
  void trim(ValueId orig, ValueId res, const std::vector<int64_t> &target, const std::vector<int64_t> &dims,
            const TensorSharding *sharding, std::optional<PaddingKind> kind) {
    std::vector<int64_t> limits = shape(res);
    bool changed = false;
    for (int64_t d : dims)
      if (size_t(d) < limits.size() && limits[d] > target[d]) {
        limits[d] = target[d];
        changed = true;
      }
    if (!changed) return;
    b_.placeAfter(true);
    ValueId sliced = b_.sliceTo(res, m_.types.tensor(limits, m_.types.elementType(m_.type(res))), sharding);
    b_.placeAfter(false);
    if (kind) kinds_[sliced] = *kind;
    cur_[orig] = sliced;
  }

  OpId rewrite(OpId op) {
    std::string_view name = m_.opName(op);
    if (name == "stablehlo.slice") return rewriteSlice(op);
    if (name == "stablehlo.pad") return rewritePad(op);
    if (name == "stablehlo.dot_general") return rewriteDotGeneral(op);
    if (name == "stablehlo.reduce") return rewriteReduce(op);
    if (name == "stablehlo.convolution") return rewriteConvolution(op);
    if (name == "stablehlo.constant") return rewriteConstant(op);
    if (name == "sdy.all_gather") return rewriteAllGather(op);
    if (name == "sdy.all_slice" || name == "sdy.reduce_scatter") return rewriteSlicingCollective(op);
    if (name == "sdy.all_to_all") return rewriteAllToAll(op);
    if (name == "func.call") return rewriteCall(op);
    if (name == "func.return") return rewriteReturn(op);
    std::vector<ValueId> operands;
    for (ValueId v : m_.operands(op)) operands.push_back(adapt(v));
    OpId n = rewriteGeneric(op, operands);
    if (name == "stablehlo.reshape" && m_.types.numElements(m_.type(operands[0])) !=
                                           m_.types.numElements(m_.type(m_.result(n)))) {
      diags_.error(m_, op, "'stablehlo.reshape' op participating reshape dimensions are not divisible. Reshape "
                           "sharding should have been resolved by resolve-permutation-factors.");
      ok_ = false;
    }
    return n;
  }

  // Each result grows to the larger of its divisible type and what its grown
  // operands make it (the rule's pass-through dimensions).
  OpId rewriteGeneric(OpId op, const std::vector<ValueId> &operands) {
    std::vector<std::vector<int64_t>> operandShapes;
    for (ValueId v : operands) operandShapes.push_back(m_.types.isTensor(m_.type(v)) ? shape(v) : std::vector<int64_t>{});
    bool sameShape = isSameShapeCollective(m_.opName(op)) || m_.isa(op, "sdy.all_gather");
    std::vector<TypeId> types;
    for (uint32_t r = 0; r < m_.numResults(op); ++r) {
      ValueId res = m_.result(op, r);
      TypeId padded = convertedType(res);
      if (!m_.types.isTensor(padded)) {
        types.push_back(padded);
        continue;
      }
      std::vector<int64_t> grown = sameShape && !operandShapes.empty() ? operandShapes[0]
                                                                        : passThroughShape(m_, op, r, operandShapes);
      std::vector<int64_t> out = m_.types.shape(padded);
      for (size_t d = 0; d < out.size() && d < grown.size(); ++d) out[d] = std::max(out[d], grown[d]);
      types.push_back(m_.types.tensor(out, m_.types.elementType(padded)));
    }
    return replaceOp(op, operands, types);
  }

  // A constant keeps its value; a zero-filled pad after it gives the
  // divisible shape (a wider constant would need invented elements).
  OpId rewriteConstant(OpId op) {
    keepOp(op);
    ValueId res = m_.result(op);
    TypeId want = convertedType(res);
    if (want == m_.type(res) || !m_.types.isTensor(want)) return op;
    b_.placeAfter(true);
    ValueId zero = b_.constant(m_.types.elementType(want), PaddingKind::Zero);
    cur_[res] = b_.padHigh(res, want, zero, valueSharding(m_, res));
    b_.placeAfter(false);
    kinds_[cur_[res]] = PaddingKind::Zero;
    return op;
  }

  // The window widens so the result reaches its divisible size.
  OpId rewriteSlice(OpId op) {
    ValueId res = m_.result(op);
    TypeId padded = convertedType(res);
    ValueId in = adapt(m_.operand(op, 0));
    if (padded == origType(res)) return replaceOp(op, {in}, {padded});
    std::vector<int64_t> start = intsOf(m_, op, "start_indices"), limit = intsOf(m_, op, "limit_indices"),
                         strides = intsOf(m_, op, "strides");
    const std::vector<int64_t> &orig = m_.types.shape(origType(res)), &want = m_.types.shape(padded);
    const std::vector<int64_t> inShape = shape(in);
    for (size_t d = 0; d < want.size() && d < limit.size() && d < start.size(); ++d) {
      if (want[d] == orig[d]) continue;
      int64_t stride = d < strides.size() ? strides[d] : 1;
      limit[d] = start[d] + (want[d] - 1) * stride + 1;
      if (d < inShape.size() && limit[d] > inShape[d]) {
        diags_.error(m_, op, "'stablehlo.slice' op cannot widen dimension " + std::to_string(d) + " to " +
                                 std::to_string(want[d]) + " elements: its operand has only " +
                                 std::to_string(inShape[d]));
        ok_ = false;
        return op;
      }
    }
    OpId n = replaceOp(op, {in}, {padded});
    m_.setAttr(n, "limit_indices", i64Array(m_, limit));
    return n;
  }

  // The high edge padding absorbs the difference between the grown input and
  // the divisible result. When it shrinks, the input's own padded region takes
  // the place of pad elements, so it must first hold the pad value.
  OpId rewritePad(OpId op) {
    ValueId res = m_.result(op);
    ValueId in = adapt(m_.operand(op, 0)), padValue = adapt(m_.operand(op, 1));
    TypeId padded = convertedType(res);
    std::vector<int64_t> low = intsOf(m_, op, "edge_padding_low"), high = intsOf(m_, op, "edge_padding_high"),
                         interior = intsOf(m_, op, "interior_padding");
    const std::vector<int64_t> inShape = shape(in), &want = m_.types.shape(padded);
    if (low.size() != inShape.size() || high.size() != inShape.size() || interior.size() != inShape.size())
      return replaceOp(op, {in, padValue}, {padded});
    std::vector<int64_t> newHigh(inShape.size());
    bool shrunk = false;
    for (size_t d = 0; d < inShape.size(); ++d) {
      newHigh[d] = want[d] - inShape[d] - low[d] - std::max<int64_t>(0, inShape[d] - 1) * interior[d];
      shrunk |= newHigh[d] < high[d];
    }
    if (shrunk)
      in = b_.maskBeyond(in, m_.types.shape(origType(m_.operand(op, 0))), padValue, nullptr, valueSharding(m_, in));
    OpId n = replaceOp(op, {in, padValue}, {padded});
    m_.setAttr(n, "edge_padding_high", i64Array(m_, newHigh));
    return n;
  }

  // `in` (standing for original `orig`) with the padded part of `dims` zeroed,
  // unless it is known to be zero already.
  ValueId zeroPadded(ValueId in, ValueId orig, const std::vector<int64_t> &dims) {
    const std::vector<int64_t> &origShape = m_.types.shape(origType(orig));
    if (m_.type(in) == origType(orig) || kindOf(in) == PaddingKind::Zero) return in;
    const std::vector<int64_t> inShape = shape(in);
    bool any = std::any_of(dims.begin(), dims.end(), [&](int64_t d) {
      return size_t(d) < inShape.size() && inShape[d] != origShape[d];
    });
    if (!any) return in;
    ValueId zero = b_.constant(m_.types.elementType(m_.type(in)), PaddingKind::Zero);
    return b_.maskBeyond(in, origShape, zero, &dims, valueSharding(m_, in));
  }

  // Contracting dimensions are summed over, so their padding must be zeros.
  OpId rewriteDotGeneral(OpId op) {
    ValueId lhs = adapt(m_.operand(op, 0)), rhs = adapt(m_.operand(op, 1));
    if (std::optional<OpShardingRule> rule = getOpShardingRule(m_, op)) {
      lhs = zeroPadded(lhs, m_.operand(op, 0), summedDims(*rule, 0));
      rhs = zeroPadded(rhs, m_.operand(op, 1), summedDims(*rule, 1));
    }
    return rewriteGeneric(op, {lhs, rhs});
  }

  // Reduced dimensions that grew must hold the body's identity (zeros under
  // an add are reused as they are); a body without one cannot be padded.
  OpId rewriteReduce(OpId op) {
    std::vector<ValueId> ins;
    for (ValueId v : m_.operands(op)) ins.push_back(adapt(v));
    std::optional<OpShardingRule> rule = getOpShardingRule(m_, op);
    uint32_t inputs = m_.numOperands(op) / 2;
    std::vector<std::vector<int64_t>> summed(inputs);
    bool anyGrown = false;
    for (uint32_t j = 0; rule && j < inputs; ++j) {
      const std::vector<int64_t> &orig = m_.types.shape(origType(m_.operand(op, j))), now = shape(ins[j]);
      for (int64_t d : summedDims(*rule, j))
        if (now[d] != orig[d]) summed[j].push_back(d);
      anyGrown |= !summed[j].empty();
    }
    if (!anyGrown) return rewriteGeneric(op, ins);
    std::optional<std::vector<ReductionIdentity>> ids = reductionIdentities(m_, op);
    if (!ids) {
      diags_.error(m_, op, "'stablehlo.reduce' op unsupported reduction operation in reduce body: a padded "
                           "reduced dimension needs the body's identity");
      diags_.error(m_, op, "failed to legalize operation 'stablehlo.reduce'");
      ok_ = false;
      return op;
    }
    for (uint32_t j = 0; j < inputs; ++j) {
      if (summed[j].empty() || ((*ids)[j].isZero && kindOf(ins[j]) == PaddingKind::Zero)) continue;
      ValueId identity = b_.constant(m_.types.elementType(m_.type(ins[j])), (*ids)[j].spelling);
      ins[j] = b_.maskBeyond(ins[j], m_.types.shape(origType(m_.operand(op, j))), identity, &summed[j],
                             valueSharding(m_, ins[j]));
    }
    return rewriteGeneric(op, ins);
  }

  // Input features and windowed dimensions are summed over: zero their
  // padding. The output's windowed dimensions follow the window arithmetic
  // and are trimmed back to their divisible size.
  OpId rewriteConvolution(OpId op) {
    std::optional<ConvDims> dims = getConvDims(m_, op);
    ValueId res = m_.result(op);
    ValueId lhs = adapt(m_.operand(op, 0)), rhs = adapt(m_.operand(op, 1));
    if (!dims) return rewriteGeneric(op, {lhs, rhs});
    std::vector<int64_t> lhsDims{dims->inputFeature}, rhsDims{dims->kernelInput};
    lhsDims.insert(lhsDims.end(), dims->inputSpatial.begin(), dims->inputSpatial.end());
    rhsDims.insert(rhsDims.end(), dims->kernelSpatial.begin(), dims->kernelSpatial.end());
    lhs = zeroPadded(lhs, m_.operand(op, 0), lhsDims);
    rhs = zeroPadded(rhs, m_.operand(op, 1), rhsDims);
    std::optional<std::vector<int64_t>> inferred = convolutionShape(m_, op, shape(lhs), shape(rhs));
    const std::vector<int64_t> target = m_.types.shape(convertedType(res));
    bool tooSmall = !inferred;
    for (size_t i = 0; inferred && i < dims->outputSpatial.size(); ++i)
      tooSmall |= (*inferred)[dims->outputSpatial[i]] < target[dims->outputSpatial[i]];
    if (tooSmall) {
      diags_.error(m_, op, "'stablehlo.convolution' op padded operands give an output spatial size smaller than "
                           "the divisible size; spatial sharding must be made divisible or replicated first "
                           "(resolve-permutation-factors)");
      diags_.error(m_, op, "failed to legalize operation 'stablehlo.convolution'");
      ok_ = false;
      return op;
    }
    OpId n = replaceOp(op, {lhs, rhs}, {m_.types.tensor(*inferred, m_.types.elementType(m_.type(res)))});
    trim(res, m_.result(n), target, dims->outputSpatial, valueSharding(m_, m_.result(n)), PaddingKind::Zero);
    return n;
  }

  // Pads the input of a collective whose result keeps the input's shape to
  // `paddedIn`, rebuilds the collective at that shape and records what its
  // padding holds: zeros for a fresh pad, else what the input's padding held.
  OpId rebuildCollective(OpId op, ValueId in, ValueId orig, TypeId paddedIn) {
    std::optional<PaddingKind> kind = kindOf(in);
    bool paddedBefore = m_.type(in) != origType(orig);
    if (paddedIn != m_.type(in)) {
      PaddingKind fill = paddedBefore && kind ? *kind : PaddingKind::Zero;
      std::optional<PaddingKind> known = paddedBefore ? kind : std::optional<PaddingKind>(PaddingKind::Zero);
      ValueId value = b_.constant(m_.types.elementType(paddedIn), fill);
      in = b_.padHigh(in, paddedIn, value, valueSharding(m_, in));
      if (known) kinds_[in] = *known;
      kind = known;
    }
    OpId n = replaceOp(op, {in}, {paddedIn});
    if (kind) kinds_[m_.result(n)] = *kind;
    return n;
  }

  // all_slice / reduce_scatter: the input must divide under the output's
  // sharding.
  OpId rewriteSlicingCollective(OpId op) {
    ValueId orig = m_.operand(op, 0), in = adapt(orig);
    return rebuildCollective(op, in, orig, divisible(m_.type(in), outSharding(m_, op)));
  }

  // all_to_all: padded for the output's sharding, then the source dimensions
  // (now gathered) are trimmed back.
  OpId rewriteAllToAll(OpId op) {
    ValueId orig = m_.operand(op, 0), in = adapt(orig);
    std::optional<PaddingKind> kind = kindOf(in);
    const TensorSharding *out = outSharding(m_, op);
    OpId n = rebuildCollective(op, in, orig, divisible(m_.type(in), out));
    std::vector<int64_t> srcDims;
    if (std::optional<CollectiveAxes> axes = axesOf(m_, op, "params"))
      for (const AllToAllParam &p : axes->params) srcDims.push_back(p.srcDim);
    trim(m_.result(op), m_.result(n), m_.types.shape(origType(orig)), srcDims, out, kind);
    return n;
  }

  // all_gather: the result keeps the grown input's shape (or its own
  // divisible one); gathered dimensions are trimmed back.
  OpId rewriteAllGather(OpId op) {
    ValueId in = adapt(m_.operand(op, 0));
    OpId n = rewriteGeneric(op, {in});
    std::optional<PaddingKind> kind = kindOf(in);
    ValueId res = m_.result(n);
    if (kind) kinds_[res] = *kind;
    std::vector<int64_t> gathered;
    if (std::optional<CollectiveAxes> axes = axesOf(m_, op, "gathering_axes"))
      for (size_t d = 0; d < axes->perDim.size(); ++d)
        if (!axes->perDim[d].empty()) gathered.push_back(int64_t(d));
    trim(m_.result(op), res, m_.types.shape(origType(m_.result(op))), gathered, valueSharding(m_, res), kind);
    return n;
  }

  // A call of a padded function passes operands grown (with zeros) to the
  // callee's argument types and gets its padded results.
  OpId rewriteCall(OpId op) {
    FuncView f{m_, callee(op)};
    std::vector<ValueId> operands;
    for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
      ValueId in = adapt(m_.operand(op, i));
      if (i < f.args().size()) {
        TypeId want = m_.type(f.args()[i]);
        if (m_.types.isTensor(want) && want != m_.type(in)) {
          ValueId zero = b_.constant(m_.types.elementType(want), PaddingKind::Zero);
          in = b_.padHigh(in, want, zero, valueSharding(m_, f.args()[i]));
          kinds_[in] = PaddingKind::Zero;
        }
      }
      operands.push_back(in);
    }
    return replaceOp(op, operands, f.resultTypes());
  }

  // The return of a padded function hands back its results at the padded
  // types: grown with zeros, or trimmed when the operand grew further.
  OpId rewriteReturn(OpId op) {
    OpId func = m_.enclosingFunc(op);
    const std::vector<TypeId> &want = paddedResults_[func];
    for (uint32_t i = 0; i < m_.numOperands(op) && i < want.size(); ++i) {
      ValueId in = adapt(m_.operand(op, i));
      TypeId have = m_.type(in);
      if (have != want[i] && m_.types.isTensor(want[i]) && m_.types.isTensor(have)) {
        const TensorSharding *s = resultShardingOf(func, i);
        if (m_.types.numElements(want[i]) > m_.types.numElements(have)) {
          ValueId zero = b_.constant(m_.types.elementType(want[i]), PaddingKind::Zero);
          in = b_.padHigh(in, want[i], zero, s);
        } else {
          in = b_.sliceTo(in, want[i], s);
        }
      }
      m_.setOperand(op, i, in);
    }
    return op;
  }

  Module &m_;
  Diagnostics &diags_;
  PaddingBuilder b_;
  std::vector<TypeId> origType_;
  std::vector<ValueId> cur_;
  std::unordered_map<ValueId, PaddingKind> kinds_;
  std::unordered_map<std::string, const Mesh *> meshes_;
  std::unordered_map<std::string, OpId> funcs_;
  // Non-entry functions whose signature grew, and their padded result types.
  std::unordered_set<OpId> paddedCallees_;
  std::unordered_map<OpId, std::vector<TypeId>> paddedResults_;
  bool ok_ = true;
};

bool runPass(Module &m, const PassOptions &, Diagnostics &diags) { return Padder(m, diags).run(); }

PassRegistration reg("sdy-pad-for-divisibility",
                     "Pad tensors whose sharding does not divide them to divisible shapes", runPass);

}  // namespace

}  // namespace autopart
