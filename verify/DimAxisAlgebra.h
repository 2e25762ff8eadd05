// The axis-list algebra Shardy's collective checks are stated in: what a
// collective's axes do to one dimension's sharding (major to minor). On mesh
// ["x"=8, "y"=2]:
//
//   gatherAlongDim(["y", "x"], ["x":(2)4])  == ["y", "x":(1)2]   (a suffix removed)
//   sliceAlongDim(["x":(1)2], ["x":(2)2])   == ["x":(1)4]        (appended, merged)
//   isAxisSuffixOf("x":(2)4, "x")           == true
#pragma once

#include <optional>

#include "ir/AxisList.h"

namespace autopart {

// `axis` covers the minor end of `of`: same axis, same end, starting no earlier.
bool isAxisSuffixOf(const AxisRef &axis, const AxisRef &of, const Mesh &mesh);

// A dimension's sharding with `gathering` removed from its minor end; nullopt
// when they are not its minor axes, with `bad` the first gathering axis
// (from the minor end) that cannot be removed.
std::optional<AxisList> gatherAlongDim(const AxisList &dim, const AxisList &gathering,
                                       const Mesh &mesh, AxisRef &bad);
// A dimension's sharding with `slicing` appended (merging abutting sub-axes).
AxisList sliceAlongDim(const AxisList &dim, const AxisList &slicing, const Mesh &mesh);

}  // namespace autopart
