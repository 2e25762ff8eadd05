// A Shardy sharding as a GSPMD `mhlo.sharding` string (XLA's HloSharding
// text). Mesh axes become dimensions of an iota device array, split where
// a sub-axis uses part of an axis; the array is transposed so that the
// axes of tensor dimension 0 come first (major to minor), then those of
// dimension 1, ..., then the axes no dimension uses; its reshape into one
// tile dimension per tensor dimension (plus one for the unused axes,
// `last_tile_dim_replicate`) is the tile assignment. Adjacent array
// dimensions that stay in order are merged, as XLA canonicalises them.
//
//   mesh ["x"=8, "y"=4]
//   [{"x"}, {"y"}]   -> {devices=[8,4]<=[32]}
//   [{"y"}, {}]      -> {devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}
//   [{"x":(2)4}, {}] -> x splits into 2 x 4: array [2,4,4], dim 0 takes the
//                       4 of x, the rest (2 of x, 4 of y) replicate:
//                       {devices=[4,1,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}
//   [{}, {}]         -> {replicated}
//   mesh <[], device_ids=[3]> -> {maximal device=3}
//
// A mesh with explicit device ids that are not the iota order prints the
// devices one by one (`{devices=[2,2]0,2,1,3}`). Unreduced axes have no
// GSPMD form here and are an error.
#pragma once

#include <string>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

// Empty string and `error` set when the sharding cannot be written.
std::string gspmdSharding(const TensorSharding &sharding, const Mesh &mesh, std::string *error);

// The tuple form for an op with several results: `{{...}, {...}}`.
std::string gspmdTuple(const std::vector<std::string> &elements);

}  // namespace autopart
