// Unary and binary elementwise arithmetic: stablehlo.add ... stablehlo.tanh,
// and the chlo unary functions JAX emits (erf, lgamma, sinh, ...).
//
//   %r = stablehlo.divide %a, %b : tensor<2xi32>   // [7, -7] / [2, 0] -> [3, -1]
//
// Integer arithmetic wraps (computed unsigned), division by zero gives -1
// (remainder: the dividend) and INT_MIN / -1 gives INT_MIN, as XLA does.
#include <bit>
#include <cmath>
#include <limits>

#include "exec/Elementwise.h"

namespace autopart::exec {
namespace {

template <typename T> using U = std::make_unsigned_t<T>;

#define UNARY(name, ...)                                           \
  void name(Interpreter &I, OpId op) {                             \
    const DType d = I.in(op, 0).dtype;                             \
    (void)d;                                                       \
    mapUnary(I, op, [&](auto x) { using T = decltype(x); __VA_ARGS__ }); \
  }
#define BINARY(name, ...)                                                  \
  void name(Interpreter &I, OpId op) {                                     \
    const DType d = I.in(op, 0).dtype;                                     \
    (void)d;                                                               \
    mapBinary(I, op, [&](auto a, auto b) { using T = decltype(a); __VA_ARGS__ }); \
  }

// Floating point only (real or complex).
#define FLOAT_ONLY(expr)                                            \
  if constexpr (kIsFloat<T> || kIsComplex<T>) return T(expr);       \
  else { throw Unsupported(); return T{}; }
#define REAL_ONLY(expr)                                 \
  if constexpr (kIsFloat<T>) return T(expr);             \
  else { throw Unsupported(); return T{}; }

UNARY(negate, if constexpr (kIsInt<T>) return T(U<T>(0) - U<T>(x)); else return T(-x);)
// abs of complex has a real result type: its own kernel.
UNARY(absRealOp,
      if constexpr (kIsComplex<T>) { throw Unsupported(); return T{}; }
      else if constexpr (kIsFloat<T>) return std::fabs(x);
      else if constexpr (std::is_signed_v<T>) return x < 0 ? T(U<T>(0) - U<T>(x)) : x;
      else return x;)
UNARY(notOp, if constexpr (kIsInt<T>) return T(~x); else { throw Unsupported(); return T{}; })
UNARY(sqrtOp, FLOAT_ONLY(std::sqrt(x)))
UNARY(rsqrtOp, FLOAT_ONLY(T(1) / std::sqrt(x)))
UNARY(cbrtOp,
      if constexpr (kIsComplex<T>) return std::pow(x, T(1.0 / 3.0));
      else { REAL_ONLY(std::cbrt(x)) })
UNARY(expOp, FLOAT_ONLY(std::exp(x)))
UNARY(expm1Op, if constexpr (kIsComplex<T>) return std::exp(x) - T(1); else { REAL_ONLY(std::expm1(x)) })
UNARY(logOp, FLOAT_ONLY(std::log(x)))
UNARY(log1pOp, if constexpr (kIsComplex<T>) return std::log(T(1) + x); else { REAL_ONLY(std::log1p(x)) })
UNARY(logisticOp, FLOAT_ONLY(T(1) / (T(1) + std::exp(-x))))
UNARY(sinOp, FLOAT_ONLY(std::sin(x)))
UNARY(cosOp, FLOAT_ONLY(std::cos(x)))
UNARY(tanOp, FLOAT_ONLY(std::tan(x)))
UNARY(tanhOp, FLOAT_ONLY(std::tanh(x)))
UNARY(sinhOp, FLOAT_ONLY(std::sinh(x)))
UNARY(coshOp, FLOAT_ONLY(std::cosh(x)))
UNARY(asinOp, FLOAT_ONLY(std::asin(x)))
UNARY(acosOp, FLOAT_ONLY(std::acos(x)))
UNARY(atanOp, FLOAT_ONLY(std::atan(x)))
UNARY(asinhOp, FLOAT_ONLY(std::asinh(x)))
UNARY(acoshOp, FLOAT_ONLY(std::acosh(x)))
UNARY(atanhOp, FLOAT_ONLY(std::atanh(x)))
UNARY(erfOp, REAL_ONLY(std::erf(x)))
UNARY(erfcOp, REAL_ONLY(std::erfc(x)))
UNARY(lgammaOp, REAL_ONLY(std::lgamma(x)))
UNARY(squareOp, if constexpr (kIsInt<T>) return T(U<T>(x) * U<T>(x)); else return T(x * x);)
UNARY(conjOp, if constexpr (kIsComplex<T>) return std::conj(x); else return x;)
UNARY(floorOp, REAL_ONLY(std::floor(x)))
UNARY(ceilOp, REAL_ONLY(std::ceil(x)))
UNARY(roundAfzOp, REAL_ONLY(std::round(x)))
UNARY(roundEvenOp, REAL_ONLY(std::nearbyint(x)))
UNARY(signOp,
      if constexpr (kIsComplex<T>) return x == T(0) ? x : x / std::abs(x);
      else if constexpr (kIsFloat<T>) return std::isnan(x) ? x : (x > 0 ? T(1) : x < 0 ? T(-1) : x);
      else if constexpr (std::is_signed_v<T>) return T(x > 0 ? 1 : x < 0 ? -1 : 0);
      else return T(x > 0 ? 1 : 0);)
UNARY(popcntOp,
      if constexpr (kIsInt<T>) {
        uint64_t v = uint64_t(U<T>(x)) & (d.bits >= 64 ? ~0ull : ((1ull << d.bits) - 1));
        return T(std::popcount(v));
      } else { throw Unsupported(); return T{}; })
UNARY(clzOp,
      if constexpr (kIsInt<T>) {
        uint64_t v = uint64_t(U<T>(x)) & (d.bits >= 64 ? ~0ull : ((1ull << d.bits) - 1));
        return T(std::countl_zero(v) - (64 - d.bits));
      } else { throw Unsupported(); return T{}; })

void absOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  if (!x.dtype.isComplex) return absRealOp(I, op);
  TensorPtr r = I.newResult(op);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double v = std::abs(getComplex(x, i));
    if (r->dtype.storage == Storage::F32) r->data<float>()[i] = float(v);
    else r->data<double>()[i] = v;
  }
  I.setResult(op, 0, r);
}

