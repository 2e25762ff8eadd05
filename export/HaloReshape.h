// A reshape that splits one dimension sharded into non-divisible pieces
// (6 elements on 4 devices -> 2x3), under Shardy's
// -sdy-resolve-permutation-factors with halo exchange: the input is padded
// to whole shards (8), and each device gathers from its neighbours the
// elements of its output tile, looked up per tile in a table of window
// starts, then reshapes them locally.
//
//   %0 = stablehlo.reshape %x : tensor<6xi32> [{"a"}] -> tensor<2x3xi32>
//        [{"a":(1)2}, {"a":(2)2}] on ["a"=4]
//   output tiles start at elements 0, 2, 3, 5; device 2 holds [4, 6) and
//   needs [3, 5): one hop left for every device.
//   -> pad to 8, manual computation over "a": collective permute by one,
//      concatenate, pad, dynamic_slice at table[id] (= [4, 4, 3, 3]),
//      reshape to 1x2; slice the 2x4 result to 2x3.
//
// Only splits qualify (one input dimension, several output dimensions, no
// size-1 dimensions, the output sharded over the same axes in the same
// order, each tile at most one shard away); anything else is replicated.
#pragma once

#include "export/HaloPadSlice.h"

namespace autopart {

HaloOutcome resolveReshapeByHalo(Module &m, ShardingMap &map, ChannelIds &channels, OpId func, OpId op,
                                 const TensorSharding &in, const TensorSharding &out, const Mesh &mesh);

}  // namespace autopart
