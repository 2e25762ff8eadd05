// chlo.ragged_dot: a dot_general whose lhs has one "ragged" dimension cut
// into consecutive groups by `group_sizes` (JAX's lax.ragged_dot_general
// modes, as chlo's legalization to StableHLO spells them):
//
//   1. ragged lhs non-contracting dim m, rhs group dim g:
//        [b, m, k] x [g, b, k, n] -> [b, m, n]; row m of group j uses rhs[j];
//        rows past the last group are 0.
//   2. ragged contracting dim k: [b, m, k] x [b, k, n] -> [g, b, m, n];
//        slice j sums only over the k of group j.
//   3. ragged batch dim: an ordinary dot_general (every group is the same
//        product), [b, m, k] x [b, k, n] -> [b, m, n].
//
//   lhs 3x1 [[1], [2], [3]], rhs 2x1x1 [[[10]], [[100]]], group_sizes [2, 1],
//   lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]
//     -> [[10], [20], [300]]
//
// `group_sizes` of shape [g] applies to every batch (and outer) index; a
// shape [b..., x..., g] gives sizes per batch index and per lhs dimension of
// the ragged dimension's kind that comes before it (x...). Products are
// direct sums per output element (accumulated in double for floats), not
// GEMMs.
#include <algorithm>
#include <complex>

#include "exec/Interpreter.h"

