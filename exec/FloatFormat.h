// Narrow floating-point formats (f16, bf16, the f8/f6/f4 families), described
// by their exponent and mantissa widths and how they spell NaN and infinity.
// The executor stores such elements as float and rounds after every op:
//
//   FloatFormat f = floatFormatByName("f8E4M3FN");   // 4 exp, 3 mantissa bits
//   f.round(500.0)  -> NaN (past the largest finite 448, no infinity)
//   f.round(0.3)    -> 0.3125
//   f.encode(1.0)   -> 0x38;  f.decode(0x38) -> 1.0
//
// f8E8M0FNU (the OCP MX block scale) is exponent-only and unsigned: a code
// e is 2^(e - 127), 0xFF is NaN, and there is no zero, sign or infinity:
//
//   FloatFormat s = floatFormatByName("f8E8M0FNU");
//   s.round(3.1415) -> 4;  s.round(0.1) -> 0.125;  s.round(0.0) -> 2^-127;
//   s.round(-1.0)   -> NaN;  s.encode(2.0) -> 0x80
#pragma once

#include <cstdint>
#include <string>

namespace autopart::exec {

struct FloatFormat {
  enum class Nan : uint8_t {
    Ieee,      // exponent all ones: inf (mantissa 0) or NaN
    AllOnes,   // *FN: only S.1111.111 is NaN, no infinity
    NegZero,   // *FNUZ: 0x80 is NaN, no infinity, no negative zero
    None,      // f4/f6 FN: every code is finite
    Unsigned,  // E8M0FNU: no sign bit, no zero; all ones is NaN, no infinity
  };
  int expBits = 0, mantBits = 0, bias = 0;
  Nan nan = Nan::Ieee;

  bool valid() const { return expBits > 0; }
  bool hasSign() const { return nan != Nan::Unsigned; }
  int totalBits() const { return (hasSign() ? 1 : 0) + expBits + mantBits; }
  double maxFinite() const;
  double round(double v) const;  // nearest value of the format (ties to even)
  uint32_t encode(double v) const;
  double decode(uint32_t bits) const;
};

// The format of a narrow float type name; an invalid format for f32/f64 and
// for names this executor does not know.
FloatFormat floatFormatByName(const std::string &name);

}  // namespace autopart::exec
