// Halo exchange for ops whose output shard reads a window of the input that
// is offset from the device's own shard (pad, slice), as Shardy's
// -sdy-resolve-permutation-factors builds it. Per sharded dimension:
//
// 1. plan: for every shard t, which input shards its window
//    [t*sOut - low, t*sOut - low + footprint) overlaps, giving the most
//    shards any device must reach to its left and right (hops);
// 2. inside a manual computation over the sharded axes, concatenate the
//    neighbours' shards (collective permutes) around the own shard, pad the
//    buffer with `footprint` elements (times the interior dilation) on both
//    sides, and dynamic-slice each device's window at
//      max(idInGroup * (sOut - sIn*dilation) + (-low + left*sIn*dilation
//          + footprint*dilation), 0)
//    where idInGroup is the device's shard index along the dimension,
//    computed from the partition (or replica) id.
//
//   pad 4x8 [{"a"}, {"b"}] low=[-1, 0] high=[4, 0] on ["a"=2, "b"=2]:
//   dimension 0: sIn 2, sOut 4, device 0 needs input [1, 5): one hop right.
//   %mc = sdy.manual_computation(%x, %pad) ... (%l: tensor<2x4xi32>, %p) {
//     %r = "stablehlo.collective_permute"(%l) <{source_target_pairs = [[2, 0], [3, 1]]}>
//     %c = stablehlo.concatenate %l, %r, dim = 0
//     %b = stablehlo.pad %c, %p, low = [4, 0], high = [4, 0], interior = [0, 0]
//     ... %o = max(id * 2 + 5, 0) ...
//     sdy.return (stablehlo.dynamic_slice %b, %o, %zero, sizes = [4, 4])
//   }
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "export/HaloExchange.h"

namespace autopart {

struct DimExchange {
  int64_t dim = 0;
  int64_t sOut = 0;       // output elements per shard
  int64_t footprint = 0;  // input elements (undilated) a shard's window spans
  int64_t leftHops = 0, rightHops = 0;
  bool needsComm = false;
  // A window reaching more than one shard away cannot be gathered when the
  // neighbours it needs cover every shard.
  bool canUseHalo = true;
  // When set, the axes the shards are numbered along (a reshape numbers them
  // along its output dimensions) instead of the input dimension's own.
  std::vector<AxisRef> axes;
  // When set, each shard's window start in the buffer, looked up by shard
  // index, instead of the affine formula.
  std::vector<int64_t> offsets;
};

struct DataExchange {
  std::vector<int64_t> divisibleShape;  // the input padded to whole shards
  std::set<std::string> manual;         // the axes of every sharded dimension
  std::vector<DimExchange> dims;        // one per sharded dimension, in order
  bool needsComm() const;
  bool canUseHalo() const;
};

// Plans one dimension of `inputSize` elements cut into `count` shards of
// `sIn` (after padding to whole shards).
// Pieces dimension `d` is cut into by the manual axes alone (the local size
// inside a manual computation over `manual` is the padded size over this).
int64_t manualShardCount(const DimSharding &d, const Mesh &mesh, const std::set<std::string> &manual);

DimExchange planDimExchange(int64_t count, int64_t sIn, int64_t sOut, int64_t footprint, int64_t padLow,
                            int64_t baseDilation, int64_t inputSize);

// Fills `divisibleShape` and `manual` for `shape` under `sharding` and calls
// `plan(dim, sIn, count)` for every sharded dimension.
DataExchange planDataExchange(const std::vector<int64_t> &shape, const TensorSharding &sharding, const Mesh &mesh,
                              const std::function<DimExchange(int64_t, int64_t, int64_t)> &plan);

// Builds the manual computation over `plan.manual` taking `divisibleInput`
// (sharded by `in`) and the scalar `padding`, exchanging every dimension that
// needs it, then running `post` on the local result (with the local padding
// value and the local shape of the padded global result) before returning
// it. The result is the computation's value, of type `paddedResult`, sharded
// by `out`.
using LocalPostProcess = std::function<ValueId(OpPlacer &, ValueId local, ValueId localPadding,
                                               const std::vector<int64_t> &localResultShape)>;
ValueId haloWindowExchange(OpPlacer &at, ChannelIds &channels, ValueId divisibleInput, ValueId padding,
                           TypeId paddedResult, const TensorSharding &in, const TensorSharding &out,
                           const Mesh &mesh, const DataExchange &plan, const std::vector<int64_t> &padLow,
                           const std::vector<int64_t> &baseDilation, const LocalPostProcess &post);

// A scalar zero of `element` type.
ValueId zeroScalar(OpPlacer &at, TypeId element);

// `v` padded with `padding` (a fresh zero when kNone) at the high end of
// every dimension up to `shape`, sharded by `sharding`; `v` itself when it
// already has that shape.
ValueId padHighToShape(OpPlacer &at, ValueId v, const std::vector<int64_t> &shape, const TensorSharding &sharding,
                       ValueId padding);
// `v` sliced to its first `shape` elements per dimension, sharded by
// `sharding`; `v` itself when it already has that shape.
ValueId sliceHighToShape(OpPlacer &at, ValueId v, const std::vector<int64_t> &shape, const TensorSharding &sharding);

}  // namespace autopart
