// Operations on ordered lists of mesh axes (a dimension's or a factor's
// sharding, major to minor) that the reshard planner and the cost model share.
// Sub-axes are compared by the device range they cover: on mesh ["x"=4],
// "x":(1)2 covers the major half of x, "x":(2)2 the minor half, and the two
// next to each other merge back into "x":
//
//   mergeAdjacent(["x":(1)2, "x":(2)2])          == ["x"]
//   isStrictPrefix(["x":(1)2], ["x", "y"])       == true
//   truncateWithoutOverlap(["x", "y"], ["y"])    == ["x"]
//   axisSetDiff(["x", "y"], ["y"])               == ["x"]
//
// Single-axis relations used by propagation, on mesh ["x"=8]:
//
//   axisPrefixOf("x":(1)2, "x")                  == true  (same start, shorter)
//   axisContains("x", "x":(2)2)                  == true  (range [2,4) in [1,8))
//   prefixWithoutOverlap("x", {"x":(4)2})        == "x":(1)4
//   appendOrMerge(["x":(1)2], "x":(2)4)          -> ["x"]
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

using AxisList = std::vector<AxisRef>;

// The sub-axis `name`:(pre)size, or the full axis when it covers all of it.
AxisRef makeAxis(const std::string &name, int64_t pre, int64_t size, const Mesh &mesh);
// The first device index and size covered by `a` within its axis.
inline int64_t axisStart(const AxisRef &a) { return a.isSubAxis() ? a.preSize : 1; }
// One past the last device index covered by `a` within its axis: pre * size.
int64_t axisEnd(const AxisRef &a, const Mesh &mesh);
int64_t axesSize(const AxisList &axes, const Mesh &mesh);
// `a` starts where `b` starts and is not longer (equal counts as a prefix).
bool axisPrefixOf(const AxisRef &a, const AxisRef &b, const Mesh &mesh);
// `a` covers every device index that `b` covers.
bool axisContains(const AxisRef &a, const AxisRef &b, const Mesh &mesh);
// Whether two (sub-)axes can shard one tensor together: different axes, or
// parts of one decomposition of the axis (their boundaries divide each other).
// On ["a"=6], "a":(1)2 and "a":(3)2 cannot (2 does not divide 3).
bool canCoexist(const AxisRef &a, const AxisRef &b, const Mesh &mesh);
// The longest major part of `a` that overlaps nothing in `others` (and can
// coexist with all of them), if any.
std::optional<AxisRef> prefixWithoutOverlap(const AxisRef &a, const AxisList &others,
                                            const Mesh &mesh);
// Appends `a`, merging it into the last axis when the two abut.
void appendOrMerge(AxisList &list, const AxisRef &a, const Mesh &mesh);
bool overlapsAny(const AxisRef &a, const AxisList &list, const Mesh &mesh);
bool axisListsOverlap(const AxisList &a, const AxisList &b, const Mesh &mesh);
// Whether `a` shards strictly less than `b` along the same major-to-minor
// order; the last axis of `a` may be a major sub-axis of `b`'s axis there.
bool isStrictPrefix(const AxisList &a, const AxisList &b, const Mesh &mesh);
// Joins consecutive sub-axes of the same axis that abut.
AxisList mergeAdjacent(const AxisList &axes, const Mesh &mesh);
// Keeps the longest prefix of `a` disjoint from `b` (a partly overlapping axis
// keeps its major non-overlapping part). Returns whether `a` changed.
bool truncateWithoutOverlap(AxisList &a, const AxisList &b, const Mesh &mesh);
// The axes of `a` that overlap nothing in `b`.
AxisList axisSetDiff(const AxisList &a, const AxisList &b, const Mesh &mesh);
// The devices of `a` that `b` does not cover, as Shardy's getAxisSetDiff
// computes them: a partly covered axis keeps its uncovered sub-axes, in
// `a`'s order, so on ["x"=16] {"x":(2)8} minus {"x":(4)2} is
// {"x":(2)2, "x":(8)2}.
AxisList subtractAxes(const AxisList &a, const AxisList &b, const Mesh &mesh);
// Orders axes as the mesh does (axis index, then major sub-axes first).
void sortByMesh(AxisList &axes, const Mesh &mesh);
// Whether `axes` are in that order already.
bool isSortedByMesh(const AxisList &axes, const Mesh &mesh);
// Same, and merges abutting sub-axes: what Shardy prints for reduction axes.
void sortAndMerge(AxisList &axes, const Mesh &mesh);
// A total order on lists (shorter prefixes first), for deterministic ties.
bool axisListLess(const AxisList &a, const AxisList &b, const Mesh &mesh);
// `{"x", "y":(1)2}`; with brackets "[]" `["x", "y":(1)2]`, as Shardy's
// messages print a list.
std::string axisListStr(const AxisList &axes, std::string_view brackets = "{}");

}  // namespace autopart
