// stablehlo.sort: every 1-D slice along `dimension` is ordered by the
// comparator region, and all operands are permuted alike. A comparator that
// is one `compare LT|GT` of the first operand's two elements runs as a typed
// comparison; any other is called on scalars.
//
//   %r = "stablehlo.sort"(%x) ({ ^bb0(%a, %b): compare GT, %a, %b ... }) {dimension = 0}
//     [3, 1, 2] -> [3, 2, 1]
#include <algorithm>
#include <numeric>

#include "exec/Elementwise.h"
#include "exec/Reduce.h"

namespace autopart::exec {
namespace {

// Direction of a one-compare comparator (LT -> -1, GT -> +1), 0 otherwise.
int simpleComparator(Interpreter &I, RegionId r, bool *total) {
  const Block &b = I.m.blocks[I.m.regions[r].blocks[0]];
  if (b.ops.size() != 2 || b.args.size() < 2) return 0;
  OpId c = b.ops[0];
  if (!I.m.isa(c, "stablehlo.compare") || I.m.operand(b.ops[1], 0) != I.m.result(c, 0)) return 0;
  AttrId ct = I.m.attr(c, "compare_type");
  *total = ct != kNoAttr && I.m.attrs.str(ct).find("TOTALORDER") != std::string::npos;
  std::string dir = I.m.attrs.str(I.m.attr(c, "comparison_direction"));
  bool lt = dir.find("LT") != std::string::npos, gt = dir.find("GT") != std::string::npos;
  if (I.m.operand(c, 0) == b.args[0] && I.m.operand(c, 1) == b.args[1]) return lt ? -1 : gt ? 1 : 0;
  if (I.m.operand(c, 0) == b.args[1] && I.m.operand(c, 1) == b.args[0]) return lt ? 1 : gt ? -1 : 0;
  return 0;
}


void sortOp(Interpreter &I, OpId op) {
  uint32_t k = I.m.numOperands(op);
  const Tensor &x0 = I.in(op, 0);
  int64_t dim = I.intAttr(op, "dimension");
  if (dim < 0) dim += x0.rank();
  if (x0.rank() && (dim < 0 || dim >= x0.rank())) I.fail(op, "sort dimension is outside the operand's rank");
  for (uint32_t j = 1; j < k; ++j)
    if (I.in(op, j).shape != x0.shape) I.fail(op, "sort operands differ in shape");
  if (I.m.numResults(op) != k) I.fail(op, "sort has " + std::to_string(I.m.numResults(op)) + " results for " + std::to_string(k) + " operands");
  RegionId cmp = I.m.region(op, 0);
  bool total = false;
  int dir = simpleComparator(I, cmp, &total);
  std::vector<TensorPtr> outs;
  for (uint32_t j = 0; j < k; ++j) {
    outs.push_back(I.newResult(op, j));
    if (outs.back()->shape != x0.shape) I.fail(op, "sort result " + std::to_string(j) + " differs in shape from its operand");
  }
  std::vector<int64_t> xs = stridesOf(x0.shape);
  int64_t len = x0.rank() ? x0.shape[dim] : 1, stride = x0.rank() ? xs[dim] : 1;
  int64_t n = x0.numElements();
  std::vector<int64_t> perm(len);
  for (int64_t base = 0; base < n; ++base) {
    // `base` is a slice start when its index along `dim` is 0.
    if (len == 0 || (base / stride) % len != 0) continue;
    std::iota(perm.begin(), perm.end(), 0);
    auto at = [&](int64_t i) { return base + i * stride; };
    if (dir != 0 && !x0.dtype.isComplex) {
      visitStorage(x0.dtype.storage, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!kIsComplex<T>) {
          const T *a = x0.data<T>();
          auto less = [&](int64_t p, int64_t q) {
            T u = a[at(p)], v = a[at(q)];
            if constexpr (kIsFloat<T>)
              if (total) return dir < 0 ? totalOrderKey(u) < totalOrderKey(v) : totalOrderKey(u) > totalOrderKey(v);
            return dir < 0 ? u < v : u > v;
          };
          std::stable_sort(perm.begin(), perm.end(), less);
        }
      });
    } else {
      std::stable_sort(perm.begin(), perm.end(), [&](int64_t p, int64_t q) {
        std::vector<TensorPtr> args;
        for (uint32_t j = 0; j < k; ++j) {
          args.push_back(scalarOf(I.in(op, j), at(p)));
          args.push_back(scalarOf(I.in(op, j), at(q)));
        }
        return I.runRegion(cmp, args).at(0)->data<uint8_t>()[0] != 0;
      });
    }
    for (uint32_t j = 0; j < k; ++j) {
      const Tensor &x = I.in(op, j);
      size_t w = storageSize(x.dtype.storage);
      for (int64_t i = 0; i < len; ++i)
        std::memcpy(outs[j]->bytes.data() + at(i) * int64_t(w), x.bytes.data() + at(perm[i]) * int64_t(w), w);
    }
  }
  for (uint32_t j = 0; j < k; ++j) I.setResult(op, j, outs[j]);
}

KernelRegistration regs[] = {{{"stablehlo.sort"}, sortOp}};

}  // namespace
}  // namespace autopart::exec
