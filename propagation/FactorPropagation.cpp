#include "propagation/FactorPropagation.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace autopart {

namespace {

// Merges a tensor's axes for a factor into the axes found so far. Returns the
// merged list and whether later tensors may still lengthen it: a conflict (a
// different axis at the same position, or disjoint sub-axes of one axis) stops
// the list at the common part and forbids lengthening.
//
//   ["a"] + ["a", "b"]          -> ["a", "b"], may grow
//   ["a", "b"] + ["a", "c"]     -> ["a"], frozen
//   ["a":(1)2] + ["a":(1)4]     -> ["a":(1)4], may grow
//   ["a":(1)2, "b"] + ["a"]     -> ["a":(1)2], frozen
std::pair<AxisList, bool> mergeMajorAxes(const AxisList &old, const AxisList &add, bool canGrow,
                                         const Mesh &mesh) {
  AxisList out;
  size_t i = 0;
  for (; i < old.size() && i < add.size(); ++i) {
    const AxisRef &o = old[i], &n = add[i];
    if (o.name != n.name) return {out, false};
    if (o == n) {
      out.push_back(n);
      continue;
    }
    if (axisPrefixOf(n, o, mesh)) {
      // The new list stops inside the old axis: anything after it in the new
      // list would conflict with the rest of the old axis.
      if (i + 1 < add.size()) {
        out.push_back(n);
        return {out, false};
      }
      out.push_back(o);
    } else if (axisPrefixOf(o, n, mesh)) {
      if (!canGrow || i + 1 < old.size()) {
        out.push_back(o);
        return {out, false};
      }
      out.push_back(n);
    } else {
      return {out, false};
    }
  }
  out.insert(out.end(), old.begin() + std::ptrdiff_t(std::min(i, old.size())), old.end());
  if (canGrow && i < add.size()) out.insert(out.end(), add.begin() + std::ptrdiff_t(i), add.end());
  return {out, canGrow};
}

// The longest list of axes the tensors agree on for factor `f`, ignoring
// conflicts with other factors. With a one-way direction only the source side
// (operands forward, results backward) may lengthen the list; the other side
// can still cut it.
AxisList compatibleMajorAxes(const OpProjection &p, size_t f, PropagationDirection dir,
                             const Mesh &mesh) {
  AxisList axes;
  if (dir == PropagationDirection::None) return axes;
  bool canGrow = true;
  auto visit = [&](const std::vector<TensorFactorShardings> &tensors) {
    for (const TensorFactorShardings &t : tensors)
      // Merging no axes changes nothing (skipped: no copy of the list).
      if (t.has(f) && !t.factors[f].axes.empty())
        std::tie(axes, canGrow) = mergeMajorAxes(axes, t.factors[f].axes, canGrow, mesh);
  };
  bool backward = dir == PropagationDirection::Backward;
  visit(backward ? p.results : p.operands);
  if (dir != PropagationDirection::Both) canGrow = false;
  visit(backward ? p.operands : p.results);
  return axes;
}

// Cuts `axes` at the first axis `fix` changes: dropped when `fix` gives
// nothing, replaced by its prefix (and the rest dropped) when it shrinks it.
// `fix` also sees the product of the sizes up to and including that axis.
template <typename Fix>
void truncateAtConflict(AxisList &axes, Fix &&fix, const Mesh &mesh, bool conservative) {
  int64_t sharded = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    sharded *= axes[i].size(mesh);
    std::optional<AxisRef> kept = fix(axes[i], sharded);
    if (!kept || (conservative && kept->isSubAxis())) {
      axes.resize(i);
      return;
    }
    if (!(*kept == axes[i])) {
      axes[i] = *kept;
      axes.resize(i + 1);
      return;
    }
  }
}

// The prefix of `a` that no other factor of `t` uses (existing axes, overflow
// axes, and when given, the axes other factors are about to get).
std::optional<AxisRef> withoutOtherFactors(const AxisRef &a, const TensorFactorShardings &t,
                                           size_t f, const AxesPerFactor *pending,
                                           const Mesh &mesh) {
  std::optional<AxisRef> r = a;
  for (size_t g = 0; g < t.factors.size() && r; ++g) {
    if (g == f || !t.has(g)) continue;
    // Empty lists leave `r` as it is (skipped: no copy of the axis).
    if (!t.factors[g].overflow.empty()) r = prefixWithoutOverlap(*r, t.factors[g].overflow, mesh);
    if (r && !t.factors[g].axes.empty()) r = prefixWithoutOverlap(*r, t.factors[g].axes, mesh);
    if (r && pending && !(*pending)[g].empty()) r = prefixWithoutOverlap(*r, (*pending)[g], mesh);
  }
  return r;
}

