// The collectives a change of sharding costs, as XLA would lower Shardy's
// `sdy.reshard`: axes that shard the source but not the target are
// all-gathered, axes that move to another dimension go through an all-to-all,
// axes that stay in a dimension but change order need a collective-permute,
// and axes only in the target are sliced locally (all-slice, free). Reductions
// add all-reduce, and reduce-scatter when the reduced result is then sliced
// along the reduced axes.
//
//   tensor<8x16xf32> [{"x"}, {"y"}] -> [{}, {"x"}] on ["x"=4, "y"=2]
//   -> all-gather {"y"} (local result 2x16: 128 B), all-to-all {"x"} (128 B)
//
// `bytes` is always the per-device buffer the collective works on: the
// gathered result of an all-gather, the unscattered input of a
// reduce-scatter, the buffer of an all-reduce, all-to-all or permute.
#pragma once

#include <vector>

#include "ir/AxisList.h"
#include "ir/Module.h"

namespace autopart {

enum class CollectiveKind : uint8_t {
  AllGather,
  AllSlice,
  AllToAll,
  CollectivePermute,
  AllReduce,
  ReduceScatter,
  // One device of each group sends its buffer to the others (StableHLO's
  // collective_broadcast); reshards never need it.
  Broadcast,
};

const char *collectiveName(CollectiveKind kind);

struct Collective {
  CollectiveKind kind = CollectiveKind::AllGather;
  AxisList axes;      // mesh axes it spans
  int64_t bytes = 0;  // per device, see above
  ValueId value = kNone;  // the tensor it moves
};

// What turning `from` into `to` costs for a value of type `t`; null
// shardings are replicated.
std::vector<Collective> reshardCollectives(const TypeTable &types, TypeId t,
                                           const TensorSharding *from, const TensorSharding *to,
                                           const Mesh &mesh, ValueId value = kNone);

}  // namespace autopart
