// The shardings a tensor can take when each of a list of whole mesh axes
// goes on at most one of its dimensions: the per-value candidates of the
// refinement (search/Refine.h) and of the ILP baseline's argument and
// constant nodes (search/ilp/IlpBuilder.h).
//
//   shape [8, 6] on mesh <["data"=2, "model"=4]>, axes {"data", "model"}:
//     [{}, {}]  [{"data"}, {}]  [{}, {"data"}]  [{"model"}, {}]
//     [{"data", "model"}, {}]  [{"model"}, {"data"}]
//   ([{}, {"model"}] is left out: 4 does not divide 6.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

// Closed shardings of `shape` on mesh `meshName`, replicated first, then in
// the order of an odometer whose first axis turns fastest. A dimension keeps
// its axes in the order of `axes` and is kept only if their product divides
// its size.
// Advances an odometer over placements of axes: choice[a] is the slot
// (0 .. slots-1: a dimension, a factor) axis `a` goes on, or -1 for none;
// the first axis turns fastest. False once every combination was visited
// (choice is back to all -1).
bool nextAxisChoice(std::vector<int> &choice, int slots);

std::vector<TensorSharding> everyAxisPlacement(const std::string &meshName, const Mesh &mesh,
                                               const std::vector<std::string> &axes,
                                               const std::vector<int64_t> &shape);

}  // namespace autopart
