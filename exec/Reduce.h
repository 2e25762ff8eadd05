// Shared pieces of the reducing ops (reduce, reduce_window,
// select_and_scatter, scatter, sort): scalar views for calling a region per
// element, and typed reducers for the common bodies so that
// `reduce(%x) applies stablehlo.add` is a plain loop:
//
//   BinaryReducer r = binaryReducer("stablehlo.maximum");  // NaN-propagating max
#pragma once

#include <cmath>
#include <string_view>

#include "exec/Interpreter.h"

namespace autopart::exec {

// A rank-0 copy of element `i` of `t`, and the reverse.
TensorPtr scalarOf(const Tensor &t, int64_t i);
void storeScalar(Tensor &t, int64_t i, const Tensor &s);

enum class BinaryKind { None, Add, Mul, Max, Min, And, Or, Xor };
BinaryKind binaryKind(std::string_view opName);

template <typename T> inline T applyBinary(BinaryKind k, T a, T b, bool isBool) {
  if constexpr (kIsComplex<T>) {
    if (k == BinaryKind::Add) return a + b;
    return a * b;
  } else {
    switch (k) {
      case BinaryKind::Add:
        if constexpr (kIsInt<T>) return isBool ? T(a | b) : T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
        else return a + b;
      case BinaryKind::Mul:
        if constexpr (kIsInt<T>) return isBool ? T(a & b) : T(std::make_unsigned_t<T>(a) * std::make_unsigned_t<T>(b));
        else return a * b;
      case BinaryKind::Max:
        if constexpr (kIsFloat<T>) return std::isnan(a) ? a : std::isnan(b) ? b : (a > b || (a == b && !std::signbit(a))) ? a : b;
        else return a > b ? a : b;
      case BinaryKind::Min:
        if constexpr (kIsFloat<T>) return std::isnan(a) ? a : std::isnan(b) ? b : (a < b || (a == b && std::signbit(a))) ? a : b;
        else return a < b ? a : b;
      case BinaryKind::And:
        if constexpr (kIsInt<T>) return T(a & b);
        else return a;
      case BinaryKind::Or:
        if constexpr (kIsInt<T>) return T(a | b);
        else return a;
      case BinaryKind::Xor:
        if constexpr (kIsInt<T>) return T(a ^ b);
        else return a;
      case BinaryKind::None: break;
    }
    return a;
  }
}

// Whether the typed fast path handles `k` for this dtype (complex: add/mul;
// bitwise ops: integers).
bool fastReducible(BinaryKind k, const DType &d);

}  // namespace autopart::exec
