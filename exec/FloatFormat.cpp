#include "exec/FloatFormat.h"

#include <cmath>
#include <limits>

namespace autopart::exec {

double FloatFormat::maxFinite() const {
  int maxExpField = (1 << expBits) - 1;
  double maxMant = 2.0 - std::ldexp(1.0, -mantBits);
  if (nan == Nan::Ieee || nan == Nan::Unsigned) return maxMant * std::ldexp(1.0, maxExpField - 1 - bias);
  if (nan == Nan::AllOnes) return (2.0 - std::ldexp(2.0, -mantBits)) * std::ldexp(1.0, maxExpField - bias);
  return maxMant * std::ldexp(1.0, maxExpField - bias);
}

double FloatFormat::round(double v) const {
  if (std::isnan(v)) return v;
  if (nan == Nan::Unsigned) {
    // No sign and no zero (what MLIR's APFloat does for E8M0FNU): negative
    // values and infinity are NaN, anything up to the smallest code is it.
    if (v < 0 || std::isinf(v)) return std::numeric_limits<double>::quiet_NaN();
    double smallest = std::ldexp(1.0, -bias);
    if (v <= smallest) return smallest;
    int q = std::ilogb(v) - mantBits;
    double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
    return r > maxFinite() ? std::numeric_limits<double>::quiet_NaN() : r;
  }
  if (std::isinf(v)) return nan == Nan::Ieee ? v : std::numeric_limits<double>::quiet_NaN();
  if (v == 0) return nan == Nan::NegZero ? 0.0 : v;
  double a = std::fabs(v);
  int emin = 1 - bias;
  int e = std::ilogb(a);
  int q = e < emin ? emin - mantBits : e - mantBits;
  double r = std::nearbyint(std::ldexp(a, -q));
  r = std::ldexp(r, q);
  if (r > maxFinite()) {
    // Past the largest finite value (after rounding): infinity where the
    // format has one, NaN otherwise (what MLIR's APFloat does for FN types).
    if (nan == Nan::Ieee) r = std::numeric_limits<double>::infinity();
    else if (nan == Nan::None) r = maxFinite();
    else r = std::numeric_limits<double>::quiet_NaN();
  }
  if (r == 0 && nan == Nan::NegZero) return 0.0;
  return std::signbit(v) ? -r : r;
}

uint32_t FloatFormat::encode(double v) const {
  uint32_t sign = 1u << (expBits + mantBits);
  uint32_t expMask = (1u << expBits) - 1, mantMask = (1u << mantBits) - 1;
  v = round(v);
  if (std::isnan(v)) {
    switch (nan) {
      case Nan::Ieee: return (expMask << mantBits) | (1u << (mantBits - 1));
      case Nan::AllOnes: return (expMask << mantBits) | mantMask;
      case Nan::NegZero: return sign;
      case Nan::None: return 0;
      case Nan::Unsigned: return (expMask << mantBits) | mantMask;
    }
  }
  uint32_t s = std::signbit(v) ? sign : 0;
  double a = std::fabs(v);
  if (std::isinf(a)) return s | (expMask << mantBits);
  if (a == 0) return s;
  int emin = nan == Nan::Unsigned ? -bias : 1 - bias;  // Unsigned: no subnormals
  int e = std::ilogb(a);
  if (e < emin) return s | uint32_t(std::ldexp(a, mantBits - emin));
  uint32_t mant = uint32_t(std::ldexp(a, mantBits - e)) & mantMask;
  return s | (uint32_t(e + bias) << mantBits) | mant;
}

double FloatFormat::decode(uint32_t bits) const {
  uint32_t sign = 1u << (expBits + mantBits);
  uint32_t expMask = (1u << expBits) - 1, mantMask = (1u << mantBits) - 1;
  uint32_t e = (bits >> mantBits) & expMask, m = bits & mantMask;
  bool neg = bits & sign;
  const double qnan = std::numeric_limits<double>::quiet_NaN();
  if (nan == Nan::NegZero && (bits & (sign | (expMask << mantBits) | mantMask)) == sign) return qnan;
  if (nan == Nan::Ieee && e == expMask)
    return m ? qnan : (neg ? -1 : 1) * std::numeric_limits<double>::infinity();
  if ((nan == Nan::AllOnes || nan == Nan::Unsigned) && e == expMask && m == mantMask) return qnan;
  if (nan == Nan::Unsigned) return std::ldexp(1.0 + std::ldexp(double(m), -mantBits), int(e) - bias);
  double a = e == 0 ? std::ldexp(double(m), 1 - bias - mantBits)
                    : std::ldexp(1.0 + std::ldexp(double(m), -mantBits), int(e) - bias);
  return neg ? -a : a;
}

FloatFormat floatFormatByName(const std::string &n) {
  using N = FloatFormat::Nan;
  if (n == "f16") return {5, 10, 15, N::Ieee};
  if (n == "bf16") return {8, 7, 127, N::Ieee};
  if (n == "f8E5M2") return {5, 2, 15, N::Ieee};
  if (n == "f8E4M3") return {4, 3, 7, N::Ieee};
  if (n == "f8E3M4") return {3, 4, 3, N::Ieee};
  if (n == "f8E4M3FN") return {4, 3, 7, N::AllOnes};
  if (n == "f8E5M2FNUZ") return {5, 2, 16, N::NegZero};
  if (n == "f8E4M3FNUZ") return {4, 3, 8, N::NegZero};
  if (n == "f8E4M3B11FNUZ") return {4, 3, 11, N::NegZero};
  if (n == "f6E2M3FN") return {2, 3, 1, N::None};
  if (n == "f6E3M2FN") return {3, 2, 3, N::None};
  if (n == "f4E2M1FN") return {2, 1, 1, N::None};
  if (n == "f8E8M0FNU") return {8, 0, 127, N::Unsigned};
  if (n == "tf32") return {8, 10, 127, N::Ieee};
  return {};
}

}  // namespace autopart::exec
