// chlo ops JAX emits that are not plain elementwise math: mulhi (the high
// half of an integer product) and top_k (the k largest along the last
// dimension, descending, ties by lower index).
//
//   chlo.mulhi [64] * [4] : i8 -> [1]        (256 >> 8)
//   chlo.top_k([3, 1, 4, 1], k = 2) -> values [4, 3], indices [2, 0]
#include <algorithm>
#include <optional>
#include <numeric>

#include "exec/Elementwise.h"
#include "exec/Strided.h"

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
  if (!I.m.hasAttr(op, "k")) I.fail(op, "top_k without k");
  return I.intAttr(op, "k");
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

// Operand counts of chlo.scan: inputs, then carried values
// (`operandSegmentSizes`, as the parser records it).
std::pair<uint32_t, uint32_t> scanArity(Interpreter &I, OpId op) {
  std::vector<int64_t> segments = I.m.attrs.intList(I.m.attr(op, "operandSegmentSizes"));
  if (segments.size() != 2) I.fail(op, "cannot read chlo.scan's inputs and inits");
  return {uint32_t(segments[0]), uint32_t(segments[1])};
}

// chlo.scan: the body maps (input slices..., carries...) to (output
// slices..., carries...) along `dimension`, backwards with is_reverse.
void scanOp(Interpreter &I, OpId op) {
  auto [nIn, nC] = scanArity(I, op);
  if (!I.m.hasAttr(op, "dimension")) I.fail(op, "chlo.scan without a dimension");
  int64_t dim = I.m.attrs.get(I.m.attr(op, "dimension")).intValue;
  bool reverse = I.m.hasAttr(op, "is_reverse") && I.m.attrs.get(I.m.attr(op, "is_reverse")).intValue;
  if (nC > I.m.numResults(op)) I.fail(op, "chlo.scan has more carried values than results");
  uint32_t nOut = I.m.numResults(op) - nC;
  // Every input and output is sliced along `dim`, so it must be a dimension
  // of each, of one common length.
  std::optional<int64_t> common;
  auto checkScanned = [&](const std::vector<int64_t> &shape) {
    if (dim < 0 || dim >= int64_t(shape.size())) I.fail(op, "chlo.scan dimension " + std::to_string(dim) + " is outside a rank-" + std::to_string(shape.size()) + " tensor");
    if (common && *common != shape[size_t(dim)]) I.fail(op, "chlo.scan inputs and outputs differ in the scanned dimension's length");
    common = shape[size_t(dim)];
  };
  for (uint32_t j = 0; j < nIn; ++j) checkScanned(I.in(op, j).shape);
  std::vector<TensorPtr> carries, outs;
  for (uint32_t j = 0; j < nC; ++j) carries.push_back(I.operand(op, nIn + j));
  for (uint32_t j = 0; j < nOut; ++j) outs.push_back(I.newResult(op, j));
  for (const TensorPtr &o : outs) checkScanned(o->shape);
  int64_t len = nIn ? I.in(op, 0).shape[size_t(dim)] : (nOut ? outs[0]->shape[size_t(dim)] : 0);
  auto slice = [&](const Tensor &t, int64_t at) {
    std::vector<int64_t> shape = t.shape, ts = stridesOf(t.shape);
    shape.erase(shape.begin() + dim);
    std::vector<int64_t> ss = ts;
    ss.erase(ss.begin() + dim);
    TensorPtr r = makeTensor(t.dtype, shape);
    stridedCopy(r->bytes.data(), shape, t.bytes.data(), at * ts[size_t(dim)], ss, storageSize(t.dtype.storage));
    return r;
  };
  for (int64_t step = 0; step < len; ++step) {
    int64_t at = reverse ? len - 1 - step : step;
    std::vector<TensorPtr> args;
    for (uint32_t j = 0; j < nIn; ++j) args.push_back(slice(I.in(op, j), at));
    args.insert(args.end(), carries.begin(), carries.end());
    std::vector<TensorPtr> res = I.runRegion(I.m.region(op, 0), args);
    if (res.size() != nOut + nC) I.fail(op, "chlo.scan body returned the wrong number of values");
    for (uint32_t j = 0; j < nOut; ++j) {
      Tensor &o = *outs[j];
      std::vector<int64_t> os = stridesOf(o.shape), ss = os;
      ss.erase(ss.begin() + dim);
      size_t w = storageSize(o.dtype.storage);
      stridedCopy(o.bytes.data() + at * os[size_t(dim)] * int64_t(w), res[j]->shape, ss, res[j]->bytes.data(), 0,
                  stridesOf(res[j]->shape), w);
    }
    carries.assign(res.begin() + nOut, res.end());
  }
  for (uint32_t j = 0; j < nOut; ++j) I.setResult(op, j, outs[j]);
  for (uint32_t j = 0; j < nC; ++j) I.setResult(op, nOut + j, carries[j]);
}

KernelRegistration regs[] = {
    {{"chlo.scan"}, scanOp},
    {{"chlo.mulhi"}, mulhiOp},
    {{"chlo.top_k"}, topKOp},
};

}  // namespace
}  // namespace autopart::exec
