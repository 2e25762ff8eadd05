// chlo ops JAX emits that are not plain elementwise math: mulhi (the high
// half of an integer product) and top_k (the k largest along the last
// dimension, descending, ties by lower index).
//
//   chlo.mulhi [64] * [4] : i8 -> [1]        (256 >> 8)
//   chlo.top_k([3, 1, 4, 1], k = 2) -> values [4, 3], indices [2, 0]
#include <algorithm>
#include <numeric>
#include <regex>

#include "exec/Elementwise.h"

namespace autopart::exec {
namespace {

void mulhiOp(Interpreter &I, OpId op) {
  const DType d = I.in(op, 0).dtype;
  mapBinary(I, op, [&](auto a, auto b) {
    using T = decltype(a);
    if constexpr (kIsInt<T>) {
      if constexpr (std::is_unsigned_v<T>) {
        unsigned __int128 p = (unsigned __int128)a * (unsigned __int128)b;
        return T(uint64_t(p >> d.bits));
      } else {
        __int128 p = __int128(a) * __int128(b);
        return T(int64_t(p >> d.bits));
      }
    } else {
      throw Unsupported();
      return T{};
    }
  });
}

int64_t kOf(Interpreter &I, OpId op) {
  if (I.m.hasAttr(op, "k")) return I.intAttr(op, "k");
  AttrId a = I.m.attr(op, "__custom_syntax");
  std::string s = a == kNoAttr ? "" : unescapeString(I.m.attrs.stringValue(a));
  std::smatch mt;
  if (std::regex_search(s, mt, std::regex("k\\s*=\\s*([0-9]+)"))) return std::stoll(mt[1].str());
  I.fail(op, "top_k without k");
}

void topKOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  int64_t k = kOf(I, op), n = x.shape.back(), rows = x.numElements() / std::max<int64_t>(n, 1);
  TensorPtr values = I.newResult(op, 0), indices = I.newResult(op, 1);
  std::vector<int64_t> perm(static_cast<size_t>(n));
  size_t w = storageSize(x.dtype.storage);
  for (int64_t r = 0; r < rows; ++r) {
    std::iota(perm.begin(), perm.end(), 0);
    visitStorage(x.dtype.storage, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (kIsComplex<T>) {
        throw Unsupported();
      } else {
        const T *a = x.data<T>() + r * n;
        auto greater = [&](int64_t p, int64_t q) {
          if constexpr (kIsFloat<T>)
            if (std::isnan(a[p]) || std::isnan(a[q])) return std::isnan(a[p]) && !std::isnan(a[q]);
          return a[p] > a[q];
        };
        std::stable_sort(perm.begin(), perm.end(), greater);
      }
    });
    for (int64_t j = 0; j < k; ++j) {
      std::memcpy(values->bytes.data() + (r * k + j) * int64_t(w), x.bytes.data() + (r * n + perm[size_t(j)]) * int64_t(w), w);
      visitStorage(indices->dtype.storage, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!kIsComplex<T>) indices->data<T>()[r * k + j] = T(perm[size_t(j)]);
      });
    }
  }
  I.setResult(op, 0, values);
  I.setResult(op, 1, indices);
}

KernelRegistration regs[] = {
    {{"chlo.mulhi"}, mulhiOp},
    {{"chlo.top_k"}, topKOp},
};

}  // namespace
}  // namespace autopart::exec
