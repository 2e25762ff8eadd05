#include "verify/DimAxisAlgebra.h"

namespace autopart {

bool isAxisSuffixOf(const AxisRef &axis, const AxisRef &of, const Mesh &mesh) {
  return axis.name == of.name && axisEnd(axis, mesh) == axisEnd(of, mesh) &&
         axisStart(axis) >= axisStart(of);
}

std::optional<AxisList> gatherAlongDim(const AxisList &dim, const AxisList &gathering,
                                       const Mesh &mesh, AxisRef &bad) {
  AxisList out = dim;
  for (auto it = gathering.rbegin(); it != gathering.rend(); ++it) {
    if (out.empty() || !isAxisSuffixOf(*it, out.back(), mesh)) {
      bad = *it;
      return std::nullopt;
    }
    AxisRef last = out.back();
    out.pop_back();
    // Gathering the minor part of an axis leaves its major part sharded.
    if (axisStart(*it) > axisStart(last))
      out.push_back(makeAxis(last.name, axisStart(last), axisStart(*it) / axisStart(last), mesh));
  }
  return out;
}

AxisList sliceAlongDim(const AxisList &dim, const AxisList &slicing, const Mesh &mesh) {
  AxisList out = dim;
  for (const AxisRef &a : slicing) appendOrMerge(out, a, mesh);
  return out;
}

}  // namespace autopart
