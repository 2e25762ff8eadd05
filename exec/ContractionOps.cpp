// stablehlo.dot_general and stablehlo.dot: operands are converted to the
// result's element type, permuted to [batch, free, contract] / [batch,
// contract, free], and multiplied batch by batch with gemm (Gemm.h); the
// result's [batch, lhs free, rhs free] order is StableHLO's.
//
//   dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1]
//     : (2x3x4, 2x4x5) -> 2x3x5   = 2 GEMMs of 3x4 * 4x5
#include <algorithm>

#include "exec/Gemm.h"
#include "exec/Interpreter.h"
#include "exec/Strided.h"
#include "ir/StablehloAttrs.h"

namespace autopart::exec {

TensorPtr permuteDims(const TensorPtr &t, const std::vector<int64_t> &order) {
  bool identity = true;
  for (size_t i = 0; i < order.size(); ++i) identity &= order[i] == int64_t(i);
  if (identity) return t;
  std::vector<int64_t> shape, ss, xs = stridesOf(t->shape);
  for (int64_t d : order) {
    shape.push_back(t->shape[d]);
    ss.push_back(xs[d]);
  }
  TensorPtr r = makeUninitialized(t->dtype, shape);
  stridedCopy(r->bytes.data(), shape, t->bytes.data(), 0, ss, storageSize(t->dtype.storage));
  return r;
}

namespace {

TensorPtr asType(const TensorPtr &t, const DType &d) {
  return t->dtype == d ? t : convertTensor(*t, d);
}

int64_t product(const Tensor &t, const std::vector<int64_t> &dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= t.shape[d];
  return p;
}

void dotGeneralOp(Interpreter &I, OpId op) {
  std::optional<DotDims> dd = getDotDims(I.m, op);
  if (!dd) I.fail(op, "cannot read the dot dimension numbers");
  DType rd = I.resultDType(op);
  TensorPtr lhs = asType(I.operand(op, 0), rd), rhs = asType(I.operand(op, 1), rd);
  if (I.m.isa(op, "stablehlo.dot")) {
    dd = DotDims{{}, {}, {lhs->rank() - 1}, {0}};
  }
  auto inRange = [](const std::vector<int64_t> &dims, const Tensor &t) {
    for (int64_t d : dims)
      if (d < 0 || d >= t.rank() || std::count(dims.begin(), dims.end(), d) > 1) return false;
    return true;
  };
  if (!inRange(dd->lhsBatch, *lhs) || !inRange(dd->lhsContract, *lhs) || !inRange(dd->rhsBatch, *rhs) ||
      !inRange(dd->rhsContract, *rhs) || dd->lhsBatch.size() != dd->rhsBatch.size() ||
      dd->lhsContract.size() != dd->rhsContract.size())
    I.fail(op, "dot dimension numbers do not fit the operands");
  for (size_t i = 0; i < dd->lhsBatch.size(); ++i)
    if (lhs->shape[dd->lhsBatch[i]] != rhs->shape[dd->rhsBatch[i]]) I.fail(op, "batch dimension sizes differ");
  for (size_t i = 0; i < dd->lhsContract.size(); ++i)
    if (lhs->shape[dd->lhsContract[i]] != rhs->shape[dd->rhsContract[i]]) I.fail(op, "contracting dimension sizes differ");
  std::vector<int64_t> lfree, rfree;
  for (int64_t d = 0; d < lhs->rank(); ++d)
    if (!std::count(dd->lhsBatch.begin(), dd->lhsBatch.end(), d) && !std::count(dd->lhsContract.begin(), dd->lhsContract.end(), d))
      lfree.push_back(d);
  for (int64_t d = 0; d < rhs->rank(); ++d)
    if (!std::count(dd->rhsBatch.begin(), dd->rhsBatch.end(), d) && !std::count(dd->rhsContract.begin(), dd->rhsContract.end(), d))
      rfree.push_back(d);
  int64_t B = product(*lhs, dd->lhsBatch), M = product(*lhs, lfree), K = product(*lhs, dd->lhsContract),
          N = product(*rhs, rfree);
  std::vector<int64_t> lorder = dd->lhsBatch, rorder = dd->rhsBatch;
  lorder.insert(lorder.end(), lfree.begin(), lfree.end());
  lorder.insert(lorder.end(), dd->lhsContract.begin(), dd->lhsContract.end());
  rorder.insert(rorder.end(), dd->rhsContract.begin(), dd->rhsContract.end());
  rorder.insert(rorder.end(), rfree.begin(), rfree.end());
  TensorPtr a = permuteDims(lhs, lorder), b = permuteDims(rhs, rorder);
  TensorPtr r = I.newUninitializedResult(op);
  if (r->numElements() != B * M * N) I.fail(op, "result shape does not match the dot dimensions");
  visitStorage(rd.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < B; ++i)
      gemm<T>(M, N, K, a->data<T>() + i * M * K, K, b->data<T>() + i * K * N, N, r->data<T>() + i * M * N, N);
  });
  normalize(*r);
  I.setResult(op, 0, r);
}

KernelRegistration regs[] = {{{"stablehlo.dot_general", "stablehlo.dot"}, dotGeneralOp}};

}  // namespace
}  // namespace autopart::exec
