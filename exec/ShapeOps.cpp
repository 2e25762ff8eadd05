// Data movement: constant, iota, broadcast_in_dim, reshape, transpose, slice,
// pad, concatenate, reverse, dynamic_slice, dynamic_update_slice, tuples.
// All of them are strided copies (Strided.h) of whole elements.
//
//   %r = stablehlo.slice %x [1:3, 0:4:2] : (tensor<4x4xf32>) -> tensor<2x2xf32>
//     -> offset 1*4, source strides {4, 2}
#include <algorithm>

#include "exec/DenseLiteral.h"
#include "exec/DenseResource.h"
#include "exec/Interpreter.h"
#include "exec/Strided.h"

namespace autopart::exec {
namespace {

size_t widthOf(const Tensor &t) { return storageSize(t.dtype.storage); }

void constantOp(Interpreter &I, OpId op) {
  AttrId a = I.m.attr(op, "value");
  if (a == kNoAttr || I.m.attrs.kind(a) != AttrKind::DenseElements) I.fail(op, "constant without a dense value");
  const AttrStorage &s = I.m.attrs.get(a);
  if (s.prefix == "dense_resource") {
    TensorPtr t = I.newUninitializedResult(op);
    I.setResult(op, 0, decodeResource(I.m, s.body, t->dtype, t->shape));
    return;
  }
  if (s.prefix != "dense") I.fail(op, "unsupported constant kind '" + std::string(s.prefix) + "'");
  TensorPtr r = I.newResult(op);
  I.setResult(op, 0, decodeDense(s.body, r->dtype, r->shape));
}

void iotaOp(Interpreter &I, OpId op) {
  TensorPtr r = I.newResult(op);
  int64_t dim = I.intAttr(op, "iota_dimension", -1);
  if (dim < 0 || dim >= int64_t(r->shape.size())) I.fail(op, "iota without a valid iota_dimension");
  std::vector<int64_t> st = stridesOf(r->shape);
  int64_t n = r->numElements();
  visitStorage(r->dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *o = r->data<T>();
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = (i / st[dim]) % r->shape[dim];
      if constexpr (kIsComplex<T>) o[i] = T(typename T::value_type(v));
      else o[i] = T(v);
    }
  });
  normalize(*r);
  I.setResult(op, 0, r);
}

void broadcastInDimOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newUninitializedResult(op);
  std::vector<int64_t> dims = I.ints(op, "broadcast_dimensions");
  std::vector<int64_t> xs = stridesOf(x.shape), ss(r->rank(), 0);
  for (size_t i = 0; i < dims.size(); ++i)
    if (x.shape[i] != 1) ss[dims[i]] = xs[i];
  stridedCopy(r->bytes.data(), r->shape, x.bytes.data(), 0, ss, widthOf(x));
  I.setResult(op, 0, r);
}

void reshapeOp(Interpreter &I, OpId op) {
  TensorPtr r = std::make_shared<Tensor>(I.in(op, 0));
  r->shape = I.m.types.shape(I.resultType(op));
  if (r->numElements() != I.in(op, 0).numElements()) I.fail(op, "reshape changes the element count");
  I.setResult(op, 0, r);
}

void transposeOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newUninitializedResult(op);
  std::vector<int64_t> perm = I.ints(op, "permutation"), xs = stridesOf(x.shape), ss, want;
  for (int64_t p : perm) {
    if (p < 0 || p >= x.rank() || std::count(perm.begin(), perm.end(), p) > 1) I.fail(op, "permutation is not a permutation of the operand's dimensions");
    ss.push_back(xs[p]);
    want.push_back(x.shape[size_t(p)]);
  }
  if (want != r->shape) I.fail(op, "transpose result shape does not match the permuted operand");
  stridedCopy(r->bytes.data(), r->shape, x.bytes.data(), 0, ss, widthOf(x));
  I.setResult(op, 0, r);
}

void sliceOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newUninitializedResult(op);
  std::vector<int64_t> start = I.ints(op, "start_indices"), steps = I.ints(op, "strides");
  std::vector<int64_t> xs = stridesOf(x.shape), ss(x.rank());
  int64_t off = 0;
  for (int64_t d = 0; d < x.rank(); ++d) {
    off += start[d] * xs[d];
    ss[d] = xs[d] * (steps.empty() ? 1 : steps[d]);
  }
  stridedCopy(r->bytes.data(), r->shape, x.bytes.data(), off, ss, widthOf(x));
  I.setResult(op, 0, r);
}

void reverseOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newUninitializedResult(op);
  std::vector<int64_t> xs = stridesOf(x.shape), ss = xs;
  int64_t off = 0;
  if (r->shape != x.shape) I.fail(op, "reverse result shape differs from the operand's");
  for (int64_t d : I.ints(op, "dimensions")) {
    if (d < 0 || d >= x.rank()) I.fail(op, "reverse dimension " + std::to_string(d) + " is not a dimension of the operand");
    off += (x.shape[d] - 1) * xs[d];
    ss[d] = -xs[d];
  }
  stridedCopy(r->bytes.data(), r->shape, x.bytes.data(), off, ss, widthOf(x));
  I.setResult(op, 0, r);
}

void padOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0), &pv = I.in(op, 1);
  TensorPtr r = I.newResult(op);
  size_t w = widthOf(x);
  int64_t n = r->numElements();
  for (int64_t i = 0; i < n; ++i) std::memcpy(r->bytes.data() + i * w, pv.bytes.data(), w);
  bool dynamic = I.m.numOperands(op) == 5;  // dynamic_pad: the paddings are operands
  std::vector<int64_t> lo = dynamic ? tensorInts(I.in(op, 2)) : I.ints(op, "edge_padding_low"),
                       in = dynamic ? tensorInts(I.in(op, 4)) : I.ints(op, "interior_padding");
  // Each source element lands at lo + i * (interior + 1); negative low
  // padding drops the leading elements, so the copy is clipped per dim.
  std::vector<int64_t> xs = stridesOf(x.shape), rs = stridesOf(r->shape);
  std::vector<int64_t> shape(x.rank()), ds(x.rank()), ss(x.rank());
  int64_t srcOff = 0, dstOff = 0;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t step = in.empty() ? 1 : in[d] + 1;
    int64_t first = 0;
    if (lo[d] < 0) first = (-lo[d] + step - 1) / step;
    int64_t last = x.shape[d];  // exclusive
    while (last > first && lo[d] + (last - 1) * step >= r->shape[d]) --last;
    shape[d] = std::max<int64_t>(0, last - first);
    srcOff += first * xs[d];
    dstOff += (lo[d] + first * step) * rs[d];
    ds[d] = rs[d] * step;
    ss[d] = xs[d];
  }
  stridedCopy(r->bytes.data() + dstOff * int64_t(w), shape, ds, x.bytes.data(), srcOff, ss, w);
  I.setResult(op, 0, r);
}

void concatenateOp(Interpreter &I, OpId op) {
  TensorPtr r = I.newResult(op);
  int64_t dim = I.intAttr(op, "dimension");
  std::vector<int64_t> rs = stridesOf(r->shape);
  int64_t at = 0;
  for (uint32_t k = 0; k < I.m.numOperands(op); ++k) {
    const Tensor &x = I.in(op, k);
    stridedCopy(r->bytes.data() + at * rs[dim] * int64_t(widthOf(x)), x.shape, rs, x.bytes.data(), 0,
                stridesOf(x.shape), widthOf(x));
    at += x.shape[dim];
  }
  I.setResult(op, 0, r);
}

std::vector<int64_t> clampedStarts(Interpreter &I, OpId op, uint32_t firstIndex, const std::vector<int64_t> &shape,
                                   const std::vector<int64_t> &sizes) {
  std::vector<int64_t> s;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t v = getInt(I.in(op, firstIndex + uint32_t(d)), 0);
    s.push_back(std::clamp<int64_t>(v, 0, shape[d] - sizes[d]));
  }
  return s;
}

void dynamicSliceOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newResult(op);
  std::vector<int64_t> starts = clampedStarts(I, op, 1, x.shape, r->shape), xs = stridesOf(x.shape);
  int64_t off = 0;
  for (int64_t d = 0; d < x.rank(); ++d) off += starts[d] * xs[d];
  stridedCopy(r->bytes.data(), r->shape, x.bytes.data(), off, xs, widthOf(x));
  I.setResult(op, 0, r);
}

void dynamicUpdateSliceOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0), &u = I.in(op, 1);
  TensorPtr r = std::make_shared<Tensor>(x);
  std::vector<int64_t> starts = clampedStarts(I, op, 2, x.shape, u.shape), xs = stridesOf(x.shape);
  int64_t off = 0;
  for (int64_t d = 0; d < x.rank(); ++d) off += starts[d] * xs[d];
  stridedCopy(r->bytes.data() + off * int64_t(widthOf(x)), u.shape, xs, u.bytes.data(), 0, stridesOf(u.shape),
              widthOf(x));
  I.setResult(op, 0, r);
}

void tupleOp(Interpreter &I, OpId op) {
  auto t = std::make_shared<Tensor>();
  t->isTuple = true;
  for (uint32_t i = 0; i < I.m.numOperands(op); ++i) t->tuple.push_back(I.operand(op, i));
  I.setResult(op, 0, t);
}

void getTupleElementOp(Interpreter &I, OpId op) {
  TensorPtr t = I.operand(op, 0);
  int64_t i = I.intAttr(op, "index");
  if (!t->isTuple || i < 0 || size_t(i) >= t->tuple.size()) I.fail(op, "get_tuple_element of a non-tuple");
  I.setResult(op, 0, t->tuple[size_t(i)]);
}

void passThroughOp(Interpreter &I, OpId op) {
  for (uint32_t i = 0; i < I.m.numResults(op); ++i) I.setResult(op, i, I.operand(op, i));
}

void getDimensionSizeOp(Interpreter &I, OpId op) {
  TensorPtr r = I.newResult(op);
  int64_t v = I.in(op, 0).shape[size_t(I.intAttr(op, "dimension"))];
  visitStorage(r->dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsComplex<T>) r->data<T>()[0] = T(v);
  });
  I.setResult(op, 0, r);
}

void afterAllOp(Interpreter &I, OpId op) { I.setResult(op, 0, makeToken()); }

KernelRegistration regs[] = {
    {{"stablehlo.constant", "arith.constant"}, constantOp},
    {{"stablehlo.iota", "stablehlo.dynamic_iota"}, iotaOp},
    {{"stablehlo.broadcast_in_dim", "stablehlo.dynamic_broadcast_in_dim"}, broadcastInDimOp},
    {{"stablehlo.reshape", "stablehlo.dynamic_reshape"}, reshapeOp},
    {{"stablehlo.transpose"}, transposeOp},
    {{"stablehlo.slice"}, sliceOp},
    {{"stablehlo.reverse"}, reverseOp},
    {{"stablehlo.pad", "stablehlo.dynamic_pad"}, padOp},
    {{"stablehlo.concatenate"}, concatenateOp},
    {{"stablehlo.dynamic_slice"}, dynamicSliceOp},
    {{"stablehlo.dynamic_update_slice"}, dynamicUpdateSliceOp},
    {{"stablehlo.tuple"}, tupleOp},
    {{"stablehlo.get_tuple_element"}, getTupleElementOp},
    {{"stablehlo.optimization_barrier"}, passThroughOp},
    {{"stablehlo.get_dimension_size"}, getDimensionSizeOp},
    {{"stablehlo.after_all", "stablehlo.create_token"}, afterAllOp},
};

}  // namespace
}  // namespace autopart::exec
