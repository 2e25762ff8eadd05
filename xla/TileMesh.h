// The mesh hidden in a GSPMD tile assignment, and the Shardy axes of each of
// its tile dimensions -- what XLA's `-xla-sdy-import-shardings` derives.
//
// A tile assignment lists, row-major over its tile dimensions, the mesh
// position of each tile's device. Split every tile dimension into factors;
// the assignment comes from a mesh when each factor moves the position by a
// fixed stride and the strides form a mixed radix (sorted, each is the
// previous stride times the previous size). The factors sorted by stride,
// largest first, are the mesh axes; a tile dimension's factors, major to
// minor, are its axes:
//
//   tileDims [6,35], devices <=[7,10,3]T(2,1,0)
//     dim 0 = 3 (stride 1) x 2 (stride 15); dim 1 = 5 (stride 3) x 7 (stride 30)
//     local mesh [7,2,5,3]; dim 0 -> axes {3,1}, dim 1 -> axes {2,0}
//
// Factors adjacent in one dimension whose strides continue each other merge
// (`[16,1]<=[16]` is one axis of 16, not four of 2). Several shardings share
// one mesh: the common refinement of their local meshes (every boundary
// -- prefix product of axis sizes -- of each), as XLA's common factor
// sequence; [8,4] and [2,16] give [2,4,4].
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

struct LocalMesh {
  std::vector<int64_t> axisSizes;  // major to minor
  // Per tile dimension, its local axes, major to minor.
  std::vector<std::vector<size_t>> dimAxes;
};

// `positions[t]` is the mesh position (0..N-1) of tile t's device. nullopt
// when no mesh layout produces that order.
std::optional<LocalMesh> analyzeTileAssignment(const std::vector<int64_t> &tileDims,
                                               const std::vector<int64_t> &positions);

// The common refinement of `a` and `b` (same product); nullopt when their
// boundaries do not nest (e.g. [2,3] and [3,2]).
std::optional<std::vector<int64_t>> commonAxisSizes(const std::vector<int64_t> &a, const std::vector<int64_t> &b);

// The axes of `mesh` (major to minor) covering local axis `axis` of `local`:
// whole axes, or sub-axes `"a":(pre)size` where the local axis splits one.
// Empty with `error` set when the local axis does not fall on the mesh's
// factor boundaries.
std::vector<AxisRef> globalAxesOf(const LocalMesh &local, size_t axis, const Mesh &mesh, std::string *error);

}  // namespace autopart
