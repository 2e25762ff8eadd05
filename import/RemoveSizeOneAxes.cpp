#include "import/RemoveSizeOneAxes.h"

#include <algorithm>

#include "ir/MeshLookup.h"
#include "ir/Pass.h"
#include "ir/ShardingWalk.h"

namespace autopart {

namespace {

bool dropSizeOne(std::vector<AxisRef> &axes, const Mesh &mesh) {
  auto sizeOne = [&](const AxisRef &a) { return !a.isSubAxis() && mesh.axisIndex(a.name) >= 0 && mesh.axisSize(a.name) == 1; };
  auto it = std::remove_if(axes.begin(), axes.end(), sizeOne);
  if (it == axes.end()) return false;
  axes.erase(it, axes.end());
  return true;
}

PassRegistration reg("sdy-remove-size-one-axes", "Remove axes of size one from all shardings",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       removeSizeOneAxes(m);
                       return true;
                     });

}  // namespace

size_t removeSizeOneAxes(Module &m) {
  return rewriteShardings(m, [&](TensorSharding &s) {
    const Mesh *found = shardingMesh(m, s);
    if (!found) return false;
    const Mesh mesh = *found;
    bool changed = false;
    for (DimSharding &d : s.dims) {
      if (!dropSizeOne(d.axes, mesh)) continue;
      changed = true;
      if (d.closed && d.axes.empty()) d.priority.reset();
    }
    changed |= dropSizeOne(s.replicated, mesh);
    changed |= dropSizeOne(s.unreduced, mesh);
    if (s.unreduced.empty()) s.unreducedKind.clear();
    return changed;
  });
}

}  // namespace autopart
