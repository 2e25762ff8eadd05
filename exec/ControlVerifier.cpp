// Op checks (OpVerifier.h) of control flow: while, if, case, func.call and
// composite (ControlOps.cpp). Their kernels pass values between the op and its
// regions by pointer and read the predicate, the branch index and the loop
// condition as scalars, so the region signatures must be the ones the spec
// gives (while C1-C3, if C1-C3, case C1-C4):
//
//   %r = stablehlo.while(%i = %c0) : tensor<i64> cond { ... return %p : tensor<2xi1> } do { ... }
//   -> error: stablehlo.while: region #0 must return (tensor<i1>)
#include "exec/OpVerifier.h"

namespace autopart::exec {
namespace {

std::vector<TypeId> resultTypes(const OpCheck &c) {
  std::vector<TypeId> out;
  for (uint32_t i = 0; i < c.numResults(); ++i) out.push_back(c.m.type(c.m.result(c.op, i)));
  return out;
}

void checkScalarOperand(const OpCheck &c, const char *what, bool isPredicate) {
  const Tensor &p = c.in(0);
  c.isTensor(p, what, 0);
  if (isPredicate ? p.dtype.name != "i1" : !p.dtype.isInt() || p.dtype.isBool())
    c.fail(std::string(what) + " is " + p.typeString() + ", it must be " + (isPredicate ? "tensor<i1>" : "an integer"));
}

// Region `r` takes `args` and returns (tensor<i1>).
void checkCondition(const OpCheck &c, uint32_t r, const std::vector<const Tensor *> &args) {
  std::vector<TypeId> rets = c.regionReturnTypes(r);
  if (rets.size() != 1 || !c.m.types.isTensor(rets[0]) || c.m.types.rank(rets[0]) != 0 ||
      c.m.types.str(c.m.types.elementType(rets[0])) != "i1")
    c.fail("region #" + std::to_string(r) + " must return (tensor<i1>)");
  const Block &b = c.m.blocks[c.m.regions[c.m.region(c.op, r)].blocks[0]];
  if (b.args.size() != args.size())
    c.fail("region #" + std::to_string(r) + " takes " + std::to_string(b.args.size()) + " arguments, not " +
           std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i)
    if (!holdsType(c.m.types, *args[i], c.m.type(b.args[i])))
      c.fail("region #" + std::to_string(r) + " argument #" + std::to_string(i) + " is " +
             c.typeStr(c.m.type(b.args[i])) + ", the value passed is " + args[i]->typeString());
}

void checkWhile(const OpCheck &c) {
  c.counts(OpCheck::kAny, c.numOperands(), 2);
  std::vector<const Tensor *> state;
  std::vector<TypeId> types;
  for (uint32_t i = 0; i < c.numOperands(); ++i) {
    state.push_back(&c.in(i));
    types.push_back(c.m.type(c.m.operand(c.op, i)));
    if (!holdsType(c.m.types, c.in(i), c.m.type(c.m.result(c.op, i))))
      c.fail("result #" + std::to_string(i) + " is " + c.typeStr(c.m.type(c.m.result(c.op, i))) +
             ", operand #" + std::to_string(i) + " " + c.typeStr(types.back()));
  }
  checkCondition(c, 0, state);
  c.regionTypes(1, state, types);
}

void checkIf(const OpCheck &c) {
  c.counts(1, OpCheck::kAny, 2);
  checkScalarOperand(c, "pred", true);
  c.regionTypes(0, {}, resultTypes(c));
  c.regionTypes(1, {}, resultTypes(c));
}

void checkCase(const OpCheck &c) {
  c.counts(1, OpCheck::kAny, OpCheck::kAny);
  if (c.m.numRegions(c.op) == 0) c.fail("has no branches");
  checkScalarOperand(c, "index", false);
  for (uint32_t r = 0; r < c.m.numRegions(c.op); ++r) c.regionTypes(r, {}, resultTypes(c));
}

// func.call / composite: the callee takes the operands' types and returns
// as many values as the op has results.
void checkCall(const OpCheck &c) {
  OpId f = c.m.lookupFunc(c.m.attr(c.op, c.name == "stablehlo.composite" ? "decomposition" : "callee"));
  if (f == kNone || c.m.numRegions(f) == 0 || c.m.regions[c.m.region(f, 0)].blocks.empty()) return;
  FuncView fv{c.m, f};
  std::span<const ValueId> params = fv.args();
  if (params.size() != c.numOperands())
    c.fail("@" + std::string(fv.name()) + " takes " + std::to_string(params.size()) + " arguments, not " +
           std::to_string(c.numOperands()));
  for (uint32_t i = 0; i < c.numOperands(); ++i)
    if (!holdsType(c.m.types, c.in(i), c.m.type(params[i])))
      c.fail("@" + std::string(fv.name()) + " takes " + c.typeStr(c.m.type(params[i])) + " as argument #" +
             std::to_string(i) + ", not " + c.typeStr(c.m.type(c.m.operand(c.op, i))));
  if (fv.numResults() != c.numResults())
    c.fail("@" + std::string(fv.name()) + " returns " + std::to_string(fv.numResults()) + " values, not " +
           std::to_string(c.numResults()));
}

OpCheckRegistration regs[] = {
    {{"func.call", "call", "stablehlo.composite"}, checkCall},
    {{"stablehlo.while"}, checkWhile},
    {{"stablehlo.if"}, checkIf},
    {{"stablehlo.case"}, checkCase},
};

}  // namespace
}  // namespace autopart::exec
