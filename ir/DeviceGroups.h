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

#include <vector>

#include "ir/Module.h"
#include "ir/Sharding.h"

namespace autopart {

std::vector<std::vector<int64_t>> deviceGroups(const Mesh &mesh, const std::vector<AxisRef> &axes);

// `dense<[[...], ...]> : tensor<GxNxi64>`, a collective's `replica_groups`.
AttrId deviceGroupsAttr(Module &m, const std::vector<std::vector<int64_t>> &groups);

// The largest `channel_handle` the module's collectives already use (0:
// none), so a new collective takes the next one as XLA numbers them.
int64_t lastChannelHandle(const Module &m);

}  // namespace autopart
