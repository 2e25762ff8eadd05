// stablehlo.reduce, reduce_window and select_and_scatter. Bodies that are
// one add/multiply/max/min/and/or/xor of the two block arguments run as
// typed loops; any other body is called per element on scalars.
//
//   %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1]
//        : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
#include "exec/Reduce.h"

namespace autopart::exec {

TensorPtr scalarOf(const Tensor &t, int64_t i) {
  TensorPtr s = makeTensor(t.dtype, {});
  size_t w = storageSize(t.dtype.storage);
  std::memcpy(s->bytes.data(), t.bytes.data() + i * int64_t(w), w);
  return s;
}

void storeScalar(Tensor &t, int64_t i, const Tensor &s) {
  size_t w = storageSize(t.dtype.storage);
  std::memcpy(t.bytes.data() + i * int64_t(w), s.bytes.data(), w);
}

BinaryKind binaryKind(std::string_view n) {
  if (n == "stablehlo.add") return BinaryKind::Add;
  if (n == "stablehlo.multiply") return BinaryKind::Mul;
  if (n == "stablehlo.maximum") return BinaryKind::Max;
  if (n == "stablehlo.minimum") return BinaryKind::Min;
  if (n == "stablehlo.and") return BinaryKind::And;
  if (n == "stablehlo.or") return BinaryKind::Or;
  if (n == "stablehlo.xor") return BinaryKind::Xor;
  return BinaryKind::None;
}

bool fastReducible(BinaryKind k, const DType &d) {
  if (k == BinaryKind::None) return false;
  if (d.isComplex) return k == BinaryKind::Add || k == BinaryKind::Mul;
  if (k == BinaryKind::And || k == BinaryKind::Or || k == BinaryKind::Xor) return d.isInt();
  return true;
}

namespace {

// Advances a row-major multi-index; false when it wraps around.
bool next(std::vector<int64_t> &idx, const std::vector<int64_t> &shape) {
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

void reduceOp(Interpreter &I, OpId op) {
  uint32_t k = I.m.numOperands(op) / 2;
  const Tensor &x0 = I.in(op, 0);
  std::vector<int64_t> dims = I.ints(op, "dimensions");
  std::vector<bool> reduced(x0.rank(), false);
  int64_t kept = 1;
  for (int64_t d : dims) {
    if (d < 0 || d >= x0.rank() || reduced[d]) I.fail(op, "reduce dimension " + std::to_string(d) + " is not a dimension of the operand or repeats");
    reduced[d] = true;
  }
  for (int64_t d = 0; d < x0.rank(); ++d) kept *= reduced[d] ? 1 : x0.shape[d];
  std::vector<TensorPtr> outs;
  for (uint32_t j = 0; j < k; ++j) {
    outs.push_back(I.newResult(op, j));
    if (outs[j]->numElements() != kept || I.in(op, j).shape != x0.shape || I.in(op, k + j).numElements() != 1)
      I.fail(op, "reduce operands, init values and results do not agree in shape");
  }
  std::vector<int64_t> os = stridesOf(outs[0]->shape), map(x0.rank(), 0);
  for (int64_t d = 0, o = 0; d < x0.rank(); ++d)
    if (!reduced[d]) map[d] = os[o++];
  int64_t nOut = outs[0]->numElements(), n = x0.numElements();
  RegionId body = I.m.region(op, 0);
  BinaryKind kind = k == 1 ? binaryKind(I.simpleBinaryRegion(body)) : BinaryKind::None;
  if (k == 1 && fastReducible(kind, x0.dtype) && outs[0]->dtype.storage == x0.dtype.storage) {
    visitStorage(x0.dtype.storage, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T *o = outs[0]->data<T>();
      const T *a = x0.data<T>();
      T init = I.in(op, 1).data<T>()[0];
      for (int64_t i = 0; i < nOut; ++i) o[i] = init;
      if (n == 0) return;
      // Walk the input row-major; the output offset follows the kept dims.
      std::vector<int64_t> idx(x0.rank(), 0);
      int64_t inner = x0.rank() ? x0.shape.back() : 1, innerStride = x0.rank() ? map.back() : 0;
      int64_t pos = 0;
      bool isBool = x0.dtype.isBool();
      for (int64_t i = 0; i < n; i += inner) {
        int64_t off = 0;
        for (int64_t d = 0; d + 1 < x0.rank(); ++d) off += idx[d] * map[d];
        if (innerStride == 0) {
          T acc = o[off];
          for (int64_t e = 0; e < inner; ++e) acc = applyBinary(kind, acc, a[pos + e], isBool);
          o[off] = acc;
        } else {
          for (int64_t e = 0; e < inner; ++e) o[off + e] = applyBinary(kind, o[off + e], a[pos + e], isBool);
        }
        pos += inner;
        for (int64_t d = x0.rank() - 2; d >= 0; --d) {
          if (++idx[d] < x0.shape[d]) break;
          idx[d] = 0;
        }
      }
    });
    normalize(*outs[0]);
    I.setResult(op, 0, outs[0]);
    return;
  }
  std::vector<TensorPtr> acc(k);
  for (uint32_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < nOut; ++i) storeScalar(*outs[j], i, I.in(op, k + j));
  std::vector<int64_t> idx(x0.rank(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (int64_t d = 0; d < x0.rank(); ++d) off += idx[d] * map[d];
    std::vector<TensorPtr> args;
    for (uint32_t j = 0; j < k; ++j) args.push_back(scalarOf(*outs[j], off));
    for (uint32_t j = 0; j < k; ++j) args.push_back(scalarOf(I.in(op, j), i));
    std::vector<TensorPtr> r = I.runRegion(body, args);
    for (uint32_t j = 0; j < k; ++j) storeScalar(*outs[j], off, *r.at(j));
    next(idx, x0.shape);
  }
  for (uint32_t j = 0; j < k; ++j) I.setResult(op, j, outs[j]);
}

struct WindowGeometry {
  std::vector<int64_t> dims, strides, baseDil, winDil, padLo;
  WindowGeometry(Interpreter &I, OpId op, int64_t rank) {
    dims = I.ints(op, "window_dimensions");
    strides = I.ints(op, "window_strides");
    baseDil = I.ints(op, "base_dilations");
    winDil = I.ints(op, "window_dilations");
    auto pads = I.pairs(op, "padding");
    for (int64_t d = 0; d < rank; ++d) {
      if (strides.size() < size_t(rank)) strides.resize(rank, 1);
      if (baseDil.size() < size_t(rank)) baseDil.resize(rank, 1);
      if (winDil.size() < size_t(rank)) winDil.resize(rank, 1);
      padLo.push_back(size_t(d) < pads.size() ? pads[d].first : 0);
    }
  }
  // The input offset of window element `w` of output `o`, or -1 for padding
  // and dilation holes.
  int64_t inputOffset(const std::vector<int64_t> &o, const std::vector<int64_t> &w, const std::vector<int64_t> &shape,
                      const std::vector<int64_t> &xs) const {
    int64_t off = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t p = o[d] * strides[d] + w[d] * winDil[d] - padLo[d];
      if (p < 0 || p % baseDil[d]) return -1;
      p /= baseDil[d];
      if (p >= shape[d]) return -1;
      off += p * xs[d];
    }
    return off;
  }
  // inputOffset without divisions: per dimension, the input offset of each
  // (output index, window index) pair, or -1, computed once per op.
  std::vector<std::vector<int64_t>> table;
  void tabulate(const std::vector<int64_t> &outShape, const std::vector<int64_t> &shape) {
    std::vector<int64_t> xs = stridesOf(shape);
    table.assign(shape.size(), {});
    for (size_t d = 0; d < shape.size(); ++d)
      for (int64_t o = 0; o < outShape[d]; ++o)
        for (int64_t w = 0; w < dims[d]; ++w) {
          int64_t p = o * strides[d] + w * winDil[d] - padLo[d];
          bool in = p >= 0 && p % baseDil[d] == 0 && p / baseDil[d] < shape[d];
          table[d].push_back(in ? p / baseDil[d] * xs[d] : -1);
        }
  }
  int64_t tabulatedOffset(const std::vector<int64_t> &o, const std::vector<int64_t> &w) const {
    int64_t off = 0;
    for (size_t d = 0; d < table.size(); ++d) {
      int64_t v = table[d][size_t(o[d] * dims[d] + w[d])];
      if (v < 0) return -1;
      off += v;
    }
    return off;
  }
};

void reduceWindowOp(Interpreter &I, OpId op) {
  uint32_t k = I.m.numOperands(op) / 2;
  const Tensor &x0 = I.in(op, 0);
  WindowGeometry g(I, op, x0.rank());
  std::vector<TensorPtr> outs;
  for (uint32_t j = 0; j < k; ++j) outs.push_back(I.newResult(op, j));
  std::vector<int64_t> xs = stridesOf(x0.shape), oidx(x0.rank(), 0), widx(x0.rank(), 0);
  int64_t nOut = outs[0]->numElements(), nWin = 1;
  for (int64_t d : g.dims) nWin *= d;
  RegionId body = I.m.region(op, 0);
  BinaryKind kind = k == 1 ? binaryKind(I.simpleBinaryRegion(body)) : BinaryKind::None;
  bool fast = k == 1 && fastReducible(kind, x0.dtype);
  if (fast) g.tabulate(outs[0]->shape, x0.shape);
  for (int64_t o = 0; o < nOut; ++o, next(oidx, outs[0]->shape)) {
    std::fill(widx.begin(), widx.end(), 0);
    if (fast) {
      visitStorage(x0.dtype.storage, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T init = I.in(op, 1).data<T>()[0], acc = init;
        const T *a = x0.data<T>();
        for (int64_t w = 0; w < nWin; ++w, next(widx, g.dims)) {
          int64_t off = g.tabulatedOffset(oidx, widx);
          acc = applyBinary(kind, acc, off < 0 ? init : a[off], x0.dtype.isBool());
        }
        outs[0]->data<T>()[o] = acc;
      });
      continue;
    }
    std::vector<TensorPtr> acc;
    for (uint32_t j = 0; j < k; ++j) acc.push_back(I.operand(op, k + j));
    for (int64_t w = 0; w < nWin; ++w, next(widx, g.dims)) {
      int64_t off = g.inputOffset(oidx, widx, x0.shape, xs);
      std::vector<TensorPtr> args = acc;
      for (uint32_t j = 0; j < k; ++j) args.push_back(off < 0 ? I.operand(op, k + j) : scalarOf(I.in(op, j), off));
      acc = I.runRegion(body, args);
    }
    for (uint32_t j = 0; j < k; ++j) storeScalar(*outs[j], o, *acc.at(j));
  }
  for (uint32_t j = 0; j < k; ++j) {
    normalize(*outs[j]);
    I.setResult(op, j, outs[j]);
  }
}

// The direction of a select region `return compare(arg0, arg1)` on reals
// (GE: keep the current pick while it is >= the candidate), or None.
enum class Keep { None, GE, GT, LE, LT };

Keep simpleSelect(Interpreter &I, RegionId r, const DType &d) {
  if (!d.isFloat && !d.isInt()) return Keep::None;
  const Region &reg = I.m.regions[r];
  if (reg.blocks.size() != 1) return Keep::None;
  const Block &b = I.m.blocks[reg.blocks[0]];
  if (b.ops.size() != 2 || b.args.size() != 2) return Keep::None;
  OpId c = b.ops[0];
  if (!I.m.isa(c, "stablehlo.compare") || I.m.numOperands(b.ops[1]) != 1 ||
      I.m.operand(b.ops[1], 0) != I.m.result(c, 0) || I.m.operand(c, 0) != b.args[0] || I.m.operand(c, 1) != b.args[1])
    return Keep::None;
  if (AttrId ct = I.m.attr(c, "compare_type"); ct != kNoAttr && I.m.attrs.str(ct).find("TOTALORDER") != std::string::npos)
    return Keep::None;
  AttrId da = I.m.attr(c, "comparison_direction");
  std::string dir = da == kNoAttr ? "" : I.m.attrs.str(da);
  for (auto [name, k] : {std::pair{"GE", Keep::GE}, {"GT", Keep::GT}, {"LE", Keep::LE}, {"LT", Keep::LT}})
    if (dir == name || dir.find(std::string(" ") + name + ">") != std::string::npos) return k;
  return Keep::None;
}

template <typename T> bool keeps(Keep k, T a, T b) {
  switch (k) {
    case Keep::GE: return a >= b;
    case Keep::GT: return a > b;
    case Keep::LE: return a <= b;
    case Keep::LT: return a < b;
    case Keep::None: break;
  }
  return false;
}

// select_and_scatter whose select is one compare and scatter one binary op
// (max-pool gradients): typed loops, no region calls.
void fastSelectAndScatter(Interpreter &I, OpId op, WindowGeometry &g, Keep keep, BinaryKind kind, Tensor &r) {
  const Tensor &x = I.in(op, 0), &src = I.in(op, 1);
  std::vector<int64_t> sidx(src.rank(), 0), widx(x.rank(), 0);
  g.tabulate(src.shape, x.shape);
  int64_t nWin = 1;
  for (int64_t d : g.dims) nWin *= d;
  visitStorage(x.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsComplex<T>) {
      const T *xd = x.data<T>(), *sd = src.data<T>();
      T *rd = r.data<T>();
      bool isBool = x.dtype.isBool();
      for (int64_t s = 0; s < src.numElements(); ++s, next(sidx, src.shape)) {
        std::fill(widx.begin(), widx.end(), 0);
        int64_t chosen = -1;
        for (int64_t w = 0; w < nWin; ++w, next(widx, g.dims)) {
          int64_t off = g.tabulatedOffset(sidx, widx);
          if (off < 0) continue;
          if (chosen < 0 || !keeps(keep, xd[chosen], xd[off])) chosen = off;
        }
        if (chosen >= 0) rd[chosen] = applyBinary(kind, rd[chosen], sd[s], isBool);
      }
    }
  });
  normalize(r);
}

void selectAndScatterOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0), &src = I.in(op, 1);
  WindowGeometry g(I, op, x.rank());
  TensorPtr r = I.newResult(op);
  for (int64_t i = 0; i < r->numElements(); ++i) storeScalar(*r, i, I.in(op, 2));
  RegionId select = I.m.region(op, 0), scatter = I.m.region(op, 1);
  Keep keep = simpleSelect(I, select, x.dtype);
  BinaryKind kind = binaryKind(I.simpleBinaryRegion(scatter));
  if (keep != Keep::None && fastReducible(kind, r->dtype) && x.dtype == src.dtype && r->dtype == x.dtype) {
    fastSelectAndScatter(I, op, g, keep, kind, *r);
    I.setResult(op, 0, r);
    return;
  }
  std::vector<int64_t> xs = stridesOf(x.shape), sidx(src.rank(), 0), widx(x.rank(), 0);
  int64_t nWin = 1;
  for (int64_t d : g.dims) nWin *= d;
  for (int64_t s = 0; s < src.numElements(); ++s, next(sidx, src.shape)) {
    std::fill(widx.begin(), widx.end(), 0);
    int64_t chosen = -1;
    for (int64_t w = 0; w < nWin; ++w, next(widx, g.dims)) {
      int64_t off = g.inputOffset(sidx, widx, x.shape, xs);
      if (off < 0) continue;
      if (chosen < 0) {
        chosen = off;
        continue;
      }
      std::vector<TensorPtr> keep = I.runRegion(select, {scalarOf(x, chosen), scalarOf(x, off)});
      if (!keep.at(0)->data<uint8_t>()[0]) chosen = off;
    }
    if (chosen < 0) continue;
    std::vector<TensorPtr> v = I.runRegion(scatter, {scalarOf(*r, chosen), scalarOf(src, s)});
    storeScalar(*r, chosen, *v.at(0));
  }
  I.setResult(op, 0, r);
}

KernelRegistration regs[] = {
    {{"stablehlo.reduce"}, reduceOp},
    {{"stablehlo.reduce_window"}, reduceWindowOp},
    {{"stablehlo.select_and_scatter"}, selectAndScatterOp},
};

}  // namespace
}  // namespace autopart::exec
