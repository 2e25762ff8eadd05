// The one sharding type of autopart, with Shardy's semantics.
//
// A mesh is an ordered list of named axes: `<["data"=8, "model"=4]>`; devices
// are laid out row-major over the axes unless `device_ids` says otherwise.
//
// A tensor sharding gives, per tensor dimension, the mesh axes it is split over
// (major to minor), whether the dimension is closed (`{"a"}`) or open to
// further sharding by propagation (`{"a", ?}`), and an optional priority
// (`{"a"}p1`). Axes listed in `replicated` are explicitly not sharded; axes in
// `unreduced` hold partial sums still to be reduced. Example on mesh
// ["x"=8, "y"=4], a 1024x512 tensor:
//
//   #sdy.sharding<@mesh, [{"x"}, {"y":(2)2, ?}], replicated={"y":(1)2}>
//
// splits dim 0 eight ways over x and dim 1 two ways over the minor half of y
// (a sub-axis `"y":(pre)size`), leaving the major half of y replicated; the
// local shard is 128x256.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autopart {

struct MeshAxis {
  std::string name;
  int64_t size = 1;
  bool operator==(const MeshAxis &) const = default;
};

struct Mesh {
  std::vector<MeshAxis> axes;
  std::vector<int64_t> deviceIds;  // Empty means iota over all devices.

  int64_t numDevices() const;
  // Index of the axis called `name`, or -1.
  int axisIndex(std::string_view name) const;
  int64_t axisSize(std::string_view name) const;
  // A maximal mesh has no axes and a single device id.
  bool isMaximal() const { return axes.empty() && deviceIds.size() == 1; }
  // `<["a"=2, "b"=4]>`, `<["a"=2], device_ids=[1, 0]>`.
  std::string str() const;
  bool operator==(const Mesh &) const = default;
};

// A full axis ("a") or a sub-axis ("a":(pre)size). Splitting axis a=8 as
// 2x4, "a":(1)2 is the major factor 2 and "a":(2)4 the minor factor 4: `pre`
// is the product of the factors more major than this one.
struct AxisRef {
  std::string name;
  int64_t preSize = 0;  // 0: the full axis.
  int64_t subSize = 0;

  bool isSubAxis() const { return subSize != 0; }
  int64_t size(const Mesh &mesh) const;
  // Whether both refer to overlapping devices of the same axis.
  bool overlaps(const AxisRef &other, const Mesh &mesh) const;
  std::string str() const;  // `"a"` or `"a":(2)4`
  bool operator==(const AxisRef &) const = default;
};

struct DimSharding {
  std::vector<AxisRef> axes;
  bool closed = true;
  std::optional<int64_t> priority;

  int64_t shardCount(const Mesh &mesh) const;
  std::string str() const;  // `{"a", ?}p2`
  bool operator==(const DimSharding &) const = default;
};

struct TensorSharding {
  // Either the symbol name of an `sdy.mesh` (without '@') or an inline mesh.
  std::string meshName;
  std::optional<Mesh> inlineMesh;
  std::vector<DimSharding> dims;
  std::vector<AxisRef> replicated;
  std::vector<AxisRef> unreduced;
  // Reduction of the unreduced partial values when not a sum (`max`, ...).
  std::string unreducedKind;

  // A fully open, unsharded sharding of the given rank.
  static TensorSharding open(std::string meshName, size_t rank);
  static TensorSharding closed(std::string meshName, size_t rank);

  size_t rank() const { return dims.size(); }
  bool isFullyReplicated() const;
  // Pieces the tensor is split into: the product of the dimensions' shard
  // counts ([{"a"}, {"b"}] on ["a"=2, "b"=4]: 8).
  int64_t numShards(const Mesh &mesh) const;
  // Local shard shape for a global shape under `mesh` (ceil division).
  std::vector<int64_t> localShape(const std::vector<int64_t> &shape,
                                  const Mesh &mesh) const;
  // Every axis used by dims, replicated and unreduced, in that order.
  std::vector<AxisRef> allAxes() const;
  // Checks Shardy's invariants: each axis at most once, no overlapping
  // sub-axes, axes exist in the mesh, sub-axes divide their axis, rank
  // matches. Returns an empty string when valid, else what is wrong.
  std::string verify(const Mesh &mesh, int64_t rank) const;

  // `<@mesh, [{"a"}, {}]>` as inside `sharding_per_value`.
  std::string strBody() const;
  // `#sdy.sharding<@mesh, [{"a"}, {}]>`.
  std::string str() const { return "#sdy.sharding" + strBody(); }
  bool operator==(const TensorSharding &) const = default;
};

// A plan: the sharding of every value, indexed by ValueId (nullopt: not
// sharded yet / replicated). Tactics, the search and the output stage all
// exchange plans in this form.
using ShardingVector = std::vector<std::optional<TensorSharding>>;

}  // namespace autopart
