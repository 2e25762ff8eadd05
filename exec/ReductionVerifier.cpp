// Op checks (OpVerifier.h) of the reducing and sorting ops: reduce,
// reduce_window, select_and_scatter, sort (ReduceOps.cpp, SortOps.cpp) and
// chlo.top_k (ChloOps.cpp). The kernels walk the operands with the
// dimensions and window attributes, copy scalars in and out of the region
// by the element size, and size results by the declared types, so the
// region's signature, the dimensions and the window geometry are checked
// against the spec (reduce C1-C8, reduce_window C1-C16, select_and_scatter
// C1-C12, sort C1-C5):
//
//   %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [2]
//        : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
//   -> error: stablehlo.reduce: dimensions [2]: 2 is not in [0, 2)
#include <algorithm>

#include "exec/OpVerifier.h"

namespace autopart::exec {
namespace {

// N inputs and N scalar init values of the inputs' element types, one shape
// for all inputs, N results; the body reduces (E..., E...) -> (E...). The
// spec lets the body promote E to a wider type; the kernels do not.
uint32_t checkInputsAndInits(const OpCheck &c, std::vector<std::string_view> &elems) {
  uint32_t n = c.numOperands();
  if (n < 2 || n % 2) c.fail("takes N inputs and N init values, not " + std::to_string(n) + " operands");
  uint32_t k = n / 2;
  c.counts(OpCheck::kAny, k, 1);
  const Tensor &x = c.in(0);
  for (uint32_t j = 0; j < k; ++j) {
    const Tensor &xj = c.in(j), &init = c.in(k + j);
    c.isTensor(xj, "input #" + std::to_string(j));
    c.isTensor(init, "init value #" + std::to_string(j), 0);
    c.sameShape(x, xj, "inputs #0 and #" + std::to_string(j) + " differ in shape");
    c.sameElement(xj, init, "input and init value #" + std::to_string(j) + " differ in element type");
    elems.push_back(xj.dtype.name);
    TypeId rt = c.m.type(c.m.result(c.op, j));
    if (c.m.types.isTensor(rt) && c.m.types.str(c.m.types.elementType(rt)) != xj.dtype.name)
      c.fail("result #" + std::to_string(j) + " is " + c.typeStr(rt) + ": a body that promotes " + xj.dtype.name +
             " to a wider type is not supported");
  }
  std::vector<std::string_view> args = elems;
  args.insert(args.end(), elems.begin(), elems.end());
  c.scalarRegion(0, args, elems);
  return k;
}

void checkReduce(const OpCheck &c) {
  std::vector<std::string_view> elems;
  uint32_t k = checkInputsAndInits(c, elems);
  const Tensor &x = c.in(0);
  std::vector<int64_t> dims = c.ints("dimensions");
  c.dimsInRange(dims, x.rank(), "dimensions");
  std::vector<int64_t> want;
  for (int64_t d = 0; d < x.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) want.push_back(x.shape[size_t(d)]);
  for (uint32_t j = 0; j < k; ++j) c.resultShapeIs(j, want);
}

// Window attributes of reduce_window / select_and_scatter: one entry per
// dimension (absent: 1, or 0 padding), positive sizes, strides, dilations.
struct Window {
  std::vector<int64_t> dims, strides, baseDil, winDil, pads;
};

Window readWindow(const OpCheck &c, size_t rank, bool dilations) {
  Window w;
  auto attr = [&](const char *name, int64_t dflt) {
    std::vector<int64_t> v = c.ints(name);
    if (v.empty()) return std::vector<int64_t>(rank, dflt);
    c.sizeIs(v, rank, name);
    c.allPositive(v, name);
    return v;
  };
  w.dims = c.ints("window_dimensions");
  c.sizeIs(w.dims, rank, "window_dimensions");
  c.allPositive(w.dims, "window_dimensions");
  w.strides = attr("window_strides", 1);
  w.baseDil = dilations ? attr("base_dilations", 1) : std::vector<int64_t>(rank, 1);
  w.winDil = dilations ? attr("window_dilations", 1) : std::vector<int64_t>(rank, 1);
  if (!dilations && (c.has("base_dilations") || c.has("window_dilations")))
    c.fail("has no base_dilations or window_dilations");
  w.pads = c.ints("padding");
  if (w.pads.empty()) w.pads.assign(2 * rank, 0);
  if (w.pads.size() != 2 * rank)
    c.fail("padding " + dimsString(w.pads) + " must have " + std::to_string(rank) + " [low, high] pairs");
  return w;
}

std::vector<int64_t> windowCounts(const Window &w, const Tensor &x) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < x.shape.size(); ++d)
    out.push_back(numWindows(x.shape[d], w.baseDil[d], w.pads[2 * d], w.pads[2 * d + 1], w.dims[d], w.winDil[d],
                             w.strides[d]));
  return out;
}

