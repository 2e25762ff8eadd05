#include "export/Padder.h"

#include <algorithm>

#include "export/DivisibleShape.h"
#include "export/PaddedResultShape.h"

namespace autopart {

namespace {

bool isSameShapeCollective(std::string_view name) {
  return name == "sdy.all_reduce" || name == "sdy.sharded_to_unreduced" || name == "sdy.replicated_to_unreduced";
}

}  // namespace

const TensorSharding *Padder::outSharding(const Module &m, OpId op) {
  AttrId a = m.attr(op, "out_sharding");
  return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get() : nullptr;
}

Padder::Padder(Module &m, Diagnostics &diags) : m_(m), diags_(diags), b_(m) {
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

bool Padder::run() {
  OpId entry = entryFunction();
  if (entry != kNone && !checkEntrySignature(entry)) return false;
  for (OpId func : m_.functions())
    if (func != entry) padSignature(func);
  for (OpId func : m_.functions())
    for (uint32_t r = 0; r < m_.numRegions(func); ++r)
      for (BlockId blk : std::vector<BlockId>(m_.regions[m_.region(func, r)].blocks)) processBlock(blk);
  return ok_;
}

// `main`, else the module's only function (a test file's lone function).
OpId Padder::entryFunction() const {
  OpId main = m_.lookupSymbol("main");
  if (main != kNone && m_.isa(main, "func.func")) return main;
  std::vector<OpId> funcs = m_.functions();
  return funcs.size() == 1 ? funcs[0] : kNone;
}

bool Padder::checkEntrySignature(OpId func) {
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

const TensorSharding *Padder::resultShardingOf(OpId func, size_t i) const {
  AttrId a = FuncView{m_, func}.resultAttr(i, "sdy.sharding");
  return a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
}

// Replaces argument `i` of `blk` by one of type `want`. The old argument
// keeps its type (its users' rules read it) until every user has moved to
// the new one.
void Padder::growBlockArg(BlockId blk, size_t i, TypeId want) {
  ValueId arg = m_.blocks[blk].args[i];
  ValueId grown = m_.addBlockArg(blk, want);
  m_.blocks[blk].args.pop_back();
  m_.blocks[blk].args[i] = grown;
  m_.values[grown].index = uint32_t(i);
  m_.values[grown].loc = m_.values[arg].loc;
  if (arg < cur_.size()) cur_[arg] = grown;
}

// A function other than the entry is only called from inside the program,
// so its arguments and results may grow: each argument is replaced by one of
// the divisible type, calls and returns follow (rewriteCall, rewriteReturn).
void Padder::padSignature(OpId func) {
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
    growBlockArg(entry, i, want);
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

TypeId Padder::divisible(TypeId type, const TensorSharding *s) const {
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
OpId Padder::callee(OpId call) const {
  AttrId a = m_.attr(call, "callee");
  if (a == kNoAttr) return kNone;
  std::string_view sym = m_.attrs.get(a).text;
  if (sym.starts_with("@")) sym.remove_prefix(1);
  if (sym.size() >= 2 && sym.front() == '"' && sym.back() == '"') sym = sym.substr(1, sym.size() - 2);
  auto it = funcs_.find(std::string(sym));
  return it == funcs_.end() ? kNone : it->second;
}

std::optional<PaddingKind> Padder::kindOf(ValueId v) const {
  auto it = kinds_.find(v);
  return it == kinds_.end() ? std::nullopt : std::optional<PaddingKind>(it->second);
}

// What a rewritten op reads for original operand `v`: its replacement, grown
// with zeros when that is smaller than `v`'s divisible type (a value an
// unrewritten op produced).
ValueId Padder::adapt(ValueId v) {
  ValueId c = current(v);
  TypeId want = convertedType(v);
  if (m_.type(c) == want || !m_.types.isTensor(want)) return c;
  ValueId zero = b_.constant(m_.types.elementType(want), PaddingKind::Zero);
  return b_.padHigh(c, want, zero, valueSharding(m_, c));
}

bool Padder::allLegal(std::span<const ValueId> vs) {
  return std::all_of(vs.begin(), vs.end(), [&](ValueId v) { return legal(v); });
}

std::vector<ValueId> Padder::results(OpId op) const {
  std::vector<ValueId> rs;
  for (uint32_t r = 0; r < m_.numResults(op); ++r) rs.push_back(m_.result(op, r));
  return rs;
}

bool Padder::needsRewrite(OpId op) {
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
void Padder::keepOp(OpId op) {
  for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
    ValueId v = m_.operand(op, i), c = current(v);
    if (c == v) continue;
    if (m_.type(c) != origType(v)) c = b_.sliceTo(c, origType(v), valueSharding(m_, c));
    m_.setOperand(op, i, c);
  }
}

void Padder::processBlock(BlockId blk) {
  std::vector<OpId> old = m_.blocks[blk].ops, rebuilt;
  rebuilt.reserve(old.size());
  for (OpId op : old) {
    b_.reset(op);
    OpId now = op;
    if (isCarriedReturn(op))
      rewriteCarriedReturn(op);
    else if (needsRewrite(op))
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
OpId Padder::replaceOp(OpId op, const std::vector<ValueId> &operands, const std::vector<TypeId> &types) {
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
void Padder::trim(ValueId orig, ValueId res, const std::vector<int64_t> &target,
                  const std::vector<int64_t> &dims, const TensorSharding *sharding,
                  std::optional<PaddingKind> kind) {
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

OpId Padder::rewrite(OpId op) {
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
  if (name == "stablehlo.while") growLoopArgs(n);
  if (name == "stablehlo.reshape" && m_.types.numElements(m_.type(m_.operand(n, 0))) !=
                                         m_.types.numElements(m_.type(m_.result(n)))) {
    diags_.error(m_, op, "'stablehlo.reshape' op participating reshape dimensions are not divisible. Reshape "
                         "sharding should have been resolved by resolve-permutation-factors.");
    ok_ = false;
  }
  return n;
}

// A loop carries its values at its results' types: the condition's and
// body's arguments grow with them.
void Padder::growLoopArgs(OpId loop) {
  for (uint32_t r = 0; r < m_.numRegions(loop); ++r) {
    const Region &region = m_.regions[m_.region(loop, r)];
    if (region.blocks.empty()) continue;
    BlockId entry = region.blocks[0];
    for (size_t i = 0; i < m_.blocks[entry].args.size() && i < m_.numResults(loop); ++i) {
      TypeId want = m_.type(m_.result(loop, uint32_t(i)));
      if (m_.type(m_.blocks[entry].args[i]) != want) growBlockArg(entry, i, want);
    }
  }
}

// The terminator of a loop body or a case branch: what it yields becomes
// the op's results, so it must have their types.
bool Padder::isCarriedReturn(OpId op) const {
  if (!m_.isa(op, "stablehlo.return")) return false;
  OpId parent = m_.parentOp(op);
  if (parent == kNone) return false;
  RegionId region = m_.blocks[m_.ops[op].parent].parent;
  if (m_.isa(parent, "stablehlo.while")) return m_.numRegions(parent) == 2 && region == m_.region(parent, 1);
  return m_.isa(parent, "stablehlo.case") || m_.isa(parent, "stablehlo.if");
}

void Padder::rewriteCarriedReturn(OpId op) {
  OpId parent = m_.parentOp(op);
  for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
    ValueId in = current(m_.operand(op, i));
    if (i >= m_.numResults(parent)) break;
    TypeId want = m_.type(m_.result(parent, i));
    if (m_.type(in) != want && m_.types.isTensor(want) && m_.types.isTensor(m_.type(in))) {
      const std::vector<int64_t> &have = shape(in), &to = m_.types.shape(want);
      bool grows = false;
      for (size_t d = 0; d < to.size() && d < have.size(); ++d) grows |= to[d] > have[d];
      if (grows) {
        ValueId zero = b_.constant(m_.types.elementType(want), PaddingKind::Zero);
        in = b_.padHigh(in, want, zero, valueSharding(m_, m_.result(parent, i)));
      } else {
        in = b_.sliceTo(in, want, valueSharding(m_, m_.result(parent, i)));
      }
    }
    m_.setOperand(op, i, in);
  }
}

// Operand dimensions the op cannot carry grown come back to their original
// size first (a slice); each result grows to the larger of its divisible type
// and what its grown operands make it (the rule's pass-through dimensions).
OpId Padder::rewriteGeneric(OpId op, const std::vector<ValueId> &given) {
  std::vector<ValueId> operands = given;
  if (std::optional<std::vector<std::vector<bool>>> carried = carriedOperandDims(m_, op))
    for (size_t i = 0; i < carried->size() && i < operands.size(); ++i) {
      if (!m_.types.isTensor(m_.type(operands[i]))) continue;
      std::vector<int64_t> want = shape(operands[i]);
      const std::vector<int64_t> &orig = m_.types.shape(origType(m_.operand(op, uint32_t(i))));
      bool trimmed = false;
      for (size_t d = 0; d < want.size() && d < (*carried)[i].size() && d < orig.size(); ++d)
        if (!(*carried)[i][d] && want[d] > orig[d]) {
          want[d] = orig[d];
          trimmed = true;
        }
      if (trimmed)
        operands[i] = b_.sliceTo(operands[i], m_.types.tensor(want, m_.types.elementType(m_.type(operands[i]))),
                                 valueSharding(m_, operands[i]));
    }
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

// A call of a padded function passes operands grown (with zeros) to the
// callee's argument types and gets its padded results.
OpId Padder::rewriteCall(OpId op) {
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
OpId Padder::rewriteReturn(OpId op) {
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

}  // namespace autopart
