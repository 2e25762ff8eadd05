#include "ir/FactorProjection.h"

#include <numeric>
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

bool TensorFactorShardings::expandFactor(size_t f, const AxisList &axes, const Mesh &mesh) {
  if (f >= factors.size() || !factors[f].present) return false;
  FactorSharding &fs = factors[f];
  if (!isStrictPrefix(fs.axes, axes, mesh)) return false;
  fs.axes = axes;
  return true;
}

namespace {

// What is left of the axis being handed out to factors.
struct Remaining {
  std::string name;
  int64_t pre = 1, size = 1;
};

std::optional<Remaining> remainingAt(const AxisList &axes, size_t i, const Mesh &mesh) {
  if (i >= axes.size()) return std::nullopt;
  return Remaining{axes[i].name, axisStart(axes[i]), axes[i].size(mesh)};
}

void appendRemaining(AxisList &out, std::optional<Remaining> rem, const AxisList &axes, size_t i,
                     const Mesh &mesh) {
  while (rem) {
    appendOrMerge(out, makeAxis(rem->name, rem->pre, rem->size, mesh), mesh);
    rem = remainingAt(axes, ++i, mesh);
  }
}

}  // namespace

TensorFactorShardings projectTensor(const TensorSharding *sharding,
                                    const OpShardingRule::TensorFactors &mapping,
                                    const OpShardingRule &rule, const Mesh &mesh,
                                    bool closedIfMissing) {
  TensorFactorShardings tfs;
  projectTensor(tfs, sharding, mapping, rule, mesh, closedIfMissing);
  return tfs;
}

void projectTensor(TensorFactorShardings &tfs, const TensorSharding *sharding,
                   const OpShardingRule::TensorFactors &mapping, const OpShardingRule &rule,
                   const Mesh &mesh, bool closedIfMissing) {
  tfs.factors.resize(rule.numFactors());
  for (FactorSharding &fs : tfs.factors) {
    fs.axes.clear();
    fs.overflow.clear();
    fs.present = fs.isClosed = fs.isMinorMost = false;
  }
  tfs.replicated.clear();
  tfs.unreduced.clear();
  static const AxisList kNoAxes;
  for (size_t d = 0; d < mapping.size(); ++d) {
    bool hasDim = sharding && d < sharding->dims.size();
    const AxisList &axes = hasDim ? sharding->dims[d].axes : kNoAxes;
    bool dimClosed = hasDim ? sharding->dims[d].closed : closedIfMissing;
    size_t next = 0;
    std::optional<Remaining> rem = remainingAt(axes, next, mesh);
    bool overflowed = false;
    for (size_t k = 0; k < mapping[d].size(); ++k) {
      FactorSharding &fs = tfs.factors[size_t(mapping[d][k])];
      fs.present = true;
      fs.isMinorMost = k + 1 == mapping[d].size();
      if (overflowed) {
        // The factor after overflow axes must stay unsharded; as in Shardy,
        // the ones after it are not part of this tensor's projection at all.
        fs.isClosed = true;
        break;
      }
      fs.isClosed = dimClosed;
      if (fs.isMinorMost) {
        // The minor-most factor takes every remaining axis, even when they do
        // not divide it: sharding beyond its size is padding.
        appendRemaining(fs.axes, rem, axes, next, mesh);
        break;
      }
      int64_t left = rule.factorSizes[size_t(mapping[d][k])];
      int64_t g = 1;
      while (rem && (rem->size == 1 || (g = std::gcd(left, rem->size)) > 1)) {
        if (rem->size != 1 && rem->size > g) {
          fs.axes.push_back(makeAxis(rem->name, rem->pre, g, mesh));
          rem->pre *= g;
          rem->size /= g;
          left /= g;
        } else {
          fs.axes.push_back(makeAxis(rem->name, rem->pre, rem->size, mesh));
          left /= rem->size;
          rem = remainingAt(axes, ++next, mesh);
        }
      }
      if (left > 1 && rem) {
        overflowed = true;
        appendRemaining(fs.overflow, rem, axes, next, mesh);
        rem.reset();
      }
    }
  }
  if (sharding) {
    tfs.replicated = sharding->replicated;
    tfs.unreduced = sharding->unreduced;
  }
}

// Appends `axes` merging across the boundary between two factors, so that
// "x":(1)2 of one factor and "x":(2)2 of the next print back as "x".
static int64_t appendFactorAxes(AxisList &dim, const AxisList &axes, const Mesh &mesh) {
  int64_t size = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    size *= axes[i].size(mesh);
    if (i == 0) appendOrMerge(dim, axes[i], mesh);
    else dim.push_back(axes[i]);
  }
  return size;
}

TensorSharding toTensorSharding(const TensorFactorShardings &tfs,
                                const OpShardingRule::TensorFactors &mapping,
                                const OpShardingRule &rule, const std::string &meshName,
                                const Mesh &mesh) {
  TensorSharding s = TensorSharding::closed(meshName, mapping.size());
  for (size_t d = 0; d < mapping.size(); ++d) {
    DimSharding &dim = s.dims[d];
    bool closed = false;
    for (int32_t f : mapping[d]) {
      const FactorSharding &fs = tfs.factors[size_t(f)];
      closed |= fs.isClosed;
      int64_t sharded = appendFactorAxes(dim.axes, fs.axes, mesh);
      if (!fs.overflow.empty()) {
        appendFactorAxes(dim.axes, fs.overflow, mesh);
        break;
      }
      if (sharded < rule.factorSizes[size_t(f)]) break;
    }
    dim.closed = closed;
  }
  s.replicated = tfs.replicated;
  s.unreduced = tfs.unreduced;
  return s;
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
