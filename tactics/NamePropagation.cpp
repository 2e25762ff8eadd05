#include "tactics/NamePropagation.h"

namespace autopart {

NamePropagationStats shardName(const Module &m, const NamedDimensions &nd, NameId32 name,
                               const std::string &axis, const std::string &meshName,
                               const ManualAxes &manual, ShardingVector &state) {
  NamePropagationStats stats;
  if (name >= nd.names.size()) return stats;
  for (const DimRef &ref : nd.names[name].members) {
    if (manual.binds(ref.value, axis)) {
      ++stats.skipped;
      continue;
    }
    std::optional<TensorSharding> &s = state[ref.value];
    size_t rank = size_t(m.types.rank(m.type(ref.value)));
    if (!s) s = TensorSharding::closed(meshName, rank);
    bool used = false;
    for (const AxisRef &a : s->allAxes()) used |= a.name == axis;
    if (used) {
      // Either this name already reached the value through another member
      // (a conflict: the first dimension keeps it) or another name holds
      // the axis here.
      bool already = false;
      for (const AxisRef &a : s->dims[ref.dim].axes) already |= a.name == axis;
      if (!already) ++stats.skipped;
      continue;
    }
    s->dims[ref.dim].axes.push_back(AxisRef{axis, 0, 0});
    ++stats.sharded;
  }
  return stats;
}

}  // namespace autopart