// The prefix of `a` factor `f` of one tensor can take: not explicitly
// replicated there, and either already among its axes or addable (the factor
// is open, has no overflow, and stays divisible unless it is minor-most).
std::optional<AxisRef> withinFactor(const AxisRef &a, const TensorFactorShardings &t, size_t f,
                                    int64_t sharded, int64_t factorSize, const Mesh &mesh) {
  std::optional<AxisRef> r = t.replicated.empty() ? a : prefixWithoutOverlap(a, t.replicated, mesh);
  if (!r) return r;
  const FactorSharding &fs = t.factors[f];
  for (const AxisRef &x : fs.axes)
    if (axisContains(x, *r, mesh)) return r;
  if (!fs.isClosed && fs.overflow.empty()) {
    if (fs.isMinorMost || factorSize % sharded == 0) return r;
    // A non-minor factor can still take the major part of `r` that keeps it
    // divisible: factor 4 sharded 2 ways so far takes "a":(1)2 of "a"=4.
    int64_t before = sharded / a.size(mesh);
    if (before > 0 && factorSize % before == 0) {
      int64_t g = std::gcd(factorSize / before, r->size(mesh));
      if (g > 1) return makeAxis(r->name, axisStart(*r), g, mesh);
    }
  }
  // The tensor cannot take all of `r`, but keeps its own last axis when that
  // is a prefix of it.
  if (!fs.axes.empty() && axisPrefixOf(fs.axes.back(), *r, mesh)) return fs.axes.back();
  return std::nullopt;
}

PropagationDirection directionOf(const OpShardingRule &rule, size_t f,
                                 const FactorPropagationParams &params) {
  if (rule.isBlocked(int32_t(f))) return PropagationDirection::None;
  return params.direction ? params.direction(f) : PropagationDirection::Both;
}

AxesPerFactor basicAxes(const OpProjection &p, const OpShardingRule &rule, const Mesh &mesh,
                        const FactorPropagationParams &params) {
  AxesPerFactor result(rule.numFactors());
  for (size_t f = 0; f < rule.numFactors(); ++f) {
    AxisList &axes = result[f];
    axes = compatibleMajorAxes(p, f, directionOf(rule, f, params), mesh);
    int64_t factorSize = rule.factorSizes[f];
    truncateAtConflict(
        axes,
        [&](const AxisRef &a, int64_t sharded) -> std::optional<AxisRef> {
          std::optional<AxisRef> r = a;
          for (size_t t = 0; t < p.numTensors() && r; ++t) {
            const TensorFactorShardings &tensor = p.tensor(t);
            // Basic: other factors' axes block `a` in every tensor, whether or
            // not it holds this factor.
            r = withoutOtherFactors(*r, tensor, f, nullptr, mesh);
            if (r && tensor.has(f)) r = withinFactor(*r, tensor, f, sharded, factorSize, mesh);
          }
          return r;
        },
        mesh, params.conservative);
  }
  return result;
}

AxesPerFactor aggressiveAxes(const OpProjection &p, const OpShardingRule &rule, const Mesh &mesh,
                             const FactorPropagationParams &params) {
  size_t n = rule.numFactors();
  AxesPerFactor result(n);
  for (size_t f = 0; f < n; ++f) result[f] = compatibleMajorAxes(p, f, directionOf(rule, f, params), mesh);
  for (size_t t = 0; t < p.numTensors(); ++t) {
    const TensorFactorShardings &tensor = p.tensor(t);
    for (size_t f = 0; f < n; ++f) {
      if (!tensor.has(f)) continue;
      int64_t factorSize = rule.factorSizes[f];
      truncateAtConflict(
          result[f],
          [&](const AxisRef &a, int64_t sharded) {
            return withinFactor(a, tensor, f, sharded, factorSize, mesh);
          },
          mesh, params.conservative);
    }
  }
  // Factors sharded on larger tensors decide first; a later factor keeps only
  // what overlaps neither the existing axes of other factors nor the axes
  // earlier factors were given, in every tensor that holds it. A factor's
  // weight is its largest source: a tensor that already has axes for it.
  std::vector<int64_t> weight(n, 0);
  for (size_t t = 0; t < p.numTensors(); ++t) {
    int64_t elems = t < params.tensorElements.size() ? params.tensorElements[t] : 1;
    for (size_t f = 0; f < n; ++f)
      if (p.tensor(t).has(f) && !p.tensor(t).factors[f].axes.empty())
        weight[f] = std::max(weight[f], elems);
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weight[a] > weight[b]; });
  AxesPerFactor decided(n);
  for (size_t f : order) {
    for (size_t t = 0; t < p.numTensors(); ++t) {
      const TensorFactorShardings &tensor = p.tensor(t);
      if (!tensor.has(f)) continue;
      truncateAtConflict(
          result[f],
          [&](const AxisRef &a, int64_t) { return withoutOtherFactors(a, tensor, f, &decided, mesh); },
          mesh, params.conservative);
    }
    decided[f] = result[f];
  }
  return result;
}

}  // namespace

AxesPerFactor compatibleShardingAxes(const OpProjection &projection, const OpShardingRule &rule,
                                     const Mesh &mesh, const FactorPropagationParams &params) {
  return params.strategy == FactorStrategy::Aggressive ? aggressiveAxes(projection, rule, mesh, params)
                                                       : basicAxes(projection, rule, mesh, params);
}

std::vector<bool> propagateFactors(OpProjection &projection, const OpShardingRule &rule,
                                   const Mesh &mesh, const FactorPropagationParams &params) {
  AxesPerFactor axes = compatibleShardingAxes(projection, rule, mesh, params);
  std::vector<bool> changed(projection.numTensors(), false);
  for (size_t t = 0; t < projection.numTensors(); ++t)
    for (size_t f = 0; f < axes.size(); ++f)
      if (projection.tensor(t).expandFactor(f, axes[f], mesh)) changed[t] = true;
  return changed;
}

}  // namespace autopart
