#include "propagation/FactorPropagation.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

namespace autopart {

namespace {

// Merges a tensor's axes for a factor into the axes found so far (in
// `axes`). Returns whether later tensors may still lengthen the list: a conflict (a
// different axis at the same position, or disjoint sub-axes of one axis) stops
// the list at the common part and forbids lengthening.
//
//   ["a"] + ["a", "b"]          -> ["a", "b"], may grow
//   ["a", "b"] + ["a", "c"]     -> ["a"], frozen
//   ["a":(1)2] + ["a":(1)4]     -> ["a":(1)4], may grow
//   ["a":(1)2, "b"] + ["a"]     -> ["a":(1)2], frozen
bool mergeMajorAxes(AxisList &axes, const AxisList &add, bool canGrow, const Mesh &mesh) {
  // In place: `axes` keeps its storage across merges and steps.
  size_t i = 0;
  for (; i < axes.size() && i < add.size(); ++i) {
    AxisRef &o = axes[i];
    const AxisRef &n = add[i];
    if (o.name != n.name) {
      axes.resize(i);
      return false;
    }
    if (o == n) continue;
    if (axisPrefixOf(n, o, mesh)) {
      // The new list stops inside the old axis: anything after it in the new
      // list would conflict with the rest of the old axis.
      if (i + 1 < add.size()) {
        o = n;
        axes.resize(i + 1);
        return false;
      }
    } else if (axisPrefixOf(o, n, mesh)) {
      if (!canGrow || i + 1 < axes.size()) {
        axes.resize(i + 1);
        return false;
      }
      o = n;
    } else {
      axes.resize(i);
      return false;
    }
  }
  if (canGrow && i < add.size()) axes.insert(axes.end(), add.begin() + std::ptrdiff_t(i), add.end());
  return canGrow;
}

// The longest list of axes the tensors agree on for factor `f`, ignoring
// conflicts with other factors. With a one-way direction only the source side
// (operands forward, results backward) may lengthen the list; the other side
// can still cut it.
void compatibleMajorAxes(AxisList &axes, const OpProjection &p, size_t f, PropagationDirection dir,
                         const Mesh &mesh) {
  axes.clear();
  if (dir == PropagationDirection::None) return;
  bool canGrow = true;
  auto visit = [&](const std::vector<TensorFactorShardings> &tensors) {
    for (const TensorFactorShardings &t : tensors)
      // Merging no axes changes nothing (skipped: no copy of the list).
      if (t.has(f) && !t.factors[f].axes.empty())
        canGrow = mergeMajorAxes(axes, t.factors[f].axes, canGrow, mesh);
  };
  bool backward = dir == PropagationDirection::Backward;
  visit(backward ? p.results : p.operands);
  if (dir != PropagationDirection::Both) canGrow = false;
  visit(backward ? p.operands : p.results);
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

// The prefix of `a` that no other factor of `t` uses (existing axes and
// overflow axes).
std::optional<AxisRef> withoutOtherFactors(const AxisRef &a, const TensorFactorShardings &t, size_t f,
                                           const Mesh &mesh) {
  std::optional<AxisRef> r = a;
  for (size_t g = 0; g < t.factors.size() && r; ++g) {
    if (g == f || !t.has(g)) continue;
    // Empty lists leave `r` as it is (skipped: no copy of the axis).
    if (!t.factors[g].overflow.empty()) r = prefixWithoutOverlap(*r, t.factors[g].overflow, mesh);
    if (r && !t.factors[g].axes.empty()) r = prefixWithoutOverlap(*r, t.factors[g].axes, mesh);
  }
  return r;
}

// The prefix of `a` factor `f` of one tensor can take: neither explicitly
// replicated nor unreduced there (an unreduced axis holds partial sums the
// tensor cannot also be split by), and either already among its axes or addable (the factor
// is open, has no overflow, and stays divisible unless it is minor-most).
std::optional<AxisRef> withinFactor(const AxisRef &a, const TensorFactorShardings &t, size_t f,
                                    int64_t sharded, int64_t factorSize, const Mesh &mesh) {
  std::optional<AxisRef> r = t.replicated.empty() ? a : prefixWithoutOverlap(a, t.replicated, mesh);
  if (r && !t.unreduced.empty()) r = prefixWithoutOverlap(*r, t.unreduced, mesh);
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

// Whether some tensor holding factor `f` has axes that are a strict prefix
// of `axes`, i.e. could still be expanded towards them.
bool someTensorBelow(const OpProjection &p, size_t f, const AxisList &axes, const Mesh &mesh) {
  for (size_t t = 0; t < p.numTensors(); ++t) {
    const TensorFactorShardings &tensor = p.tensor(t);
    if (tensor.has(f) && isStrictPrefix(tensor.factors[f].axes, axes, mesh)) return true;
  }
  return false;
}

// With `onlyExpanding`, a factor whose compatible axes no tensor can be
// expanded towards gets no axes: cutting them at conflicts only shortens
// them, so no tensor would change (skips the costly cut).
void basicAxes(AxesPerFactor &result, const OpProjection &p, const OpShardingRule &rule, const Mesh &mesh,
               const FactorPropagationParams &params, bool onlyExpanding) {
  result.resize(rule.numFactors());
  for (size_t f = 0; f < rule.numFactors(); ++f) {
    AxisList &axes = result[f];
    compatibleMajorAxes(axes, p, f, directionOf(rule, f, params), mesh);
    if (onlyExpanding && !axes.empty() && !someTensorBelow(p, f, axes, mesh)) axes.clear();
    int64_t factorSize = rule.factorSizes[f];
    truncateAtConflict(
        axes,
        [&](const AxisRef &a, int64_t sharded) -> std::optional<AxisRef> {
          std::optional<AxisRef> r = a;
          for (size_t t = 0; t < p.numTensors() && r; ++t) {
            const TensorFactorShardings &tensor = p.tensor(t);
            // Basic: other factors' axes block `a` in every tensor, whether or
            // not it holds this factor.
            r = withoutOtherFactors(*r, tensor, f, mesh);
            if (r && tensor.has(f)) r = withinFactor(*r, tensor, f, sharded, factorSize, mesh);
          }
          return r;
        },
        mesh, params.conservative);
  }
}

// The number of elements of tensor `t` as the rule sees it: the product of
// the sizes of its factors.
int64_t tensorSize(const OpShardingRule &rule, size_t t) {
  size_t numOperands = rule.operands.size();
  const OpShardingRule::TensorFactors &mapping =
      t < numOperands ? rule.operands[t] : rule.results[t - numOperands];
  int64_t size = 1;
  for (const OpShardingRule::DimFactors &dim : mapping)
    for (int32_t f : dim) size *= rule.factorSizes[size_t(f)];
  return size;
}

// The order in which the aggressive strategy resolves conflicts between
// factors: on an elementwise op (all tensors alike) the factor sharded the
// most ways first; then the factor whose source (a tensor that already holds
// all of the factor's compatible axes) is largest, then the one whose source
// comes first, then the lower factor. Factors without a source come last.
std::vector<size_t> factorOrder(const OpProjection &p, const OpShardingRule &rule,
                                const AxesPerFactor &axes, const Mesh &mesh, bool elementwiseOp) {
  size_t n = rule.numFactors();
  struct Source {
    int64_t size = -1;
    size_t tensor = SIZE_MAX;
  };
  std::vector<Source> source(n);
  for (size_t t = 0; t < p.numTensors(); ++t) {
    int64_t size = tensorSize(rule, t);
    for (size_t f = 0; f < n; ++f) {
      const TensorFactorShardings &tensor = p.tensor(t);
      if (!tensor.has(f) || axes[f].empty()) continue;
      const AxisList &held = tensor.factors[f].axes;
      bool isSource = held == axes[f] || isStrictPrefix(axes[f], held, mesh);
      if (isSource && size > source[f].size) source[f] = {size, t};
    }
  }
  std::vector<int64_t> ways(n, 1);
  if (elementwiseOp)
    for (size_t f = 0; f < n; ++f)
      for (const AxisRef &a : axes[f]) ways[f] *= a.size(mesh);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tuple(-ways[a], -source[a].size, source[a].tensor, a) <
           std::tuple(-ways[b], -source[b].size, source[b].tensor, b);
  });
  return order;
}

// The axes tensor `tensor` takes for factor `f` out of the factor's
// compatible axes: cut by what the tensor itself allows within the factor,
// nothing unless that adds axes, then cut where another factor of the same
// tensor (as updated so far) already uses an axis.
AxisList axesForTensor(const TensorFactorShardings &tensor, size_t f, const AxisList &compatible,
                       int64_t factorSize, const Mesh &mesh, bool conservative) {
  // The cuts below only shorten `compatible`: a tensor that cannot expand
  // towards it takes nothing.
  if (!tensor.has(f) || !isStrictPrefix(tensor.factors[f].axes, compatible, mesh)) return {};
  AxisList axes = compatible;
  truncateAtConflict(
      axes, [&](const AxisRef &a, int64_t sharded) { return withinFactor(a, tensor, f, sharded, factorSize, mesh); },
      mesh, conservative);
  if (!isStrictPrefix(tensor.factors[f].axes, axes, mesh)) return {};
  truncateAtConflict(
      axes, [&](const AxisRef &a, int64_t) { return withoutOtherFactors(a, tensor, f, mesh); }, mesh,
      conservative);
  return axes;
}

// Shardy's aggressive strategy: every tensor takes what it can of each
// factor's compatible axes on its own (a closed or conflicting tensor does
// not stop the others), and factors compete per tensor in `factorOrder`.
// Results are updated before operands; an elementwise op's operand never
// gets more than the op's results hold, so that a result that cannot take an
// axis does not make every operand gather it (sideways propagation).
void propagateAggressive(OpProjection &p, const OpShardingRule &rule, const Mesh &mesh,
                         const FactorPropagationParams &params, FactorPropagationScratch &scratch) {
  size_t n = rule.numFactors();
  std::vector<bool> &changed = scratch.changed;
  AxesPerFactor &axes = scratch.axes;
  axes.resize(n);
  bool any = false;
  for (size_t f = 0; f < n; ++f) {
    compatibleMajorAxes(axes[f], p, f, directionOf(rule, f, params), mesh);
    any |= !axes[f].empty();
  }
  if (!any) return;
  for (size_t f : factorOrder(p, rule, axes, mesh, params.elementwiseOp)) {
    PropagationDirection dir = directionOf(rule, f, params);
    auto update = [&](size_t t, bool isOperand) {
      TensorFactorShardings &tensor = p.tensor(t);
      AxisList add = axesForTensor(tensor, f, axes[f], rule.factorSizes[f], mesh, params.conservative);
      if (add.empty()) return;
      if (isOperand && params.elementwiseOp)
        for (const TensorFactorShardings &result : p.results)
          if (result.has(f) && isStrictPrefix(result.factors[f].axes, add, mesh)) add = result.factors[f].axes;
      if (tensor.expandFactor(f, add, mesh)) changed[t] = true;
    };
    // A one-way direction moves axes only towards its targets: forward never
    // changes operands, backward never changes results.
    if (dir != PropagationDirection::Backward)
      for (size_t r = 0; r < p.results.size(); ++r) update(p.operands.size() + r, false);
    if (dir != PropagationDirection::Forward)
      for (size_t o = 0; o < p.operands.size(); ++o) update(o, true);
  }
}

}  // namespace

AxesPerFactor compatibleShardingAxes(const OpProjection &projection, const OpShardingRule &rule,
                                     const Mesh &mesh, const FactorPropagationParams &params) {
  AxesPerFactor axes;
  basicAxes(axes, projection, rule, mesh, params, /*onlyExpanding=*/false);
  return axes;
}

const std::vector<bool> &propagateFactors(OpProjection &projection, const OpShardingRule &rule, const Mesh &mesh,
                                          const FactorPropagationParams &params, FactorPropagationScratch &scratch) {
  scratch.changed.assign(projection.numTensors(), false);
  if (params.strategy == FactorStrategy::Aggressive) {
    propagateAggressive(projection, rule, mesh, params, scratch);
    return scratch.changed;
  }
  basicAxes(scratch.axes, projection, rule, mesh, params, /*onlyExpanding=*/true);
  for (size_t t = 0; t < projection.numTensors(); ++t)
    for (size_t f = 0; f < scratch.axes.size(); ++f)
      if (projection.tensor(t).expandFactor(f, scratch.axes[f], mesh)) scratch.changed[t] = true;
  return scratch.changed;
}

std::vector<bool> propagateFactors(OpProjection &projection, const OpShardingRule &rule, const Mesh &mesh,
                                   const FactorPropagationParams &params) {
  FactorPropagationScratch scratch;
  return propagateFactors(projection, rule, mesh, params, scratch);
}

}  // namespace autopart
