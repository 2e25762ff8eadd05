// The assertions of StableHLO's interpreter tests and of JAX-generated test
// programs. A failure is recorded (Interpreter::failures) with the op, and
// execution goes on so every assertion of a program is counted. The check ops
// arrive parsed (asm/CheckSyntax.cpp): the literal is the `value` attribute,
// the limits are `tolerance`, `max_ulp_difference`, `min_ulp_difference`.
//
//   check.expect_eq_const %r, dense<[2, 4]> : tensor<2xi32>      exact
//   check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<f64>  no opposite signs, |a-b| <= tol (default 1e-4)
//   check.expect_close %a, %b, max_ulp_difference = 3 : ...       min <= ULPs apart <= max (default 0..1)
//   stablehlo.custom_call @check.expect_close(%a, %b)             JAX form: floats |a-b| <= 1e-4 * max(1, |b|),
//                                                                ints exact
// The semantics of the check ops follow CheckOps.td and StableHLO's reference
// interpreter: almost-equal is an absolute test where values of opposite sign
// (or an infinity against a finite value) never match and NaN matches only NaN.
// The JAX custom_call form has no such definition; it keeps a relative test
// above magnitude 1 so large expected values are not held to 1e-4 absolute.
#include <cmath>
#include <cstdlib>

#include "exec/CustomCalls.h"
#include "exec/DenseLiteral.h"
#include "exec/Interpreter.h"
#include "exec/ProbeStore.h"

namespace autopart::exec {
namespace {

// A numeric attribute of the op, or `dflt` when the op does not carry it.
double numberAttr(Interpreter &I, OpId op, std::string_view name, double dflt) {
  AttrId v = I.m.attr(op, name);
  if (v == kNoAttr) return dflt;
  const AttrStorage &st = I.m.attrs.get(v);
  if (st.kind == AttrKind::Float) return st.floatValue;
  if (st.kind == AttrKind::Integer) return double(st.intValue);
  I.fail(op, "attribute '" + std::string(name) + "' is not a number");
}

// The literal of an `_const` check, in the type of the checked tensor (the
// two types match by the op's definition).
TensorPtr constOperand(Interpreter &I, OpId op, const Tensor &like) {
  AttrId a = I.m.attr(op, "value");
  if (a == kNoAttr || I.m.attrs.kind(a) != AttrKind::DenseElements) I.fail(op, "expected a dense 'value' attribute");
  return decodeDense(I.m.attrs.get(a).body, like.dtype, like.shape);
}

void record(Interpreter &I, OpId op, const std::string &failure) {
  if (failure.empty()) ++I.checksPassed;
  else I.failures.push_back({op, failure});
}

std::string mismatch(const Tensor &a, const Tensor &b, int64_t i) {
  return "element " + std::to_string(i) + ": " + elementString(a, i) + " (actual) vs " + elementString(b, i) +
         " (expected)";
}

std::string shapeMismatch(const Tensor &a, const Tensor &b) {
  if (a.shape != b.shape || a.dtype.storage != b.dtype.storage)
    return "type mismatch: " + a.typeString() + " vs " + b.typeString();
  return "";
}

std::string exactCheck(const Tensor &a, const Tensor &b) {
  if (std::string s = shapeMismatch(a, b); !s.empty()) return s;
  size_t w = storageSize(a.dtype.storage);
  for (int64_t i = 0; i < a.numElements(); ++i) {
    if (std::memcmp(a.bytes.data() + i * w, b.bytes.data() + i * w, w) == 0) continue;
    // +0 == -0 and NaN == NaN count as equal for floats.
    if (a.dtype.isFloat) {
      double x = getDouble(a, i), y = getDouble(b, i);
      if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    }
    return mismatch(a, b, i);
  }
  return "";
}

// check.expect_almost_eq: equal values match; NaN matches only NaN; an
// infinity matches only itself; otherwise both finite, not of opposite signs,
// and at most `tol` apart. One deviation from the reference interpreter: a
// zero has no sign here, since our FFT leaves residues like -1e-15 where the
// reference computes an exact 0 (fft.mlir).
bool almostEqual(double x, double y, double tol) {
  if (x == y) return true;
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  if (x != 0 && y != 0 && std::signbit(x) != std::signbit(y)) return false;
  return std::fabs(x - y) <= tol;
}

// The JAX custom_call form: relative above magnitude 1, NaN matches NaN.
bool relativeEqual(double x, double y, double tol) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  if (x == y) return true;
  return std::fabs(x - y) <= tol * std::max({1.0, std::fabs(y)});
}

std::string almostCheck(const Tensor &a, const Tensor &b, double tol, bool (*eq)(double, double, double)) {
  if (std::string s = shapeMismatch(a, b); !s.empty()) return s;
  if (!a.dtype.isFloat && !a.dtype.isComplex) return exactCheck(a, b);
  for (int64_t i = 0; i < a.numElements(); ++i) {
    std::complex<double> x = getComplex(a, i), y = getComplex(b, i);
    if (!eq(x.real(), y.real(), tol) || !eq(x.imag(), y.imag(), tol)) return mismatch(a, b, i);
  }
  return "";
}

// Position of a float on the line of representable values of its format.
int64_t ulpIndex(const DType &d, double v) {
  int64_t bits;
  if (d.isNarrowFloat()) {
    uint32_t b = d.format.encode(v);
    uint32_t sign = d.format.hasSign() ? 1u << (d.format.totalBits() - 1) : 0;  // E8M0FNU: none
    bits = (b & sign) ? -int64_t(b & (sign - 1)) : int64_t(b);
  } else if (d.storage == Storage::F32) {
    float f = float(v);
    int32_t b;
    std::memcpy(&b, &f, 4);
    bits = b < 0 ? -int64_t(b & 0x7fffffff) : b;
  } else {
    int64_t b;
    std::memcpy(&b, &v, 8);
    bits = b < 0 ? -(b & 0x7fffffffffffffffLL) : b;
  }
  return bits;
}

// The number of values of the format in [min(x, y), max(x, y)); -1 when a
// non-finite pair does not match (they match when equal or both NaN).
int64_t ulpDistance(const DType &d, double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) {
    if ((std::isnan(x) && std::isnan(y)) || x == y) return 0;
    return -1;
  }
  return std::llabs(ulpIndex(d, x) - ulpIndex(d, y));
}

