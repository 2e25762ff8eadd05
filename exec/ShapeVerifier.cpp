// Op checks (OpVerifier.h) of the data-movement family: broadcast_in_dim,
// reshape, transpose, slice, reverse, pad, concatenate, iota,
// dynamic_slice, dynamic_update_slice, get_dimension_size and their dynamic_
// forms. Their kernels are strided copies (Strided.h) whose source offsets
// come from the attributes and whose extent is the declared result shape,
// so each check recomputes the result shape the spec defines and bounds
// every index attribute by the operand:
//
//   %r = stablehlo.slice %x [1:5] : (tensor<4xf32>) -> tensor<4xf32>
//   -> error: stablehlo.slice: limit 5 of dimension 0 is not in [1, 4]
#include <cstdint>

#include "exec/OpVerifier.h"

namespace autopart::exec {
namespace {

// broadcast_in_dim (C1-C5): each operand dimension maps to a distinct result
// dimension of the same size, or has size 1.
void checkBroadcastInDim(const OpCheck &c) {
  c.counts(c.name == "stablehlo.broadcast_in_dim" ? 1 : OpCheck::kAny, 1);
  c.atLeastOperands(1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  c.resultElementIs(0, x);
  std::vector<int64_t> dims = c.ints("broadcast_dimensions");
  c.sizeIs(dims, size_t(x.rank()), "broadcast_dimensions");
  const std::vector<int64_t> *rs = c.resultShape();
  if (!rs) return;
  c.dimsInRange(dims, int64_t(rs->size()), "broadcast_dimensions");
  for (size_t i = 0; i < dims.size(); ++i)
    if (x.shape[i] != 1 && x.shape[i] != (*rs)[size_t(dims[i])])
      c.fail("operand dimension " + std::to_string(i) + " of size " + std::to_string(x.shape[i]) +
             " cannot broadcast to result dimension " + std::to_string(dims[i]) + " of size " +
             std::to_string((*rs)[size_t(dims[i])]));
}

// reshape (C1-C2): same element type and element count.
void checkReshape(const OpCheck &c) {
  c.counts(c.name == "stablehlo.reshape" ? 1 : 2, 1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  c.resultElementIs(0, x);
  if (const std::vector<int64_t> *rs = c.resultShape()) {
    int64_t n = 1;
    for (int64_t d : *rs) n *= d;
    if (n != x.numElements())
      c.fail("result #0 is " + c.typeStr(c.m.type(c.m.result(c.op, 0))) + ", it must have the operand's " +
             std::to_string(x.numElements()) + " elements");
  }
}

// transpose (C1-C4): a permutation of the operand's dimensions.
void checkTranspose(const OpCheck &c) {
  c.counts(1, 1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  std::vector<int64_t> perm = c.ints("permutation");
  c.sizeIs(perm, size_t(x.rank()), "permutation");
  c.dimsInRange(perm, x.rank(), "permutation");
  std::vector<int64_t> want;
  for (int64_t p : perm) want.push_back(x.shape[size_t(p)]);
  c.resultShapeIs(0, want);
  c.resultElementIs(0, x);
}

// slice (C1-C5): 0 <= start <= limit <= dim, strides > 0, and the result
// dimension is ceil((limit - start) / stride).
void checkSlice(const OpCheck &c) {
  c.counts(1, 1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  std::vector<int64_t> start = c.ints("start_indices"), limit = c.ints("limit_indices"), strides = c.ints("strides");
  size_t r = size_t(x.rank());
  c.sizeIs(start, r, "start_indices");
  c.sizeIs(limit, r, "limit_indices");
  if (!strides.empty()) c.sizeIs(strides, r, "strides");
  std::vector<int64_t> want;
  for (size_t d = 0; d < r; ++d) {
    int64_t step = strides.empty() ? 1 : strides[d], lim = limit[d];
    if (step <= 0) c.fail("stride " + std::to_string(step) + " of dimension " + std::to_string(d) + " is not positive");
    if (start[d] < 0 || start[d] > x.shape[d])
      c.fail("start " + std::to_string(start[d]) + " of dimension " + std::to_string(d) + " is not in [0, " +
             std::to_string(x.shape[d]) + "]");
    if (lim < start[d] || lim > x.shape[d])
      c.fail("limit " + std::to_string(lim) + " of dimension " + std::to_string(d) + " is not in [" +
             std::to_string(start[d]) + ", " + std::to_string(x.shape[d]) + "]");
    want.push_back((lim - start[d] + step - 1) / step);
  }
  c.resultShapeIs(0, want);
  c.resultElementIs(0, x);
}

// reverse (C1-C3): distinct dimensions of the operand.
void checkReverse(const OpCheck &c) {
  c.counts(1, 1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  c.dimsInRange(c.ints("dimensions"), x.rank(), "dimensions");
  c.resultIsLike(0, x);
}

// pad (C1-C4); dynamic_pad takes the paddings as operands.
void checkPad(const OpCheck &c) {
  bool dynamic = c.name == "stablehlo.dynamic_pad";
  c.counts(dynamic ? 5 : 2, 1);
  const Tensor &x = c.in(0), &pv = c.in(1);
  c.isTensor(x, "the operand");
  c.isTensor(pv, "padding_value", 0);
  c.sameElement(x, pv, "the operand and padding_value differ in element type");
  auto paddings = [&](uint32_t operand, const char *attr) {
    if (!dynamic) return c.ints(attr);
    c.isTensor(c.in(operand), attr, 1);
    if (!c.in(operand).dtype.isInt()) c.fail(std::string(attr) + " must hold integers");
    return tensorInts(c.in(operand));
  };
  std::vector<int64_t> lo = paddings(2, "edge_padding_low"), hi = paddings(3, "edge_padding_high"),
                       in = paddings(4, "interior_padding");
  size_t r = size_t(x.rank());
  c.sizeIs(lo, r, "edge_padding_low");
  c.sizeIs(hi, r, "edge_padding_high");
  c.sizeIs(in, r, "interior_padding");
  std::vector<int64_t> want;
  for (size_t d = 0; d < r; ++d) {
    if (in[d] < 0) c.fail("interior_padding " + dimsString(in) + " must not be negative");
    // In 128 bits: the paddings are arbitrary int64 attributes.
    __int128 n = __int128(lo[d]) + x.shape[d] + __int128(std::max<int64_t>(x.shape[d] - 1, 0)) * in[d] + hi[d];
    if (n < 0 || n > INT64_MAX)
      c.fail("padding makes dimension " + std::to_string(d) + " negative or larger than 64 bits hold");
    want.push_back(int64_t(n));
  }
  c.resultShapeIs(0, want);
  c.resultElementIs(0, x);
}

// concatenate (C1-C6): one element type, equal shapes but along
// `dimension`, whose sizes add up.
void checkConcatenate(const OpCheck &c) {
  c.counts(OpCheck::kAny, 1);
  c.atLeastOperands(1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "operand #0");
  int64_t dim = c.I.intAttr(c.op, "dimension", -1);
  if (dim < 0 || dim >= x.rank())
    c.fail("dimension " + std::to_string(dim) + " is not in [0, " + std::to_string(x.rank()) + ")");
  std::vector<int64_t> want = x.shape;
  for (uint32_t i = 1; i < c.numOperands(); ++i) {
    const Tensor &y = c.in(i);
    c.isTensor(y, "operand #" + std::to_string(i));
    c.sameElement(x, y, "operands #0 and #" + std::to_string(i) + " differ in element type");
    bool same = y.rank() == x.rank();
    for (int64_t d = 0; same && d < x.rank(); ++d) same = d == dim || y.shape[d] == x.shape[d];
    if (!same)
      c.fail("operands #0 and #" + std::to_string(i) + " differ in shape outside dimension " + std::to_string(dim) +
             ": " + x.typeString() + " and " + y.typeString());
    want[size_t(dim)] += y.shape[size_t(dim)];
  }
  c.resultShapeIs(0, want);
  c.resultElementIs(0, x);
}

// iota (C1): iota_dimension is a dimension of the result.
void checkIota(const OpCheck &c) {
  c.counts(c.name == "stablehlo.iota" ? 0 : 1, 1);
  TypeId rt = c.m.type(c.m.result(c.op, 0));
  if (!c.m.types.isTensor(rt)) c.fail("result #0 is " + c.typeStr(rt) + ", not a tensor");
  int64_t dim = c.I.intAttr(c.op, "iota_dimension", -1);
  if (dim < 0 || dim >= c.m.types.rank(rt))
    c.fail("iota_dimension " + std::to_string(dim) + " is not in [0, " + std::to_string(c.m.types.rank(rt)) + ")");
}

// Start index operands of dynamic_slice / dynamic_update_slice: one
// integer scalar per operand dimension, all of one type.
void checkStartIndices(const OpCheck &c, uint32_t first, const Tensor &x) {
  if (c.numOperands() != first + uint32_t(x.rank()))
    c.fail("takes " + std::to_string(x.rank()) + " start indices for a rank-" + std::to_string(x.rank()) +
           " operand, not " + std::to_string(c.numOperands() - first));
  for (uint32_t i = first; i < c.numOperands(); ++i) {
    const Tensor &s = c.in(i);
    c.isTensor(s, "start index operand #" + std::to_string(i), 0);
    if (!s.dtype.isInt()) c.fail("start index operand #" + std::to_string(i) + " is " + s.typeString() + ", not an integer");
    c.sameElement(c.in(first), s, "start indices differ in type");
  }
}

// dynamic_slice (C1-C5): result shape = slice_sizes <= operand shape.
void checkDynamicSlice(const OpCheck &c) {
  c.counts(OpCheck::kAny, 1);
  c.atLeastOperands(1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  checkStartIndices(c, 1, x);
  std::vector<int64_t> sizes = c.ints("slice_sizes");
  if (!sizes.empty()) c.sizeIs(sizes, size_t(x.rank()), "slice_sizes");
  else if (const std::vector<int64_t> *rs = c.resultShape()) sizes = *rs;
  c.sizeIs(sizes, size_t(x.rank()), "slice_sizes");
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] < 0 || sizes[d] > x.shape[d])
      c.fail("slice_sizes " + dimsString(sizes) + " do not fit in the operand " + x.typeString());
  c.resultShapeIs(0, sizes);
  c.resultElementIs(0, x);
}

// dynamic_update_slice (C1-C6): an update of the operand's rank and element
// type that fits inside it.
void checkDynamicUpdateSlice(const OpCheck &c) {
  c.counts(OpCheck::kAny, 1);
  c.atLeastOperands(2);
  const Tensor &x = c.in(0), &u = c.in(1);
  c.isTensor(x, "the operand");
  c.isTensor(u, "the update", x.rank());
  c.sameElement(x, u, "the operand and the update differ in element type");
  checkStartIndices(c, 2, x);
  for (int64_t d = 0; d < x.rank(); ++d)
    if (u.shape[d] > x.shape[d]) c.fail("the update " + u.typeString() + " does not fit in the operand " + x.typeString());
  c.resultIsLike(0, x);
}

// get_dimension_size (C1): a dimension of the operand; a scalar result.
void checkGetDimensionSize(const OpCheck &c) {
  c.counts(1, 1);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  int64_t dim = c.I.intAttr(c.op, "dimension", -1);
  if (dim < 0 || dim >= x.rank())
    c.fail("dimension " + std::to_string(dim) + " is not in [0, " + std::to_string(x.rank()) + ")");
  c.resultShapeIs(0, {});
}

OpCheckRegistration regs[] = {
    {{"stablehlo.broadcast_in_dim", "stablehlo.dynamic_broadcast_in_dim"}, checkBroadcastInDim},
    {{"stablehlo.reshape", "stablehlo.dynamic_reshape"}, checkReshape},
    {{"stablehlo.transpose"}, checkTranspose},
    {{"stablehlo.slice"}, checkSlice},
    {{"stablehlo.reverse"}, checkReverse},
    {{"stablehlo.pad"}, checkPad},
    {{"stablehlo.dynamic_pad"}, checkPad, /*readsValues=*/true},
    {{"stablehlo.concatenate"}, checkConcatenate},
    {{"stablehlo.iota", "stablehlo.dynamic_iota"}, checkIota},
    {{"stablehlo.dynamic_slice"}, checkDynamicSlice},
    {{"stablehlo.dynamic_update_slice"}, checkDynamicUpdateSlice},
    {{"stablehlo.get_dimension_size"}, checkGetDimensionSize},
};

}  // namespace
}  // namespace autopart::exec
