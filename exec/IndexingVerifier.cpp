// Op checks (OpVerifier.h) of gather, dynamic_gather and scatter. Their
// kernels (GatherScatterOps.cpp) turn a result (or update) index into an
// operand index through the dimension numbers, so every list must name
// dimensions that exist, the lists must split the operand's dimensions
// between them, the index vector must have one entry per mapped dimension,
// and the result (update) shape must be the one the spec derives (gather
// C1-C23, scatter C1-C25):
//
//   gather(x : 3x4, idx : 2x1) offset_dims = [1], collapsed_slice_dims = [0],
//     start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 5]
//   -> error: stablehlo.gather: slice_sizes [1, 5] do not fit in the operand tensor<3x4xf32>
#include <algorithm>
#include <array>

#include "exec/OpVerifier.h"

namespace autopart::exec {
namespace {

bool contains(const std::vector<int64_t> &v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool sorted(const std::vector<int64_t> &v) { return std::is_sorted(v.begin(), v.end()); }

// The parts gather and scatter share, named after gather's fields.
struct IndexDims {
  std::vector<int64_t> window;      // offset_dims / update_window_dims (result or update dims)
  std::vector<int64_t> collapsed;   // collapsed_slice_dims / inserted_window_dims (operand dims)
  std::vector<int64_t> opBatch;     // operand_batching_dims / input_batching_dims
  std::vector<int64_t> idxBatch;    // start_indices_batching_dims / scatter_indices_batching_dims
  std::vector<int64_t> startMap;    // start_index_map / scatter_dims_to_operand_dims
  int64_t indexVectorDim = 0;
  // The fields' names in this op's dimension numbers, for diagnostics.
  std::array<const char *, 5> names;
};

constexpr std::array<const char *, 5> kGatherNames = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                                      "start_indices_batching_dims", "start_index_map"};
constexpr std::array<const char *, 5> kScatterNames = {"update_window_dims", "inserted_window_dims",
                                                       "input_batching_dims", "scatter_indices_batching_dims",
                                                       "scatter_dims_to_operand_dims"};

// The constraints on the dimension numbers alone: gather C1-C19 (scatter
// C2, C7-C22), given the rank of the operand and the indices, and the rank
// of the tensor that `window` indexes (gather's result, scatter's updates).
void checkIndexDims(const OpCheck &c, const IndexDims &d, const Tensor &x, const Tensor &idx, int64_t windowRank) {
  auto [windowName, collapsedName, opBatchName, idxBatchName, startMapName] = d.names;
  auto named = [&](const char *name, const std::vector<int64_t> &v) { return std::string(name) + " " + dimsString(v); };
  int64_t r = x.rank();
  if (int64_t(d.window.size() + d.collapsed.size() + d.opBatch.size()) != r)
    c.fail("the operand has rank " + std::to_string(r) + ", " + named(windowName, d.window) + ", " +
           named(collapsedName, d.collapsed) + " and " + named(opBatchName, d.opBatch) + " must add up to it");
  if (d.indexVectorDim < 0 || d.indexVectorDim > idx.rank())
    c.fail("index_vector_dim " + std::to_string(d.indexVectorDim) + " is not in [0, " + std::to_string(idx.rank()) + "]");
  int64_t indexCount = d.indexVectorDim < idx.rank() ? idx.shape[size_t(d.indexVectorDim)] : 1;
  if (int64_t(d.startMap.size()) != indexCount)
    c.fail("the index vector has " + std::to_string(indexCount) + " entries, " + named(startMapName, d.startMap) +
           " must have as many");
  if (!sorted(d.window)) c.fail(named(windowName, d.window) + " must be sorted");
  c.dimsInRange(d.window, windowRank, windowName);
  c.dimsInRange(d.collapsed, r, collapsedName);
  c.dimsInRange(d.opBatch, r, opBatchName);
  c.dimsInRange(d.startMap, r, startMapName);
  c.dimsInRange(d.idxBatch, idx.rank(), idxBatchName);
  if (!sorted(d.collapsed)) c.fail(named(collapsedName, d.collapsed) + " must be sorted");
  if (!sorted(d.opBatch)) c.fail(named(opBatchName, d.opBatch) + " must be sorted");
  for (int64_t k : d.opBatch) {
    if (contains(d.collapsed, k)) c.fail("dimension " + std::to_string(k) + " is in " + collapsedName + " and " + opBatchName);
    if (contains(d.startMap, k)) c.fail("dimension " + std::to_string(k) + " is in " + startMapName + " and " + opBatchName);
  }
  if (contains(d.idxBatch, d.indexVectorDim))
    c.fail("index_vector_dim " + std::to_string(d.indexVectorDim) + " is in " + idxBatchName);
  if (d.opBatch.size() != d.idxBatch.size())
    c.fail(named(opBatchName, d.opBatch) + " and " + named(idxBatchName, d.idxBatch) + " differ in length");
  for (size_t i = 0; i < d.opBatch.size(); ++i)
    if (x.shape[size_t(d.opBatch[i])] != idx.shape[size_t(d.idxBatch[i])])
      c.fail("batching dimension sizes differ: operand " + x.typeString() + " dimension " +
             std::to_string(d.opBatch[i]) + " and indices " + idx.typeString() + " dimension " +
             std::to_string(d.idxBatch[i]));
  if (!idx.dtype.isInt()) c.fail("the indices " + idx.typeString() + " are not integers");
}

// The batch dimensions of the indices (all but index_vector_dim).
std::vector<int64_t> batchSizes(const Tensor &idx, int64_t ivd) {
  std::vector<int64_t> out;
  for (int64_t k = 0; k < idx.rank(); ++k)
    if (k != ivd) out.push_back(idx.shape[size_t(k)]);
  return out;
}

// Puts `window` sizes at the `windowDims` positions and `batch` sizes in
// the others (the spec's `combine`).
std::vector<int64_t> combine(const std::vector<int64_t> &batch, const std::vector<int64_t> &window,
                             const std::vector<int64_t> &windowDims) {
  std::vector<int64_t> out;
  size_t b = 0, w = 0;
  for (size_t k = 0; k < batch.size() + window.size(); ++k)
    out.push_back(contains(windowDims, int64_t(k)) ? window[w++] : batch[b++]);
  return out;
}

void checkGather(const OpCheck &c) {
  bool dynamic = c.name == "stablehlo.dynamic_gather";
  c.counts(dynamic ? 3 : 2, 1);
  const Tensor &x = c.in(0), &idx = c.in(1);
  c.isTensor(x, "the operand");
  c.isTensor(idx, "start_indices");
  const char *dn = "dimension_numbers";
  IndexDims d{c.field(dn, "offset_dims"),
              c.field(dn, "collapsed_slice_dims"),
              c.field(dn, "operand_batching_dims"),
              c.field(dn, "start_indices_batching_dims"),
              c.field(dn, "start_index_map"),
              c.fieldInt(dn, "index_vector_dim", 0),
              kGatherNames};
  std::vector<int64_t> sizes;
  if (dynamic) {
    c.isTensor(c.in(2), "slice_sizes", 1);
    if (!c.in(2).dtype.isInt()) c.fail("slice_sizes " + c.in(2).typeString() + " are not integers");
    sizes = tensorInts(c.in(2));
  } else {
    sizes = c.ints("slice_sizes");
  }
  int64_t batchRank = idx.rank() - (d.indexVectorDim < idx.rank() ? 1 : 0);
  checkIndexDims(c, d, x, idx, batchRank + int64_t(d.window.size()));
  c.sizeIs(sizes, size_t(x.rank()), "slice_sizes");
  for (size_t k = 0; k < sizes.size(); ++k)
    if (sizes[k] < 0 || sizes[k] > x.shape[k])
      c.fail("slice_sizes " + dimsString(sizes) + " do not fit in the operand " + x.typeString());
  std::vector<int64_t> windowSizes;
  for (int64_t k = 0; k < x.rank(); ++k) {
    bool dropped = contains(d.collapsed, k) || contains(d.opBatch, k);
    if (dropped && sizes[size_t(k)] > 1)
      c.fail("slice_sizes " + dimsString(sizes) + ": collapsed or batching dimension " + std::to_string(k) +
             " must have size 0 or 1");
    if (!dropped) windowSizes.push_back(sizes[size_t(k)]);
  }
  std::vector<int64_t> want = combine(batchSizes(idx, d.indexVectorDim), windowSizes, d.window);
  c.resultShapeIs(0, want);
  c.resultElementIs(0, x);
  // A zero slice size leaves no element to read in a dimension the indices
  // choose, though the result can have elements: the spec leaves the
  // out-of-bounds read implementation-defined; here it is an error.
  int64_t n = 1;
  for (int64_t s : want) n *= s;
  for (int64_t k : d.startMap)
    if (n && sizes[size_t(k)] == 0)
      c.fail("slice_sizes " + dimsString(sizes) + " is 0 in indexed dimension " + std::to_string(k) +
             " of a non-empty result: every read would be out of bounds");
}

void checkScatter(const OpCheck &c) {
  uint32_t n = c.numOperands();
  if (n < 3 || n % 2 == 0) c.fail("takes N inputs, the indices and N updates, not " + std::to_string(n) + " operands");
  uint32_t k = (n - 1) / 2;
  c.counts(OpCheck::kAny, k, 1);
  const Tensor &x = c.in(0), &idx = c.in(k), &u = c.in(k + 1);
  c.isTensor(idx, "scatter_indices");
  std::vector<std::string_view> elems;
  for (uint32_t j = 0; j < k; ++j) {
    const Tensor &xj = c.in(j), &uj = c.in(k + 1 + j);
    c.isTensor(xj, "input #" + std::to_string(j));
    c.isTensor(uj, "update #" + std::to_string(j));
    c.sameShape(x, xj, "inputs #0 and #" + std::to_string(j) + " differ in shape");
    c.sameShape(u, uj, "updates #0 and #" + std::to_string(j) + " differ in shape");
    c.sameElement(xj, uj, "input and update #" + std::to_string(j) + " differ in element type");
    c.resultIsLike(j, xj);
    elems.push_back(xj.dtype.name);
  }
  const char *dn = "scatter_dimension_numbers";
  IndexDims d{c.field(dn, "update_window_dims"),
              c.field(dn, "inserted_window_dims"),
              c.field(dn, "input_batching_dims"),
              c.field(dn, "scatter_indices_batching_dims"),
              c.field(dn, "scatter_dims_to_operand_dims"),
              c.fieldInt(dn, "index_vector_dim", 0),
              kScatterNames};
  checkIndexDims(c, d, x, idx, u.rank());
  // C4: the update's scatter dimensions are the indices' batch dimensions,
  // its window dimensions fit in the input's non-inserted ones.
  std::vector<int64_t> batch = batchSizes(idx, d.indexVectorDim), window;
  if (u.rank() != int64_t(batch.size() + d.window.size()))
    c.fail("the updates " + u.typeString() + " must have rank " + std::to_string(batch.size() + d.window.size()) +
           " (the indices' batch dimensions and update_window_dims)");
  for (int64_t q = 0; q < u.rank(); ++q)
    if (contains(d.window, q)) window.push_back(u.shape[size_t(q)]);
  std::vector<int64_t> bounds;
  for (int64_t q = 0; q < x.rank(); ++q)
    if (!contains(d.collapsed, q) && !contains(d.opBatch, q)) bounds.push_back(x.shape[size_t(q)]);
  for (size_t q = 0; q < window.size(); ++q)
    if (window[q] > bounds[q])
      c.fail("update window " + dimsString(window) + " does not fit in the input's window dimensions " +
             dimsString(bounds));
  if (combine(batch, window, d.window) != u.shape)
    c.fail("the updates " + u.typeString() + " do not match the indices " + idx.typeString() +
           " in their scatter dimensions");
  std::vector<std::string_view> args = elems;
  args.insert(args.end(), elems.begin(), elems.end());
  c.scalarRegion(0, args, elems);
}

OpCheckRegistration regs[] = {
    {{"stablehlo.gather"}, checkGather},
    {{"stablehlo.dynamic_gather"}, checkGather, /*readsValues=*/true},
    {{"stablehlo.scatter"}, checkScatter},
};

}  // namespace
}  // namespace autopart::exec