template <typename T> T intDiv(T a, T b) {
  if (b == 0) return T(-1);
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
  return T(a / b);
}
template <typename T> T intRem(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == T(-1)) return T(0);
  return T(a % b);
}
template <typename T> T intPow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) return base == 1 ? T(1) : base == -1 ? T(exp % 2 ? -1 : 1) : T(0);
  }
  U<T> r = 1, b = U<T>(base);
  for (U<T> e = U<T>(exp); e; e >>= 1, b *= b)
    if (e & 1) r *= b;
  return T(r);
}

// Narrow integers are kept sign-extended in 8 bits; their narrow-width min
// matters for INT_MIN / -1 only, which wraps correctly through normalize().
BINARY(addOp,
       if constexpr (kIsInt<T>) return d.isBool() ? T(a | b) : T(U<T>(a) + U<T>(b)); else return T(a + b);)
BINARY(subOp, if constexpr (kIsInt<T>) return T(U<T>(a) - U<T>(b)); else return T(a - b);)
BINARY(mulOp,
       if constexpr (kIsInt<T>) return d.isBool() ? T(a & b) : T(U<T>(a) * U<T>(b)); else return T(a * b);)
BINARY(divOp, if constexpr (kIsInt<T>) return intDiv(a, b); else return T(a / b);)
BINARY(remOp,
       if constexpr (kIsInt<T>) return intRem(a, b);
       else if constexpr (kIsFloat<T>) return std::fmod(a, b);
       else { throw Unsupported(); return T{}; })
BINARY(maxOp,
       if constexpr (kIsComplex<T>) return (a.real() > b.real() || (a.real() == b.real() && a.imag() >= b.imag())) ? a : b;
       else if constexpr (kIsFloat<T>) return std::isnan(a) ? a : std::isnan(b) ? b : (a > b || (a == b && !std::signbit(a))) ? a : b;
       else return a > b ? a : b;)
BINARY(minOp,
       if constexpr (kIsComplex<T>) return (a.real() < b.real() || (a.real() == b.real() && a.imag() <= b.imag())) ? a : b;
       else if constexpr (kIsFloat<T>) return std::isnan(a) ? a : std::isnan(b) ? b : (a < b || (a == b && std::signbit(a))) ? a : b;
       else return a < b ? a : b;)
BINARY(powOp,
       if constexpr (kIsInt<T>) return d.isBool() ? T(a | !b) : intPow(a, b);
       else return T(std::pow(a, b));)
BINARY(atan2Op,
       if constexpr (kIsFloat<T>) return std::atan2(a, b);
       else if constexpr (kIsComplex<T>) return T(-std::complex<double>(0, 1) *
                                                  std::log((std::complex<double>(b) + std::complex<double>(0, 1) * std::complex<double>(a)) /
                                                           std::sqrt(std::complex<double>(b) * std::complex<double>(b) + std::complex<double>(a) * std::complex<double>(a))));
       else { throw Unsupported(); return T{}; })
