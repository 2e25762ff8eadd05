// XLA's HloSharding text (the `mhlo.sharding` string of a GSPMD program),
// read into a tile assignment: the device of every tile, listed row-major
// over the tile dimensions.
//
//   "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"
//     -> tiled, tileDims [2,1,2], one subgroup dim (replicated),
//        devices 0,1,2,3 (tile (i,0,r) on device 2*i+r)
//   "{devices=[4,2]<=[2,4]T(1,0)}"   -> devices 0,4,1,5,2,6,3,7
//   "{devices=[2,2]0,2,1,3}"          -> devices as listed
//   "{{replicated}, {maximal device=1}}" -> a tuple of two elements
//
// Subgroup dimensions come from `last_tile_dim_replicate` (one replicated
// dimension) or `last_tile_dims={manual, replicated, unreduced}`.
// V3 text names its mesh and is read as the Shardy sharding it spells:
//   "{mesh['x'=2,'y'=4], [{'y'}, {?}], unreduced={'x'}}"
//     -> Named, mesh ["x"=2, "y"=4], dims [{"y"}, {?}], unreduced {"x"}
//   "{mesh['x'=2], device_ids=(1,0), manual}" -> Named, every axis manual
//   "{single_device[device_id=3]}"             -> Maximal, device 3
// `metadata={...}` is kept only for the reduction kind XLA records there
// (`op_type="sdy::reduction_op" op_name="MAX"`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Sharding.h"

namespace autopart {

struct HloSharding {
  enum class Kind { Replicated, Maximal, Manual, Unknown, Tiled, Tuple, Named };
  Kind kind = Kind::Replicated;
  int64_t device = 0;               // Maximal
  std::vector<int64_t> tileDims;    // Tiled: data dims, then subgroup dims
  std::vector<int64_t> devices;     // Tiled: the device of each tile
  std::vector<std::string> subgroupTypes;  // "replicated" | "manual" | "unreduced"
  std::string reductionKind;        // "" (sum) or "MAX", "MIN", ...
  std::vector<HloSharding> elements;  // Tuple
  // Named (V3): the mesh it names, the sharding on it (no mesh name; no
  // dims when written as a whole: `replicated` / `manual`), manual axes.
  Mesh mesh;
  TensorSharding named;
  bool wholeValue = false;
  std::vector<AxisRef> manualAxes;

  size_t numDataDims() const { return tileDims.size() - subgroupTypes.size(); }
  // Number of devices the sharding spans (tiled: product of tileDims).
  int64_t numTiles() const;
};

// Parses `text` (unescaped). nullopt with `error` and the byte offset of the
// problem in `errorOffset` when it is not an HloSharding or its tile
// assignment is inconsistent (sizes, duplicate devices).
std::optional<HloSharding> parseHloSharding(std::string_view text, std::string *error, size_t *errorOffset);

}  // namespace autopart
