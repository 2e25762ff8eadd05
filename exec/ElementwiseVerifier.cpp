// Op checks (OpVerifier.h) of the elementwise family: the kernels loop over
// the result's elements and read each operand at the same flat index, so
// every operand has the result's shape (the scalar predicate of select and
// scalar bounds of clamp aside), and the data operands share one element
// type (spec: add C1, compare C1-C3, select C1-C2, clamp C1-C2, map C1-C4):
//
//   %0 = stablehlo.constant dense<1.0> : tensor<5xf32>
//   %1 = stablehlo.tanh %0 : tensor<4xf32>
//   -> error: stablehlo.tanh: result #0 is tensor<4xf32>, its shape must be [5]
#include "exec/OpVerifier.h"

namespace autopart::exec {
namespace {

// Operands and result: one shape, one element type.
void checkSameType(const OpCheck &c) {
  c.counts(OpCheck::kAny, 1);
  c.atLeastOperands(1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "operand #0");
  for (uint32_t i = 1; i < c.numOperands(); ++i) {
    c.isTensor(c.in(i), "operand #" + std::to_string(i));
    c.sameShape(x, c.in(i), "operands #0 and #" + std::to_string(i) + " differ in shape");
    c.sameElement(x, c.in(i), "operands #0 and #" + std::to_string(i) + " differ in element type");
  }
  c.resultIsLike(0, x);
}

// One operand; the result has its shape and an element type of its own
// (convert, bitcast-free conversions).
void checkSameShape(const OpCheck &c) {
  c.counts(1, 1);
  c.isTensor(c.in(0), "the operand");
  c.resultShapeIs(0, c.in(0).shape);
}

void checkPredicateResult(const OpCheck &c, const Tensor &shapeOf) {
  c.resultShapeIs(0, shapeOf.shape);
  TypeId rt = c.m.type(c.m.result(c.op, 0));
  if (c.m.types.isTensor(rt) && c.m.types.str(c.m.types.elementType(rt)) != "i1")
    c.fail("result #0 is " + c.typeStr(rt) + ", its element type must be i1");
}

void checkClassify(const OpCheck &c) {
  checkSameShape(c);
  checkPredicateResult(c, c.in(0));
}

void checkCompare(const OpCheck &c) {
  c.counts(2, 1);
  c.isTensor(c.in(0), "lhs");
  c.isTensor(c.in(1), "rhs");
  c.sameShape(c.in(0), c.in(1), "lhs and rhs differ in shape");
  c.sameElement(c.in(0), c.in(1), "lhs and rhs differ in element type");
  checkPredicateResult(c, c.in(0));
}

void checkSelect(const OpCheck &c) {
  c.counts(3, 1);
  const Tensor &p = c.in(0), &x = c.in(1), &y = c.in(2);
  c.isTensor(p, "pred");
  c.isTensor(x, "on_true");
  c.isTensor(y, "on_false");
  if (p.dtype.name != "i1") c.fail("pred is " + p.typeString() + ", its element type must be i1");
  c.sameShape(x, y, "on_true and on_false differ in shape");
  c.sameElement(x, y, "on_true and on_false differ in element type");
  if (p.rank() != 0 && p.shape != x.shape)
    c.fail("pred is " + p.typeString() + ", it must be a scalar or have on_true's shape " + dimsString(x.shape));
  c.resultIsLike(0, x);
}

void checkClamp(const OpCheck &c) {
  c.counts(3, 1);
  const Tensor &lo = c.in(0), &x = c.in(1), &hi = c.in(2);
  c.isTensor(lo, "min");
  c.isTensor(x, "operand");
  c.isTensor(hi, "max");
  for (const Tensor *b : {&lo, &hi}) {
    if (b->rank() != 0 && b->shape != x.shape)
      c.fail(std::string(b == &lo ? "min" : "max") + " is " + b->typeString() +
             ", it must be a scalar or have the operand's shape " + dimsString(x.shape));
    c.sameElement(*b, x, std::string(b == &lo ? "min" : "max") + " and the operand differ in element type");
  }
  c.resultIsLike(0, x);
}

void checkComplex(const OpCheck &c) {
  c.counts(2, 1);
  c.isTensor(c.in(0), "lhs");
  c.isTensor(c.in(1), "rhs");
  c.sameShape(c.in(0), c.in(1), "lhs and rhs differ in shape");
  c.sameElement(c.in(0), c.in(1), "lhs and rhs differ in element type");
  c.resultShapeIs(0, c.in(0).shape);
}

// real / imag / abs: a complex operand gives its component type, any other
// its own.
void checkRealValued(const OpCheck &c) {
  checkSameShape(c);
  const Tensor &x = c.in(0);
  TypeId rt = c.m.type(c.m.result(c.op, 0));
  if (!c.m.types.isTensor(rt)) return;
  std::string_view re = c.m.types.str(c.m.types.elementType(rt));
  std::string want = x.dtype.name == "complex<f32>" ? "f32" : x.dtype.name == "complex<f64>" ? "f64" : x.dtype.name;
  if (re != want) c.fail("result #0 is " + c.typeStr(rt) + ", its element type must be " + want);
}

// map: operands of one shape; the computation takes one scalar of each
// operand's element type and returns one of the result's.
void checkMap(const OpCheck &c) {
  c.counts(OpCheck::kAny, 1, 1);
  c.atLeastOperands(1);
  const Tensor &x = c.in(0);
  std::vector<std::string_view> args;
  for (uint32_t i = 0; i < c.numOperands(); ++i) {
    c.isTensor(c.in(i), "operand #" + std::to_string(i));
    c.sameShape(x, c.in(i), "operands #0 and #" + std::to_string(i) + " differ in shape");
    args.push_back(c.in(i).dtype.name);
  }
  std::vector<int64_t> dims = c.ints("dimensions");
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != int64_t(i)) c.fail("dimensions " + dimsString(dims) + " must be [0, ..., rank - 1]");
  c.resultShapeIs(0, x.shape);
  TypeId rt = c.m.type(c.m.result(c.op, 0));
  std::string_view re = c.m.types.isTensor(rt) ? c.m.types.str(c.m.types.elementType(rt)) : std::string_view();
  c.scalarRegion(0, args, {re});
}

// reduce_precision (C1-C3): exponent_bits >= 1 and mantissa_bits >= 0. The
// kernel builds the format's bias with an int shift, so wider exponents
// than 30 bits are refused as unsupported (f64 itself has 11).
void checkReducePrecision(const OpCheck &c) {
  checkSameType(c);
  int64_t e = c.I.intAttr(c.op, "exponent_bits", 0), mbits = c.I.intAttr(c.op, "mantissa_bits", -1);
  if (e < 1) c.fail("exponent_bits " + std::to_string(e) + " must be at least 1");
  if (mbits < 0) c.fail("mantissa_bits " + std::to_string(mbits) + " must not be negative");
  if (e > 30 || mbits > 60) c.fail("formats wider than 30 exponent or 60 mantissa bits are not supported");
}

OpCheckRegistration regs[] = {
    {{"stablehlo.reduce_precision"}, checkReducePrecision},
    {{"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide", "stablehlo.remainder",
      "stablehlo.maximum", "stablehlo.minimum", "stablehlo.power", "stablehlo.atan2", "stablehlo.and", "stablehlo.or",
      "stablehlo.xor", "stablehlo.shift_left", "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
      "stablehlo.negate", "stablehlo.exponential", "stablehlo.exponential_minus_one",
      "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.sqrt", "stablehlo.rsqrt", "stablehlo.cbrt",
      "stablehlo.tanh", "stablehlo.logistic", "stablehlo.sine", "stablehlo.cosine", "stablehlo.tan",
      "stablehlo.floor", "stablehlo.ceil", "stablehlo.round_nearest_even", "stablehlo.round_nearest_afz",
      "stablehlo.sign", "stablehlo.not", "stablehlo.popcnt", "stablehlo.count_leading_zeros",
      "chlo.tan", "chlo.sinh", "chlo.cosh", "chlo.asin", "chlo.acos", "chlo.atan",
      "chlo.asinh", "chlo.acosh", "chlo.atanh", "chlo.erf", "chlo.erfc", "chlo.lgamma", "chlo.square", "chlo.conj",
      "chlo.next_after", "chlo.mulhi"},
     checkSameType},
    {{"stablehlo.convert"}, checkSameShape},
    {{"stablehlo.is_finite", "chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf"}, checkClassify},
    {{"stablehlo.compare"}, checkCompare},
    {{"stablehlo.select"}, checkSelect},
    {{"stablehlo.clamp"}, checkClamp},
    {{"stablehlo.complex"}, checkComplex},
    {{"stablehlo.real", "stablehlo.imag", "stablehlo.abs"}, checkRealValued},
    {{"stablehlo.map"}, checkMap},
};

}  // namespace
}  // namespace autopart::exec
