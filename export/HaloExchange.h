// Building blocks for resolving a permutation factor by exchanging data
// between neighbouring devices instead of replicating (Shardy's halo
// exchange in -sdy-resolve-permutation-factors):
//
// - `shiftPairs`: the collective-permute pairs that move every shard of a
//   dimension `offset` shards further along the dimension's axes
//   (["a"=2, "b"=2], dimension on "a", offset 1: [[0, 2], [1, 3]]);
// - `reversedMesh`: the mesh whose device order runs backwards along some
//   axes, so that a reversed tensor keeps its shards where they are
//   (["a"=2, "b"=2] reversed along "a": device_ids=[2, 3, 0, 1]);
// - `haloRightShift`: a manual computation shifting a padded tensor's
//   elements to higher indices along some dimensions, so that padding at the
//   high end of a dimension moves to its low end:
//
//   %s = sdy.manual_computation(%x) ... manual_axes={"a"} (%l: tensor<3x8xf32>) {
//     %n = "stablehlo.collective_permute"(%l) <{source_target_pairs = [[0, 2], [1, 3]]}>
//     %t = stablehlo.slice %n [2:3, 0:8]   // the last row of the left neighbour
//     %h = stablehlo.slice %l [0:2, 0:8]   // the own rows, minus the last
//     sdy.return (stablehlo.concatenate %t, %h, dim = 0)
//   }
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ir/Module.h"
#include "sim/ShardingMap.h"

namespace autopart {

// Places new ops in a block before a given op, taking over its source
// position, and gives each result a sharding when asked.
struct OpPlacer {
  Module &m;
  ShardingMap &map;
  OpId near;
  BlockId block;
  OpId before;  // kNone: append

  OpId create(std::string_view name, const std::vector<ValueId> &operands, const std::vector<TypeId> &types,
              const std::vector<NamedAttr> &attrs = {}, const TensorSharding *sharding = nullptr,
              uint32_t numRegions = 0);
  ValueId value(std::string_view name, const std::vector<ValueId> &operands, TypeId type,
                const std::vector<NamedAttr> &attrs = {}, const TensorSharding *sharding = nullptr) {
    return m.result(create(name, operands, {type}, attrs, sharding));
  }
};

// Channel ids for new collective permutes: after the module's largest one,
// none when devices are replicas (cross-replica permutes take no channel; a
// device then knows itself by its replica id instead of its partition id).
struct ChannelIds {
  int64_t next = 1;
  bool crossPartition = true;
  static ChannelIds forModule(const Module &m, bool crossPartition);
};

std::vector<int64_t> shiftPairs(const Mesh &mesh, const std::vector<AxisRef> &dimAxes, int64_t offset);

// A collective permute of `input` along `pairs` (source, target, ...), with a
// fresh channel id when devices are partitions.
ValueId collectivePermute(OpPlacer &at, ChannelIds &channels, ValueId input, const std::vector<int64_t> &pairs,
                          const TensorSharding *sharding);

Mesh reversedMesh(const Mesh &mesh, const std::vector<AxisRef> &axesToReverse);

// `s` without the axes named in `manual`, as seen inside a manual computation
// over those axes.
TensorSharding withoutAxes(TensorSharding s, const std::set<std::string> &manual);

// Shifts `input` (global, shape divisible by its sharding's manual axes) by
// `shifts[k]` elements towards higher indices along `dims[k]` in a manual
// computation over `manual`; returns the computation's (global) result.
ValueId haloRightShift(OpPlacer &at, ChannelIds &channels, ValueId input, const TensorSharding &sharding,
                       const Mesh &mesh, const std::set<std::string> &manual, const std::vector<int64_t> &dims,
                       const std::vector<int64_t> &shifts);

}  // namespace autopart
