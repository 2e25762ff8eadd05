// stablehlo.gather and stablehlo.scatter, following the spec's index
// arithmetic (batch dims, start_index_map, collapsed/inserted window dims,
// operand/indices batching dims). Gather clamps start indices; scatter
// skips updates that fall outside the operand.
//
//   gather(x : 3x4, idx = [[1], [2]]) offset_dims = [1], collapsed = [0],
//     start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4]
//     -> rows 1 and 2 of x : 2x4
#include <algorithm>

#include "exec/Reduce.h"

namespace autopart::exec {
namespace {

bool contains(const std::vector<int64_t> &v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::vector<int64_t> field(Interpreter &I, AttrId dims, const char *name) {
  AttrId f = I.m.attrs.field(dims, name);
  return f == kNoAttr ? std::vector<int64_t>{} : I.m.attrs.intList(f);
}

bool next(std::vector<int64_t> &idx, const std::vector<int64_t> &shape) {
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

// The index vector of `indices` at batch position `batch` (indices dims other
// than index_vector_dim, in order).
std::vector<int64_t> indexVector(const Tensor &indices, const std::vector<int64_t> &batch, int64_t ivd,
                                 const std::vector<int64_t> &is) {
  std::vector<int64_t> full;
  int64_t b = 0;
  int64_t off = 0;
  for (int64_t d = 0; d < indices.rank(); ++d)
    if (d != ivd) off += batch[b++] * is[d];
  std::vector<int64_t> out;
  if (ivd >= indices.rank()) {
    out.push_back(getInt(indices, off));
  } else {
    for (int64_t k = 0; k < indices.shape[ivd]; ++k) out.push_back(getInt(indices, off + k * is[ivd]));
  }
  return out;
}

void gatherOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0), &indices = I.in(op, 1);
  AttrId dn = I.m.attr(op, "dimension_numbers");
  std::vector<int64_t> offsetDims = field(I, dn, "offset_dims"), collapsed = field(I, dn, "collapsed_slice_dims"),
                       opBatch = field(I, dn, "operand_batching_dims"),
                       idxBatch = field(I, dn, "start_indices_batching_dims"),
                       startMap = field(I, dn, "start_index_map");
  AttrId ivdAttr = I.m.attrs.field(dn, "index_vector_dim");
  int64_t ivd = ivdAttr == kNoAttr ? 0 : I.m.attrs.get(ivdAttr).intValue;
  std::vector<int64_t> sizes = I.m.numOperands(op) == 3 ? tensorInts(I.in(op, 2)) : I.ints(op, "slice_sizes");
  TensorPtr r = I.newResult(op);
  std::vector<int64_t> xs = stridesOf(x.shape), is = stridesOf(indices.shape), ri(r->rank(), 0);
  std::vector<int64_t> windowDims;  // operand dims that offset_dims walk
  for (int64_t d = 0; d < x.rank(); ++d)
    if (!contains(collapsed, d) && !contains(opBatch, d)) windowDims.push_back(d);
  size_t w = storageSize(x.dtype.storage);
  int64_t n = r->numElements();
  std::vector<int64_t> batch, xi(x.rank());
  for (int64_t e = 0; e < n; ++e, next(ri, r->shape)) {
    batch.clear();
    std::vector<int64_t> offsets;
    for (int64_t d = 0; d < r->rank(); ++d) (contains(offsetDims, d) ? offsets : batch).push_back(ri[d]);
    std::vector<int64_t> start = indexVector(indices, batch, ivd, is);
    std::fill(xi.begin(), xi.end(), 0);
    for (size_t k = 0; k < startMap.size(); ++k) {
      int64_t d = startMap[k];
      xi[d] = std::clamp<int64_t>(start[k], 0, x.shape[d] - sizes[d]);
    }
    for (size_t k = 0; k < opBatch.size(); ++k) {
      int64_t bd = idxBatch[k] < ivd ? idxBatch[k] : idxBatch[k] - 1;
      xi[opBatch[k]] += batch[bd];
    }
    for (size_t k = 0; k < windowDims.size(); ++k) xi[windowDims[k]] += offsets[k];
    int64_t off = 0;
    for (int64_t d = 0; d < x.rank(); ++d) off += xi[d] * xs[d];
    std::memcpy(r->bytes.data() + e * int64_t(w), x.bytes.data() + off * int64_t(w), w);
  }
  I.setResult(op, 0, r);
}

void scatterOp(Interpreter &I, OpId op) {
  uint32_t k = (I.m.numOperands(op) - 1) / 2;
  const Tensor &x0 = I.in(op, 0), &indices = I.in(op, k);
  AttrId dn = I.m.attr(op, "scatter_dimension_numbers");
  std::vector<int64_t> windowDims = field(I, dn, "update_window_dims"), inserted = field(I, dn, "inserted_window_dims"),
                       opBatch = field(I, dn, "input_batching_dims"),
                       idxBatch = field(I, dn, "scatter_indices_batching_dims"),
                       toOperand = field(I, dn, "scatter_dims_to_operand_dims");
  AttrId ivdAttr = I.m.attrs.field(dn, "index_vector_dim");
  int64_t ivd = ivdAttr == kNoAttr ? 0 : I.m.attrs.get(ivdAttr).intValue;
  std::vector<TensorPtr> outs;
  for (uint32_t j = 0; j < k; ++j) outs.push_back(std::make_shared<Tensor>(I.in(op, j)));
  const Tensor &u0 = I.in(op, k + 1);
  std::vector<int64_t> xs = stridesOf(x0.shape), is = stridesOf(indices.shape), ui(u0.rank(), 0);
  std::vector<int64_t> operandWindow;
  for (int64_t d = 0; d < x0.rank(); ++d)
    if (!contains(inserted, d) && !contains(opBatch, d)) operandWindow.push_back(d);
  RegionId body = I.m.region(op, 0);
  BinaryKind kind = k == 1 ? binaryKind(I.simpleBinaryRegion(body)) : BinaryKind::None;
  bool fast = kind != BinaryKind::None && fastReducible(kind, x0.dtype);
  // `return %arg1`: the update replaces.
  const Block &b = I.m.blocks[I.m.regions[body].blocks[0]];
  bool replace = k == 1 && b.ops.size() == 1 && I.m.numOperands(b.ops[0]) == 1 && I.m.operand(b.ops[0], 0) == b.args[1];
  int64_t n = u0.numElements();
  std::vector<int64_t> batch, window, xi(x0.rank());
  size_t w = storageSize(x0.dtype.storage);
  for (int64_t e = 0; e < n; ++e, next(ui, u0.shape)) {
    batch.clear();
    window.clear();
    for (int64_t d = 0; d < u0.rank(); ++d) (contains(windowDims, d) ? window : batch).push_back(ui[d]);
    std::vector<int64_t> start = indexVector(indices, batch, ivd, is);
    std::fill(xi.begin(), xi.end(), 0);
    for (size_t q = 0; q < toOperand.size(); ++q) xi[toOperand[q]] = start[q];
    for (size_t q = 0; q < opBatch.size(); ++q) {
      int64_t bd = idxBatch[q] < ivd ? idxBatch[q] : idxBatch[q] - 1;
      xi[opBatch[q]] += batch[bd];
    }
    for (size_t q = 0; q < operandWindow.size(); ++q) xi[operandWindow[q]] += window[q];
    int64_t off = 0;
    bool inBounds = true;
    for (int64_t d = 0; d < x0.rank(); ++d) {
      if (xi[d] < 0 || xi[d] >= x0.shape[d]) inBounds = false;
      off += xi[d] * xs[d];
    }
    if (!inBounds) continue;
    if (replace) {
      std::memcpy(outs[0]->bytes.data() + off * int64_t(w), u0.bytes.data() + e * int64_t(w), w);
    } else if (fast) {
      visitStorage(x0.dtype.storage, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T &dst = outs[0]->data<T>()[off];
        dst = applyBinary(kind, dst, u0.data<T>()[e], x0.dtype.isBool());
      });
    } else {
      std::vector<TensorPtr> args;
      for (uint32_t j = 0; j < k; ++j) args.push_back(scalarOf(*outs[j], off));
      for (uint32_t j = 0; j < k; ++j) args.push_back(scalarOf(I.in(op, k + 1 + j), e));
      std::vector<TensorPtr> res = I.runRegion(body, args);
      for (uint32_t j = 0; j < k; ++j) storeScalar(*outs[j], off, *res.at(j));
    }
  }
  for (uint32_t j = 0; j < k; ++j) {
    normalize(*outs[j]);
    I.setResult(op, j, outs[j]);
  }
}

KernelRegistration regs[] = {
    {{"stablehlo.gather", "stablehlo.dynamic_gather"}, gatherOp},
    {{"stablehlo.scatter"}, scatterOp},
};

}  // namespace
}  // namespace autopart::exec
