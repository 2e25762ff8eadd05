// Device groups of a collective over some mesh axes, and the attributes a
// StableHLO collective spells them with. Devices that differ only in the
// coordinates of the axes form one group, ordered by those coordinates (in
// the order the axes are listed); groups by their first device position;
// device ids from the mesh's `device_ids` when it lists them.
//
//   mesh ["x"=2, "y"=2], axes {"y"}  -> [[0, 1], [2, 3]]
//   mesh ["x"=2, "y"=2], axes {"x"}  -> [[0, 2], [1, 3]]
//   deviceGroupsAttr(m, that)        -> dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ir/Module.h"
#include "ir/Sharding.h"

namespace autopart {

std::vector<std::vector<int64_t>> deviceGroups(const Mesh &mesh, const std::vector<AxisRef> &axes);

// Row-major coordinates, one per mesh axis, of the device at `position` in
// the mesh's order (mesh ["x"=2, "y"=4], position 6 -> [1, 2]).
std::vector<int64_t> meshCoordinates(const Mesh &mesh, int64_t position);
// The position of device `id`: its index in `device_ids`, or the id itself
// when the mesh lists none; -1 when the mesh has no such device.
int64_t devicePosition(const Mesh &mesh, int64_t id);

// `dense<[[...], ...]> : tensor<GxNxi64>`, a collective's `replica_groups`.
AttrId deviceGroupsAttr(Module &m, const std::vector<std::vector<int64_t>> &groups);

// The rows of an op's 2-D integer attribute (`replica_groups`,
// `source_target_pairs`: `dense<[[0, 4], [1, 5]]> : tensor<2x2xi64>`, in
// text or hex), without the -1 padding of ragged groups. Empty when the op
// lacks it or it is not a dense integer tensor.
std::vector<std::vector<int64_t>> denseIntRows(const Module &m, OpId op, std::string_view attr);

// The mesh axes whose device groups are `groups` (each group and the list
// compared as sets, in mesh axis order), the inverse of deviceGroups over
// full axes; nullopt when no set of axes gives them (ragged groups, groups
// along part of an axis).
//
//   mesh ["x"=2, "y"=4], [[0, 4], [1, 5], [2, 6], [3, 7]] -> {"x"}
//   mesh ["x"=2, "y"=4], [[0, 1, 2, 3], [4, 5, 6, 7]]     -> {"y"}
//   mesh ["x"=2, "y"=4], [[0, 1], [2, 3], ...]             -> nullopt (half of y)
std::optional<std::vector<AxisRef>> axesOfGroups(const Mesh &mesh, const std::vector<std::vector<int64_t>> &groups);

// The largest `channel_handle` the module's collectives already use (0:
// none), so a new collective takes the next one as XLA numbers them.
int64_t lastChannelHandle(const Module &m);

}  // namespace autopart