std::string ulpCheck(const Tensor &a, const Tensor &b, int64_t minUlp, int64_t maxUlp) {
  if (std::string s = shapeMismatch(a, b); !s.empty()) return s;
  if (!a.dtype.isFloat && !a.dtype.isComplex) return exactCheck(a, b);
  DType part = !a.dtype.isComplex ? a.dtype : dtypeByName(a.dtype.storage == Storage::C64 ? "f32" : "f64");
  for (int64_t i = 0; i < a.numElements(); ++i) {
    std::complex<double> x = getComplex(a, i), y = getComplex(b, i);
    for (int64_t d : {ulpDistance(part, x.real(), y.real()), ulpDistance(part, x.imag(), y.imag())}) {
      if (d < 0) return mismatch(a, b, i) + ", non-finite values differ";
      if (d < minUlp || d > maxUlp)
        return mismatch(a, b, i) + ", " + std::to_string(d) + " ULPs apart (allowed " + std::to_string(minUlp) +
               ".." + std::to_string(maxUlp) + ")";
    }
  }
  return "";
}

void expectEq(Interpreter &I, OpId op) { record(I, op, exactCheck(I.in(op, 0), I.in(op, 1))); }
void expectEqConst(Interpreter &I, OpId op) {
  const Tensor &a = I.in(op, 0);
  record(I, op, exactCheck(a, *constOperand(I, op, a)));
}
void expectAlmostEq(Interpreter &I, OpId op) {
  record(I, op, almostCheck(I.in(op, 0), I.in(op, 1), numberAttr(I, op, "tolerance", 1e-4), almostEqual));
}
void expectAlmostEqConst(Interpreter &I, OpId op) {
  const Tensor &a = I.in(op, 0);
  record(I, op, almostCheck(a, *constOperand(I, op, a), numberAttr(I, op, "tolerance", 1e-4), almostEqual));
}
void expectClose(Interpreter &I, OpId op) {
  int64_t lo = int64_t(numberAttr(I, op, "min_ulp_difference", 0));
  int64_t hi = int64_t(numberAttr(I, op, "max_ulp_difference", 1));
  record(I, op, ulpCheck(I.in(op, 0), I.in(op, 1), lo, hi));
}

// interpreter.probe: serializes its operand, returns it unchanged.
void probe(Interpreter &I, OpId op) {
  if (!I.probes) I.fail(op, "interpreter.probe needs a probe store (autopart run provides one)");
  try {
    I.probes->write(unescapeString(I.m.attrs.stringValue(I.m.attr(op, "probe_id"))), I.in(op, 0));
  } catch (const std::runtime_error &e) {
    I.fail(op, e.what());
  }
  I.setResult(op, 0, I.operand(op, 0));
}

// check.expect_serialized_eq: the operand equals (exactly, same type) what
// probe `probe_id` serialized on execution `iteration` (default 0).
void expectSerializedEq(Interpreter &I, OpId op) {
  const Tensor &a = I.in(op, 0);
  std::string why;
  TensorPtr probed;
  if (I.probes)
    probed = I.probes->read(unescapeString(I.m.attrs.stringValue(I.m.attr(op, "probe_id"))),
                            uint32_t(numberAttr(I, op, "iteration", 0)), a, why);
  else why = "no probe store";
  record(I, op, probed ? exactCheck(a, *probed) : why);
}

// stablehlo.custom_call @check.*: the JAX test form.
void customCall(Interpreter &I, OpId op) {
  std::string target(I.m.attrs.stringValue(I.m.attr(op, "call_target_name")));
  if (I.m.numOperands(op) != 2) I.fail(op, "custom_call @" + target + " needs two operands");
  const Tensor &a = I.in(op, 0), &b = I.in(op, 1);
  std::string failure;
  if (target == "check.expect_eq" || target == "check.eq") failure = exactCheck(a, b);
  else if (target == "check.expect_close" || target == "check.expect_almost_eq") failure = almostCheck(a, b, 1e-4, relativeEqual);
  else I.fail(op, "unsupported custom_call target '" + target + "'");
  record(I, op, failure);
  for (uint32_t i = 0; i < I.m.numResults(op); ++i) {
    TensorPtr r = I.newResult(op, i);
    if (r->numElements() && r->dtype.isBool()) r->data<uint8_t>()[0] = failure.empty();
    I.setResult(op, i, r);
  }
}

KernelRegistration regs[] = {
    {{"check.expect_eq"}, expectEq},
    {{"check.expect_eq_const"}, expectEqConst},
    {{"check.expect_almost_eq"}, expectAlmostEq},
    {{"check.expect_almost_eq_const"}, expectAlmostEqConst},
    {{"check.expect_close"}, expectClose},
    {{"check.expect_serialized_eq"}, expectSerializedEq},
    {{"interpreter.probe"}, probe},
};

CustomCallRegistration targets({"check.expect_eq", "check.eq", "check.expect_close", "check.expect_almost_eq"},
                               customCall);

}  // namespace
}  // namespace autopart::exec
