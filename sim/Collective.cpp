#include "sim/Collective.h"

#include "sim/LocalSize.h"

namespace autopart {

const char *collectiveName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllGather: return "all-gather";
  case CollectiveKind::AllSlice: return "all-slice";
  case CollectiveKind::AllToAll: return "all-to-all";
  case CollectiveKind::CollectivePermute: return "collective-permute";
  case CollectiveKind::AllReduce: return "all-reduce";
  case CollectiveKind::ReduceScatter: return "reduce-scatter";
  case CollectiveKind::Broadcast: return "collective-broadcast";
  }
  return "?";
}

std::vector<Collective> reshardCollectives(const TypeTable &types, TypeId t,
                                           const TensorSharding *from, const TensorSharding *to,
                                           const Mesh &mesh, ValueId value) {
  std::vector<Collective> out;
  if (!types.isTensor(t)) return out;
  size_t rank = size_t(types.rank(t));
  std::vector<AxisList> a(rank), b(rank);
  AxisList allA, allB;
  for (size_t d = 0; d < rank; ++d) {
    if (from && d < from->dims.size()) a[d] = mergeAdjacent(from->dims[d].axes, mesh);
    if (to && d < to->dims.size()) b[d] = mergeAdjacent(to->dims[d].axes, mesh);
    allA.insert(allA.end(), a[d].begin(), a[d].end());
    allB.insert(allB.end(), b[d].begin(), b[d].end());
  }
  AxisList gathered = axisSetDiff(allA, allB, mesh);
  AxisList sliced = axisSetDiff(allB, allA, mesh);

  // After the gather each device holds the source minus the gathered axes;
  // all-to-all and permute move buffers of that size.
  TensorSharding inter = TensorSharding::closed(from ? from->meshName : std::string(), rank);
  for (size_t d = 0; d < rank; ++d) inter.dims[d].axes = axisSetDiff(a[d], gathered, mesh);
  int64_t interBytes = localBytes(types, t, &inter, &mesh);
  if (!gathered.empty()) out.push_back({CollectiveKind::AllGather, gathered, interBytes, value});

  AxisList moved, permuted;
  for (size_t d = 0; d < rank; ++d) {
    AxisList staying;
    for (const AxisRef &x : inter.dims[d].axes) {
      if (overlapsAny(x, b[d], mesh))
        staying.push_back(x);
      else
        moved.push_back(x);
    }
    // Axes staying in a dimension keep their devices' data only if they
    // still lead it in the same order.
    bool samePrefix = staying.size() <= b[d].size();
    for (size_t i = 0; samePrefix && i < staying.size(); ++i) samePrefix = staying[i] == b[d][i];
    if (!samePrefix) permuted.insert(permuted.end(), staying.begin(), staying.end());
  }
  if (!moved.empty()) out.push_back({CollectiveKind::AllToAll, moved, interBytes, value});
  if (!permuted.empty()) out.push_back({CollectiveKind::CollectivePermute, permuted, interBytes, value});
  if (!sliced.empty())
    out.push_back({CollectiveKind::AllSlice, sliced, localBytes(types, t, to, &mesh), value});
  return out;
}

}  // namespace autopart
