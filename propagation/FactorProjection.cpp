#include "propagation/FactorProjection.h"

#include <utility>

namespace autopart {

bool TensorFactorShardings::hasOverflow() const {
  for (const FactorSharding &f : factors)
    if (!f.overflow.empty()) return true;
  return false;
}

int64_t TensorFactorShardings::shardingSize(const Mesh &mesh) const {
  int64_t n = 1;
  for (const FactorSharding &f : factors)
    if (f.present) n *= axesSize(f.axes, mesh);
  return n;
}

TensorFactorShardings projectTensor(const TensorSharding *sharding,
                                    const OpShardingRule::TensorFactors &mapping,
                                    const OpShardingRule &rule, const Mesh &mesh) {
  TensorFactorShardings tfs;
  tfs.factors.resize(rule.numFactors());
  for (size_t d = 0; d < mapping.size(); ++d) {
    const OpShardingRule::DimFactors &dimFactors = mapping[d];
    for (int32_t f : dimFactors) tfs.factors[size_t(f)].present = true;
    if (!sharding || d >= sharding->dims.size() || dimFactors.empty()) continue;
    const AxisList &axes = sharding->dims[d].axes;
    size_t next = 0;
    std::optional<AxisRef> carry;  // the minor rest of a split axis
    auto take = [&]() -> std::optional<AxisRef> {
      if (carry) return std::exchange(carry, std::nullopt);
      if (next < axes.size()) return axes[next++];
      return std::nullopt;
    };
    for (size_t j = 0; j < dimFactors.size(); ++j) {
      FactorSharding &fs = tfs.factors[size_t(dimFactors[j])];
      // The minor-most factor takes whatever is left: sharding beyond its
      // size is padding, not a different layout.
      if (j + 1 == dimFactors.size()) {
        while (std::optional<AxisRef> a = take()) fs.axes.push_back(*a);
        break;
      }
      int64_t capacity = rule.factorSizes[size_t(dimFactors[j])];
      bool overflowed = false;
      while (capacity > 1) {
        std::optional<AxisRef> a = take();
        if (!a) break;
        int64_t size = a->size(mesh);
        if (capacity % size == 0) {
          fs.axes.push_back(*a);
          capacity /= size;
        } else if (size % capacity == 0) {
          int64_t pre = axisStart(*a);
          fs.axes.push_back(makeAxis(a->name, pre, capacity, mesh));
          carry = makeAxis(a->name, pre * capacity, size / capacity, mesh);
          capacity = 1;
        } else {
          fs.overflow.push_back(*a);
          while (std::optional<AxisRef> rest = take()) fs.overflow.push_back(*rest);
          overflowed = true;
        }
      }
      if (overflowed) break;
    }
  }
  return tfs;
}

TensorSharding unprojectTensor(const TensorFactorShardings &tfs,
                               const OpShardingRule::TensorFactors &mapping,
                               const std::string &meshName, const Mesh &mesh) {
  TensorSharding s = TensorSharding::closed(meshName, mapping.size());
  for (size_t d = 0; d < mapping.size(); ++d) {
    AxisList axes;
    for (int32_t f : mapping[d]) {
      const FactorSharding &fs = tfs.factors[size_t(f)];
      axes.insert(axes.end(), fs.axes.begin(), fs.axes.end());
      axes.insert(axes.end(), fs.overflow.begin(), fs.overflow.end());
    }
    s.dims[d].axes = mergeAdjacent(axes, mesh);
  }
  return s;
}

bool equivalentShardings(const TensorSharding *a, const TensorSharding *b, const Mesh &mesh) {
  size_t rank = a ? a->rank() : b ? b->rank() : 0;
  for (size_t d = 0; d < rank; ++d) {
    AxisList da = a && d < a->dims.size() ? mergeAdjacent(a->dims[d].axes, mesh) : AxisList();
    AxisList db = b && d < b->dims.size() ? mergeAdjacent(b->dims[d].axes, mesh) : AxisList();
    if (da != db) return false;
  }
  AxisList ua = a ? a->unreduced : AxisList(), ub = b ? b->unreduced : AxisList();
  sortAndMerge(ua, mesh);
  sortAndMerge(ub, mesh);
  return ua == ub;
}

}  // namespace autopart
