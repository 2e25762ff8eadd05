// The assertions of StableHLO's interpreter tests and of JAX-generated test
// programs. A failure is recorded (Interpreter::failures) with the op, and
// execution goes on so every assertion of a program is counted.
//
//   check.expect_eq_const %r, dense<[2, 4]> : tensor<2xi32>     exact
//   check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<f64> |a-b| <= tol * max(1, |b|)
//   check.expect_close %a, %b, max_ulp_difference = 3 : ...      ULPs in a's format
//   stablehlo.custom_call @check.expect_close(%a, %b)            floats: almost_eq
//                                                               (tol 1e-4), ints: exact
// The almost-equal rule scales the tolerance for magnitudes above 1 (a
// relative test there, absolute below); NaN equals NaN.
#include <cmath>
#include <cstdlib>
#include <regex>

#include "exec/DenseLiteral.h"
#include "exec/Interpreter.h"

namespace autopart::exec {
namespace {

std::string syntaxOf(Interpreter &I, OpId op) {
  AttrId a = I.m.attr(op, "__custom_syntax");
  return a == kNoAttr ? "" : unescapeString(I.m.attrs.stringValue(a));
}

// A `name = number` in the custom syntax or the trailing dictionary.
double numberIn(Interpreter &I, OpId op, const std::string &name, double dflt) {
  std::smatch mt;
  std::string s = syntaxOf(I, op);
  if (std::regex_search(s, mt, std::regex(name + "\\s*=\\s*([-+0-9.eE]+)"))) return std::strtod(mt[1].str().c_str(), nullptr);
  AttrId trailing = I.m.attr(op, "__custom_trailing");
  AttrId v = I.m.attrs.field(trailing, name);
  if (v == kNoAttr) v = I.m.attr(op, name);
  if (v != kNoAttr) {
    const AttrStorage &st = I.m.attrs.get(v);
    return st.kind == AttrKind::Float ? st.floatValue : double(st.intValue);
  }
  return dflt;
}

// The literal of an `_const` check: `dense<...>` in the custom syntax.
TensorPtr constOperand(Interpreter &I, OpId op, const Tensor &like) {
  std::string s = syntaxOf(I, op);
  size_t b = s.find("dense<");
  if (b == std::string::npos) I.fail(op, "cannot find the expected literal");
  size_t i = b + 6;
  int depth = 1;
  bool inStr = false;
  for (; i < s.size() && depth; ++i) {
    if (s[i] == '"') inStr = !inStr;
    if (inStr) continue;
    if (s[i] == '<') ++depth;
    if (s[i] == '>') --depth;
  }
  return decodeDense(std::string_view(s).substr(b + 6, i - 1 - (b + 6)), like.dtype, like.shape);
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

bool almostEqual(double x, double y, double tol) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  if (x == y) return true;
  return std::fabs(x - y) <= tol * std::max({1.0, std::fabs(y)});
}

std::string almostCheck(const Tensor &a, const Tensor &b, double tol) {
  if (std::string s = shapeMismatch(a, b); !s.empty()) return s;
  if (!a.dtype.isFloat && !a.dtype.isComplex) return exactCheck(a, b);
  for (int64_t i = 0; i < a.numElements(); ++i) {
    std::complex<double> x = getComplex(a, i), y = getComplex(b, i);
    if (!almostEqual(x.real(), y.real(), tol) || !almostEqual(x.imag(), y.imag(), tol)) return mismatch(a, b, i);
  }
  return "";
}

// Position of a float on the line of representable values of its format.
int64_t ulpIndex(const DType &d, double v) {
  int64_t bits;
  if (d.isNarrowFloat()) {
    uint32_t b = d.format.encode(v);
    uint32_t sign = 1u << (d.format.totalBits() - 1);
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

std::string ulpCheck(const Tensor &a, const Tensor &b, int64_t minUlp, int64_t maxUlp) {
  if (std::string s = shapeMismatch(a, b); !s.empty()) return s;
  if (!a.dtype.isFloat) return exactCheck(a, b);
  for (int64_t i = 0; i < a.numElements(); ++i) {
    double x = getDouble(a, i), y = getDouble(b, i);
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) && std::isnan(y)) continue;
      return mismatch(a, b, i);
    }
    int64_t d = std::llabs(ulpIndex(a.dtype, x) - ulpIndex(a.dtype, y));
    if (d < minUlp || d > maxUlp)
      return mismatch(a, b, i) + ", " + std::to_string(d) + " ULPs apart (allowed " + std::to_string(minUlp) + ".." +
             std::to_string(maxUlp) + ")";
  }
  return "";
}

void expectEq(Interpreter &I, OpId op) { record(I, op, exactCheck(I.in(op, 0), I.in(op, 1))); }
void expectEqConst(Interpreter &I, OpId op) {
  const Tensor &a = I.in(op, 0);
  record(I, op, exactCheck(a, *constOperand(I, op, a)));
}
void expectAlmostEq(Interpreter &I, OpId op) {
  record(I, op, almostCheck(I.in(op, 0), I.in(op, 1), numberIn(I, op, "tolerance", 1e-4)));
}
void expectAlmostEqConst(Interpreter &I, OpId op) {
  const Tensor &a = I.in(op, 0);
  record(I, op, almostCheck(a, *constOperand(I, op, a), numberIn(I, op, "tolerance", 1e-4)));
}
void expectClose(Interpreter &I, OpId op) {
  int64_t lo = int64_t(numberIn(I, op, "min_ulp_difference", 0));
  int64_t hi = int64_t(numberIn(I, op, "max_ulp_difference", 3));
  record(I, op, ulpCheck(I.in(op, 0), I.in(op, 1), lo, hi));
}

// stablehlo.custom_call @check.*: the JAX test form.
void customCall(Interpreter &I, OpId op) {
  std::string target(I.m.attrs.stringValue(I.m.attr(op, "call_target_name")));
  if (!target.starts_with("check.")) I.fail(op, "unsupported custom_call target '" + target + "'");
  if (I.m.numOperands(op) != 2) I.fail(op, "custom_call @" + target + " needs two operands");
  const Tensor &a = I.in(op, 0), &b = I.in(op, 1);
  std::string failure;
  if (target == "check.expect_eq" || target == "check.eq") failure = exactCheck(a, b);
  else if (target == "check.expect_close" || target == "check.expect_almost_eq") failure = almostCheck(a, b, 1e-4);
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
    {{"stablehlo.custom_call"}, customCall},
};

}  // namespace
}  // namespace autopart::exec
