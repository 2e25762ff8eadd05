// Shared loops of the elementwise kernels: one typed loop per op over flat
// buffers, chosen once by storage type (visitStorage), then normalize().
//
//   mapUnary(I, op, [](auto x) { return -x; });          // stablehlo.negate
//   mapBinary(I, op, [](auto a, auto b) { return a + b; });  // stablehlo.add
//
// A functor signals an element type it does not support by throwing from
// its `if constexpr` fallback; the first element then fails the op.
#pragma once

#include <cstring>
#include <limits>
#include <type_traits>

#include "exec/Interpreter.h"

namespace autopart::exec {

struct Unsupported : std::runtime_error {
  Unsupported() : std::runtime_error("element type not supported by this op") {}
};

template <typename F> void mapUnary(Interpreter &I, OpId op, F f) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newUninitializedResult(op);
  int64_t n = x.numElements();
  visitStorage(x.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *a = x.data<T>();
    using R = decltype(f(a[0]));
    if (storageSize(r->dtype.storage) != sizeof(R)) throw std::runtime_error("result element type mismatch");
    R *o = r->data<R>();
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
  });
  normalize(*r);
  I.setResult(op, 0, r);
}

template <typename F> void mapBinary(Interpreter &I, OpId op, F f) {
  const Tensor &x = I.in(op, 0), &y = I.in(op, 1);
  TensorPtr r = I.newUninitializedResult(op);
  int64_t n = r->numElements();
  if (x.numElements() != n || y.numElements() != n || x.dtype.storage != y.dtype.storage)
    throw std::runtime_error("operand shapes or types differ from the result's");
  visitStorage(x.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *a = x.data<T>(), *b = y.data<T>();
    using R = decltype(f(a[0], b[0]));
    if (storageSize(r->dtype.storage) != sizeof(R)) throw std::runtime_error("result element type mismatch");
    R *o = r->data<R>();
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
  });
  normalize(*r);
  I.setResult(op, 0, r);
}

// Floats in total order (-NaN < -inf < ... < -0 < +0 < ... < NaN) as
// integers: compare's TOTALORDER and sort's total comparator both read it.
template <typename T> int64_t totalOrderKey(T v) {
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  I bits;
  std::memcpy(&bits, &v, sizeof(T));
  // Negative floats: flip the magnitude bits so more negative sorts lower.
  if (bits < 0) bits = I(bits ^ std::numeric_limits<I>::max());
  return int64_t(bits);
}

}  // namespace autopart::exec
