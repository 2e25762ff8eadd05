#include "export/UnreducedCollectives.h"

namespace autopart {

namespace {

bool coveredBy(const AxisRef &a, const AxisList &cover, const Mesh &mesh) {
  return subtractAxes({a}, cover, mesh).empty();
}

// Whether `prefix` is `axes` with minor axes (or the minor part of its last
// kept axis) removed; the removed part goes to `rest`.
bool splitPrefix(const AxisList &prefix, const AxisList &axes, const Mesh &mesh, AxisList &rest) {
  if (prefix.size() > axes.size()) return false;
  for (size_t k = 0; k + 1 < prefix.size(); ++k)
    if (prefix[k] != axes[k]) return false;
  size_t n = prefix.size();
  rest.clear();
  if (n) {
    const AxisRef &last = prefix.back(), &whole = axes[n - 1];
    if (!axisPrefixOf(last, whole, mesh)) return false;
    int64_t end = axisEnd(last, mesh), wholeEnd = axisEnd(whole, mesh);
    if (end < wholeEnd) rest.push_back(makeAxis(whole.name, end, wholeEnd / end, mesh));
  }
  rest.insert(rest.end(), axes.begin() + std::ptrdiff_t(n), axes.end());
  return true;
}

}  // namespace

std::optional<ToUnreducedSteps> planToUnreduced(const TensorSharding &source, const TensorSharding &target,
                                                const Mesh &mesh) {
  AxisList added = subtractAxes(target.unreduced, source.unreduced, mesh);
  if (added.empty() || source.rank() != target.rank()) return std::nullopt;
  ToUnreducedSteps steps;
  steps.shardedToUnreduced.resize(source.rank());
  TensorSharding middle = source;
  bool reshard = false;
  AxisList sharded;
  for (size_t d = 0; d < source.rank(); ++d) {
    const AxisList &in = source.dims[d].axes, &out = target.dims[d].axes;
    AxisList rest, kept = out;
    if (splitPrefix(out, in, mesh, rest)) {
      // The removed minor axes that become unreduced stay sharded until the
      // sharded_to_unreduced; any others are gathered by the reshard.
      size_t k = 0;
      while (k < rest.size() && coveredBy(rest[k], added, mesh)) ++k;
      steps.shardedToUnreduced[d].assign(rest.begin(), rest.begin() + std::ptrdiff_t(k));
      kept.insert(kept.end(), rest.begin(), rest.begin() + std::ptrdiff_t(k));
      kept = mergeAdjacent(kept, mesh);
    }
    sharded.insert(sharded.end(), steps.shardedToUnreduced[d].begin(), steps.shardedToUnreduced[d].end());
    steps.anySharded |= !steps.shardedToUnreduced[d].empty();
    if (kept != in) {
      reshard = true;
      middle.dims[d].axes = kept;
      middle.dims[d].closed = true;
    }
  }
  if (reshard) {
    TensorSharding r = middle;
    r.replicated.clear();
    steps.reshard = std::move(r);
  }
  steps.replicatedToUnreduced = subtractAxes(added, sharded, mesh);
  sortAndMerge(steps.replicatedToUnreduced, mesh);
  steps.afterReplicated = middle;
  steps.afterReplicated.replicated = target.replicated;
  AxisList unreduced = source.unreduced;
  unreduced.insert(unreduced.end(), steps.replicatedToUnreduced.begin(), steps.replicatedToUnreduced.end());
  sortAndMerge(unreduced, mesh);
  steps.afterReplicated.unreduced = std::move(unreduced);
  steps.afterReplicated.unreducedKind = target.unreducedKind;
  return steps;
}

}  // namespace autopart
