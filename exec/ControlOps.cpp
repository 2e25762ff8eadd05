// Control flow and calls: func.call, stablehlo.while / if / case / composite
// / map. Regions run through Interpreter::runRegion.
//
//   %r:2 = stablehlo.while(%i = %c0, %s = %c1) ... cond {...} do {...}
//     -> run cond on (i, s); while true, (i, s) = body(i, s)
#include "exec/Interpreter.h"

namespace autopart::exec {
namespace {

std::vector<TensorPtr> operandsOf(Interpreter &I, OpId op, uint32_t from = 0) {
  std::vector<TensorPtr> v;
  for (uint32_t i = from; i < I.m.numOperands(op); ++i) v.push_back(I.operand(op, i));
  return v;
}

void setResults(Interpreter &I, OpId op, const std::vector<TensorPtr> &rs) {
  if (rs.size() != I.m.numResults(op)) I.fail(op, "region returned the wrong number of values");
  for (uint32_t i = 0; i < rs.size(); ++i) I.setResult(op, i, rs[i]);
}

void callOp(Interpreter &I, OpId op) {
  OpId f = I.m.lookupFunc(I.m.attr(op, "callee"));
  if (f == kNone) I.fail(op, "call of an unknown function");
  setResults(I, op, I.callFunction(f, operandsOf(I, op)));
}

void compositeOp(Interpreter &I, OpId op) {
  OpId f = I.m.lookupFunc(I.m.attr(op, "decomposition"));
  if (f == kNone) I.fail(op, "composite without a decomposition function");
  setResults(I, op, I.callFunction(f, operandsOf(I, op)));
}

void whileOp(Interpreter &I, OpId op) {
  std::vector<TensorPtr> state = operandsOf(I, op);
  RegionId cond = I.m.region(op, 0), body = I.m.region(op, 1);
  while (true) {
    std::vector<TensorPtr> c = I.runRegion(cond, state);
    if (c.size() != 1 || !c[0]) I.fail(op, "while condition must return one value");
    if (!c[0]->data<uint8_t>()[0]) break;
    state = I.runRegion(body, state);
  }
  setResults(I, op, state);
}

void ifOp(Interpreter &I, OpId op) {
  bool p = I.in(op, 0).data<uint8_t>()[0];
  setResults(I, op, I.runRegion(I.m.region(op, p ? 0 : 1), {}));
}

void caseOp(Interpreter &I, OpId op) {
  int64_t i = getInt(I.in(op, 0), 0);
  int64_t n = I.m.numRegions(op);
  if (i < 0 || i >= n) i = n - 1;
  setResults(I, op, I.runRegion(I.m.region(op, uint32_t(i)), {}));
}

// stablehlo.map: the region applied to scalars, element by element.
void mapOp(Interpreter &I, OpId op) {
  TensorPtr r = I.newResult(op);
  int64_t n = r->numElements();
  uint32_t k = I.m.numOperands(op);
  RegionId body = I.m.region(op, 0);
  size_t w = storageSize(r->dtype.storage);
  for (int64_t e = 0; e < n; ++e) {
    std::vector<TensorPtr> args;
    for (uint32_t j = 0; j < k; ++j) {
      const Tensor &x = I.in(op, j);
      TensorPtr s = makeTensor(x.dtype, {});
      size_t xw = storageSize(x.dtype.storage);
      std::memcpy(s->bytes.data(), x.bytes.data() + e * xw, xw);
      args.push_back(s);
    }
    std::vector<TensorPtr> out = I.runRegion(body, args);
    std::memcpy(r->bytes.data() + e * w, out.at(0)->bytes.data(), w);
  }
  I.setResult(op, 0, r);
}

KernelRegistration regs[] = {
    {{"func.call", "call"}, callOp},
    {{"stablehlo.composite"}, compositeOp},
    {{"stablehlo.while"}, whileOp},
    {{"stablehlo.if"}, ifOp},
    {{"stablehlo.case"}, caseOp},
    {{"stablehlo.map"}, mapOp},
};

}  // namespace
}  // namespace autopart::exec