BINARY(andOp, if constexpr (kIsInt<T>) return T(a & b); else { throw Unsupported(); return T{}; })
BINARY(orOp, if constexpr (kIsInt<T>) return T(a | b); else { throw Unsupported(); return T{}; })
BINARY(xorOp, if constexpr (kIsInt<T>) return T(a ^ b); else { throw Unsupported(); return T{}; })
BINARY(shlOp,
       if constexpr (kIsInt<T>) {
         U<T> s = U<T>(b);
         if (b < 0 || s >= U<T>(d.bits)) return T(0);
         return T(U<T>(a) << s);
       } else { throw Unsupported(); return T{}; })
BINARY(shrArithOp,
       if constexpr (kIsInt<T>) {
         using S = std::make_signed_t<T>;
         U<T> s = U<T>(b);
         if (b < 0 || s >= U<T>(d.bits)) return T(S(a) < 0 ? T(-1) : T(0));
         return T(S(a) >> s);
       } else { throw Unsupported(); return T{}; })
BINARY(shrLogicalOp,
       if constexpr (kIsInt<T>) {
         U<T> s = U<T>(b);
         if (b < 0 || s >= U<T>(d.bits)) return T(0);
         U<T> mask = d.bits >= sizeof(T) * 8 ? U<T>(~U<T>(0)) : U<T>((U<T>(1) << d.bits) - 1);
         return T((U<T>(a) & mask) >> s);
       } else { throw Unsupported(); return T{}; })
BINARY(nextAfterOp, REAL_ONLY(std::nextafter(a, b)))

KernelRegistration regs[] = {
    {{"stablehlo.negate"}, negate},
    {{"stablehlo.abs"}, absOp},
    {{"stablehlo.not"}, notOp},
    {{"stablehlo.sqrt"}, sqrtOp},
    {{"stablehlo.rsqrt"}, rsqrtOp},
    {{"stablehlo.cbrt"}, cbrtOp},
    {{"stablehlo.exponential"}, expOp},
    {{"stablehlo.exponential_minus_one"}, expm1Op},
    {{"stablehlo.log"}, logOp},
    {{"stablehlo.log_plus_one"}, log1pOp},
    {{"stablehlo.logistic"}, logisticOp},
    {{"stablehlo.sine"}, sinOp},
    {{"stablehlo.cosine"}, cosOp},
    {{"stablehlo.tan", "chlo.tan"}, tanOp},
    {{"stablehlo.tanh"}, tanhOp},
    {{"chlo.sinh"}, sinhOp},
    {{"chlo.cosh"}, coshOp},
    {{"chlo.asin"}, asinOp},
    {{"chlo.acos"}, acosOp},
    {{"chlo.atan"}, atanOp},
    {{"chlo.asinh"}, asinhOp},
    {{"chlo.acosh"}, acoshOp},
    {{"chlo.atanh"}, atanhOp},
    {{"chlo.erf"}, erfOp},
    {{"chlo.erfc"}, erfcOp},
    {{"chlo.lgamma"}, lgammaOp},
    {{"chlo.square"}, squareOp},
    {{"chlo.conj"}, conjOp},
    {{"stablehlo.floor"}, floorOp},
    {{"stablehlo.ceil"}, ceilOp},
    {{"stablehlo.round_nearest_afz"}, roundAfzOp},
    {{"stablehlo.round_nearest_even"}, roundEvenOp},
    {{"stablehlo.sign"}, signOp},
    {{"stablehlo.popcnt"}, popcntOp},
    {{"stablehlo.count_leading_zeros"}, clzOp},
    {{"stablehlo.add"}, addOp},
    {{"stablehlo.subtract"}, subOp},
    {{"stablehlo.multiply"}, mulOp},
    {{"stablehlo.divide"}, divOp},
    {{"stablehlo.remainder"}, remOp},
    {{"stablehlo.maximum"}, maxOp},
    {{"stablehlo.minimum"}, minOp},
    {{"stablehlo.power"}, powOp},
    {{"stablehlo.atan2"}, atan2Op},
    {{"stablehlo.and"}, andOp},
    {{"stablehlo.or"}, orOp},
    {{"stablehlo.xor"}, xorOp},
    {{"stablehlo.shift_left"}, shlOp},
    {{"stablehlo.shift_right_arithmetic"}, shrArithOp},
    {{"stablehlo.shift_right_logical"}, shrLogicalOp},
    {{"chlo.next_after"}, nextAfterOp},
};

}  // namespace
}  // namespace autopart::exec
