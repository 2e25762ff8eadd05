// Pads and slices of sharded dimensions under Shardy's
// -sdy-resolve-permutation-factors: when every output shard comes from the
// same device's input shard nothing moves; otherwise, with halo exchange on,
// each device gathers the neighbouring shards its window overlaps
// (export/HaloWindowExchange.h) instead of the dimension being replicated.
//
//   %0 = stablehlo.slice %arg0 [0:3] : tensor<8xi32> [{"a"}] on ["a"=2]
//   -> device 1 needs elements [2, 4) held by device 0: one hop left;
//   %mc = sdy.manual_computation(%arg0, %zero) ... { collective_permute,
//         concatenate, pad, dynamic_slice at max(id * -2 + 6, 0) }
//   %0 = stablehlo.slice %mc [0:3]
#pragma once

#include "export/HaloExchange.h"

namespace autopart {

// Whether dimension `dim` of a slice / pad reads only the device's own
// shard when sharded as `s` (null: unsharded).
bool isLocalSliceDim(const Module &m, OpId op, size_t dim, const TensorSharding *s, const Mesh &mesh);
bool isLocalPadDim(const Module &m, OpId op, size_t dim, const TensorSharding *s, const Mesh &mesh);

enum class HaloOutcome {
  Unchanged,    // nothing to exchange: the op stays as it is
  Rewritten,    // replaced by a halo exchange
  Unsupported,  // halo exchange cannot do it: replicate instead
};

HaloOutcome resolvePadByHalo(Module &m, ShardingMap &map, ChannelIds &channels, OpId func, OpId op);
HaloOutcome resolveSliceByHalo(Module &m, ShardingMap &map, ChannelIds &channels, OpId func, OpId op);

}  // namespace autopart
