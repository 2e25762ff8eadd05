// A Shardy sharding as a GSPMD `mhlo.sharding` string (XLA's HloSharding
// text). Mesh axes become dimensions of an iota device array, split where
// a sub-axis uses part of an axis; the array is transposed so that the
// axes of tensor dimension 0 come first (major to minor), then those of
// dimension 1, ..., then the subgroup dimensions (manual axes, unreduced
// axes, then the axes nothing uses); its reshape into one tile dimension per
// group is the tile assignment. Adjacent array dimensions that stay in order
// are merged, as XLA canonicalises them.
//
//   mesh ["x"=8, "y"=4]
//   [{"x"}, {"y"}]   -> {devices=[8,4]<=[32]}
//   [{"y"}, {}]      -> {devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}
//   [{"x":(2)4}, {}] -> x splits into 2 x 4: array [2,4,4], dim 0 takes the
//                       4 of x, the rest (2 of x, 4 of y) replicate:
//                       {devices=[4,1,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}
//   [{"y"}, {}], unreduced={"x"}
//                    -> {devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={unreduced}
//                        metadata={op_type="sdy::reduction_op" op_name="SUM"}}
//   [{}, {}]         -> {replicated}
//   mesh <[], device_ids=[3]> -> {maximal device=3}
//
// Inside a manual computation over axes M, the sharding is written with a
// `manual` subgroup of M (`{manual}` when M is every axis).
//
// A mesh with explicit device ids that are not the iota order prints the
// devices one by one (`{devices=[2,2]0,2,1,3}`), each replicated group in
// ascending order as XLA canonicalises partial tiling.
//
// With `v3` the string is HloSharding V3, the Shardy sharding spelled with
// its mesh: `{mesh['x'=8,'y'=4], [{'y'}, {}]}`, `device_ids=(...)` for
// explicit ids, `replicated=` / `unreduced=` / `manual=` lists, and
// `{single_device[device_id=3]}` for a maximal mesh.
#pragma once

#include <string>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

struct GspmdOptions {
  bool v3 = false;
  // The manual axes of the enclosing manual computations.
  std::vector<std::string> manualAxes;
};

// Empty string and `error` set when the sharding cannot be written.
std::string gspmdSharding(const TensorSharding &sharding, const Mesh &mesh, std::string *error,
                          const GspmdOptions &opts = {});

// `g` escaped as MLIR prints a string attribute (`"` as `\22`), the contents
// of its `mhlo.sharding` attribute.
std::string escapeGspmd(const std::string &g);

// The tuple form for an op with several results: `{{...}, {...}}`.
std::string gspmdTuple(const std::vector<std::string> &elements);

}  // namespace autopart