namespace autopart::exec {
namespace {

std::vector<int64_t> listField(Interpreter &I, AttrId dn, const char *key) {
  AttrId a = I.m.attrs.field(dn, key);
  return a == kNoAttr ? std::vector<int64_t>{} : I.m.attrs.intList(a);
}

bool contains(const std::vector<int64_t> &v, int64_t x) { return std::count(v.begin(), v.end(), x) > 0; }

int64_t product(const std::vector<int64_t> &shape, const std::vector<int64_t> &dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= shape[size_t(d)];
  return p;
}

// Offsets into a row-major tensor of every multi-index over `dims`
// (row-major over dims in the given order).
std::vector<int64_t> offsets(const std::vector<int64_t> &shape, const std::vector<int64_t> &dims) {
  std::vector<int64_t> strides = stridesOf(shape), out = {0};
  for (int64_t d : dims) {
    std::vector<int64_t> next;
    next.reserve(out.size() * size_t(shape[size_t(d)]));
    for (int64_t o : out)
      for (int64_t i = 0; i < shape[size_t(d)]; ++i) next.push_back(o + i * strides[size_t(d)]);
    out = std::move(next);
  }
  return out;
}

// The coordinate along `dim` of each multi-index of `offsets(shape, dims)`.
std::vector<int64_t> coordinates(const std::vector<int64_t> &shape, const std::vector<int64_t> &dims, int64_t dim) {
  std::vector<int64_t> out = {0};
  for (int64_t d : dims) {
    std::vector<int64_t> next;
    for (int64_t o : out)
      for (int64_t i = 0; i < shape[size_t(d)]; ++i) next.push_back(d == dim ? i : o);
    out = std::move(next);
  }
  return out;
}

template <typename T> using Acc = std::conditional_t<kIsComplex<T>, std::complex<double>,
                                                     std::conditional_t<kIsFloat<T>, double, T>>;

void raggedDotOp(Interpreter &I, OpId op) {
  AttrId dn = I.m.attr(op, "ragged_dot_dimension_numbers");
  if (dn == kNoAttr) I.fail(op, "chlo.ragged_dot without ragged_dot_dimension_numbers");
  std::vector<int64_t> lb = listField(I, dn, "lhs_batching_dimensions"),
                       rb = listField(I, dn, "rhs_batching_dimensions"),
                       lc = listField(I, dn, "lhs_contracting_dimensions"),
                       rc = listField(I, dn, "rhs_contracting_dimensions"),
                       lr = listField(I, dn, "lhs_ragged_dimensions"),
                       rg = listField(I, dn, "rhs_group_dimensions");
  DType rd = I.resultDType(op);
  TensorPtr lhs = I.operand(op, 0), rhs = I.operand(op, 1);
  if (!(lhs->dtype == rd)) lhs = convertTensor(*lhs, rd);
  if (!(rhs->dtype == rd)) rhs = convertTensor(*rhs, rd);
  const Tensor &gs = I.in(op, 2);
  auto valid = [](const std::vector<int64_t> &dims, const Tensor &t) {
    for (int64_t d : dims)
      if (d < 0 || d >= t.rank() || std::count(dims.begin(), dims.end(), d) > 1) return false;
    return true;
  };
  if (lr.size() != 1 || rg.size() > 1 || !valid(lb, *lhs) || !valid(lc, *lhs) || !valid(lr, *lhs) ||
      !valid(rb, *rhs) || !valid(rc, *rhs) || !valid(rg, *rhs) || lb.size() != rb.size() || lc.size() != rc.size() ||
      gs.rank() < 1 || !gs.dtype.isInt())
    I.fail(op, "ragged_dot dimension numbers do not fit the operands");
  for (size_t i = 0; i < lb.size(); ++i)
    if (lhs->shape[size_t(lb[i])] != rhs->shape[size_t(rb[i])]) I.fail(op, "ragged_dot batch dimension sizes differ");
  for (size_t i = 0; i < lc.size(); ++i)
    if (lhs->shape[size_t(lc[i])] != rhs->shape[size_t(rc[i])]) I.fail(op, "ragged_dot contracting dimension sizes differ");
  int64_t ragged = lr[0];
  std::vector<int64_t> lfree, rfree;
  for (int64_t d = 0; d < lhs->rank(); ++d)
    if (!contains(lb, d) && !contains(lc, d)) lfree.push_back(d);
  for (int64_t d = 0; d < rhs->rank(); ++d)
    if (!contains(rb, d) && !contains(rc, d) && !contains(rg, d)) rfree.push_back(d);
  int mode = contains(lfree, ragged) ? 1 : contains(lc, ragged) ? 2 : 3;
  if ((mode == 1) != (rg.size() == 1))
    I.fail(op, "ragged_dot needs an rhs group dimension exactly when the ragged dimension is non-contracting");
  int64_t g = gs.shape.back();
  if (mode == 1 && rhs->shape[size_t(rg[0])] != g) I.fail(op, "ragged_dot rhs group dimension differs from the number of groups");

  // Which lhs dimensions index group_sizes before its last one: the batch
  // dimensions, then those of the ragged dimension's kind before it.
  std::vector<int64_t> prefix;
  if (gs.rank() > 1) {
    prefix = mode == 3 ? std::vector<int64_t>{} : lb;
    const std::vector<int64_t> &kind = mode == 1 ? lfree : mode == 2 ? lc : lb;
    for (int64_t d : kind)
      if (d < ragged && !contains(prefix, d)) prefix.push_back(d);
    std::vector<int64_t> want;
    for (int64_t d : prefix) want.push_back(lhs->shape[size_t(d)]);
    want.push_back(g);
    if (want != gs.shape) I.fail(op, "ragged_dot group_sizes shape does not fit the lhs");
  }
  std::vector<int64_t> sizes = tensorInts(gs);
  for (int64_t s : sizes)
    if (s < 0) I.fail(op, "ragged_dot group sizes must not be negative");
  // Group of ragged coordinate x for group_sizes row `row`; g when past the end.
  auto groupOf = [&](int64_t row, int64_t x) {
    int64_t end = 0;
    for (int64_t j = 0; j < g; ++j)
      if (x < (end += sizes[size_t(row * g + j)])) return j;
    return g;
  };
  std::vector<int64_t> lstr = stridesOf(lhs->shape);
  // group_sizes row of an lhs offset: its coordinates along `prefix`.
  auto rowOf = [&](int64_t lhsOffset) {
    int64_t row = 0;
    for (int64_t d : prefix) row = row * lhs->shape[size_t(d)] + (lhsOffset / lstr[size_t(d)]) % lhs->shape[size_t(d)];
    return row;
  };

  std::vector<int64_t> lBatch = offsets(lhs->shape, lb), rBatch = offsets(rhs->shape, rb);
  std::vector<int64_t> lFree = offsets(lhs->shape, lfree), rFree = offsets(rhs->shape, rfree);
  std::vector<int64_t> lK = offsets(lhs->shape, lc), rK = offsets(rhs->shape, rc);
  std::vector<int64_t> kRagged = mode == 2 ? coordinates(lhs->shape, lc, ragged) : std::vector<int64_t>{};
  std::vector<int64_t> mRagged = mode == 1 ? coordinates(lhs->shape, lfree, ragged) : std::vector<int64_t>{};
  int64_t groupStride = mode == 1 ? stridesOf(rhs->shape)[size_t(rg[0])] : 0;
  int64_t B = product(lhs->shape, lb), M = int64_t(lFree.size()), N = int64_t(rFree.size()), K = int64_t(lK.size());
  int64_t slices = mode == 2 ? g : 1;
  TensorPtr r = I.newResult(op);
  if (r->numElements() != slices * B * M * N) I.fail(op, "ragged_dot result shape does not match its operands");
  visitStorage(rd.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t>) {
      if (rd.isBool()) throw std::runtime_error("ragged_dot of booleans is not supported");
    }
    const T *a = lhs->data<T>(), *b = rhs->data<T>();
    T *o = r->data<T>();
    for (int64_t s = 0; s < slices; ++s)
      for (int64_t bi = 0; bi < B; ++bi)
        for (int64_t mi = 0; mi < M; ++mi) {
          int64_t la = lBatch[size_t(bi)] + lFree[size_t(mi)];
          int64_t row = rowOf(la);
          int64_t rbase = rBatch[size_t(bi)];
          if (mode == 1) {
            int64_t j = groupOf(row, mRagged[size_t(mi)]);
            if (j == g) continue;  // past the last group: stays 0
            rbase += j * groupStride;
          }
          // Mode 2: the contracting range of group s.
          int64_t kLo = 0, kHi = 0;
          if (mode == 2) {
            for (int64_t j = 0; j < s; ++j) kLo += sizes[size_t(row * g + j)];
            kHi = kLo + sizes[size_t(row * g + s)];
          }
          T *out = o + ((s * B + bi) * M + mi) * N;
          for (int64_t ni = 0; ni < N; ++ni) {
            Acc<T> acc{};
            int64_t rbn = rbase + rFree[size_t(ni)];
            for (int64_t k = 0; k < K; ++k) {
              if (mode == 2 && (kRagged[size_t(k)] < kLo || kRagged[size_t(k)] >= kHi)) continue;
              acc += Acc<T>(a[la + lK[size_t(k)]]) * Acc<T>(b[rbn + rK[size_t(k)]]);
            }
            out[ni] = T(acc);
          }
        }
  });
  normalize(*r);
  I.setResult(op, 0, r);
}

KernelRegistration regs[] = {{{"chlo.ragged_dot"}, raggedDotOp}};

}  // namespace
}  // namespace autopart::exec
