// A reshape seen as independent groups of dimensions: the shortest runs of
// input and output dimensions whose sizes multiply to the same number. Only
// data inside a group moves relative to the tensor's row-major order, so a
// group of one non-trivial dimension on each side (size-1 dimensions aside)
// is a pass-through.
//
//   12x24 -> 4x3x4x6: groups {in 0 | out 0, 1} (12 = 4*3) and
//                            {in 1 | out 2, 3} (24 = 4*6)
//   6 -> 1x6:         one group {in 0 | out 0, 1}, a pass-through
//
// On top of the groups, the question Shardy's resolve-permutation-factors asks
// of a sharded reshape: does each device already hold the elements it must
// produce? It does when every piece of every mesh axis steps through the same
// number of row-major elements on both sides (with the tile sizes of a
// non-divisible dimension rounded up, as sharding pads them):
//
//   6x2 [{"a"}, {}] -> 3x2x2 [{"a"}, {}, {}] on ["a"=4]:
//     "a" steps ceil(6/4)*2 = 4 elements in, ceil(3/4)*2*2 = 4 out: local.
//   6x2 [{"a"}, {}] -> 4x3 [{"a"}, {}]: 4 in, 3 out: data must move.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

struct ReshapeGroup {
  int64_t inBegin = 0, inEnd = 0;    // input dimensions [inBegin, inEnd)
  int64_t outBegin = 0, outEnd = 0;  // output dimensions [outBegin, outEnd)
  int64_t inNonTrivial = 0, outNonTrivial = 0;  // dimensions of size > 1

  bool isPassThrough() const { return inNonTrivial <= 1 && outNonTrivial <= 1; }
};

std::vector<ReshapeGroup> reshapeGroups(const std::vector<int64_t> &in, const std::vector<int64_t> &out);

// Whether a dimension of `group` (either side) is sharded into pieces that do
// not divide it.
bool groupHasIndivisibleDim(const ReshapeGroup &group, const std::vector<int64_t> &in,
                            const TensorSharding &inSharding, const std::vector<int64_t> &out,
                            const TensorSharding &outSharding, const Mesh &mesh);

// Whether every device holds the same row-major elements of the input under
// `inSharding` and of the output under `outSharding` (see above).
bool shardingLocalAcrossReshape(const std::vector<int64_t> &in, const TensorSharding &inSharding,
                                const std::vector<int64_t> &out, const TensorSharding &outSharding,
                                const Mesh &mesh);

}  // namespace autopart