void checkReduceWindow(const OpCheck &c) {
  std::vector<std::string_view> elems;
  uint32_t k = checkInputsAndInits(c, elems);
  const Tensor &x = c.in(0);
  Window w = readWindow(c, size_t(x.rank()), true);
  std::vector<int64_t> want = windowCounts(w, x);
  for (uint32_t j = 0; j < k; ++j) c.resultShapeIs(j, want);
}

void checkSelectAndScatter(const OpCheck &c) {
  c.counts(3, 1, 2);
  const Tensor &x = c.in(0), &src = c.in(1), &init = c.in(2);
  c.isTensor(x, "the operand");
  c.isTensor(src, "source");
  c.isTensor(init, "init_value", 0);
  c.sameElement(x, src, "the operand and source differ in element type");
  c.sameElement(x, init, "the operand and init_value differ in element type");
  Window w = readWindow(c, size_t(x.rank()), false);
  std::vector<int64_t> windows = windowCounts(w, x);
  if (src.shape != windows)
    c.fail("source is " + src.typeString() + ", its shape must be the window counts " + dimsString(windows));
  c.scalarRegion(0, {x.dtype.name, x.dtype.name}, {"i1"});
  c.scalarRegion(1, {x.dtype.name, x.dtype.name}, {x.dtype.name});
  c.resultIsLike(0, x);
}

void checkSort(const OpCheck &c) {
  c.counts(OpCheck::kAny, c.numOperands(), 1);
  c.atLeastOperands(1);
  const Tensor &x = c.in(0);
  std::vector<std::string_view> args;
  for (uint32_t j = 0; j < c.numOperands(); ++j) {
    c.isTensor(c.in(j), "input #" + std::to_string(j));
    c.sameShape(x, c.in(j), "inputs #0 and #" + std::to_string(j) + " differ in shape");
    c.resultIsLike(j, c.in(j));
    args.push_back(c.in(j).dtype.name);
    args.push_back(c.in(j).dtype.name);
  }
  int64_t dim = c.I.intAttr(c.op, "dimension", 0), r = x.rank();
  if (r ? dim < -r || dim >= r : dim != 0 && dim != -1)
    c.fail("dimension " + std::to_string(dim) + " is not in [" + std::to_string(-r) + ", " + std::to_string(r) + ")");
  c.scalarRegion(0, args, {"i1"});
}

// chlo.top_k: the k largest along the last dimension, as values and
// integer indices of shape [..., k], with 0 <= k <= the last dimension.
void checkTopK(const OpCheck &c) {
  c.counts(1, 2);
  const Tensor &x = c.in(0);
  c.isTensor(x, "the operand");
  if (x.rank() < 1) c.fail("the operand " + x.typeString() + " must have rank 1 or more");
  if (!c.has("k")) c.fail("has no k");
  int64_t k = c.I.intAttr(c.op, "k");
  if (k < 0 || k > x.shape.back())
    c.fail("k = " + std::to_string(k) + " is not in [0, " + std::to_string(x.shape.back()) + "]");
  std::vector<int64_t> want = x.shape;
  want.back() = k;
  c.resultShapeIs(0, want);
  c.resultElementIs(0, x);
  c.resultShapeIs(1, want);
  TypeId it = c.m.type(c.m.result(c.op, 1));
  if (!c.m.types.isTensor(it) || !dtypeOf(c.m.types, c.m.types.elementType(it)).isInt())
    c.fail("result #1 is " + c.typeStr(it) + ", it must hold integer indices");
}

OpCheckRegistration regs[] = {
    {{"chlo.top_k"}, checkTopK},
    {{"stablehlo.reduce"}, checkReduce},
    {{"stablehlo.reduce_window"}, checkReduceWindow},
    {{"stablehlo.select_and_scatter"}, checkSelectAndScatter},
    {{"stablehlo.sort"}, checkSort},
};

}  // namespace
}  // namespace autopart::exec
