// GSPMD `mhlo.sharding` strings to Shardy, as XLA's
// `-xla-sdy-import-shardings`: one mesh common to every tiled sharding of
// the module (xla/TileMesh.h), one maximal mesh per device a `{maximal}`
// sharding names, and `sdy.sharding` in place of each string.
//
//   func @f(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"},
//           %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,16]<=[32] last_tile_dim_replicate}"})
//   ->
//   sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
//   func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>},
//           %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0"}]>})
//
// `{replicated}` and `{manual}` become closed empty dimensions, `{unknown}`
// open ones, `last_tile_dims={replicated}` / `{unreduced}` the sharding's
// replicated / unreduced axes. A tile assignment that is no iota over the
// mesh gives the mesh `device_ids` (the device order of the first such
// sharding; the others must be layouts of that order).
#pragma once

#include <optional>
#include <string>

#include "ir/Module.h"
#include "xla/HloShardingText.h"

namespace autopart {

struct XlaImportOptions {
  // Generated axis names: `_axis_0`, ... (the pass); the stablehlo import
  // pipeline renames them `axis_0`, ...
  std::string axisPrefix = "_axis_";
};

// False with a located error (nothing changed) when a string is malformed,
// sizes disagree or no common mesh exists.
bool importXlaShardings(Module &m, const XlaImportOptions &opts, Diagnostics &diags);

// A program that already has an `sdy.mesh` and also `mhlo.sharding`
// strings (a Shardy program written by hand, or a plan re-read): a string
// next to an `sdy.sharding` must have the same tile layout; a string alone
// is placed on the program's one device mesh (the common mesh XLA's import
// would build is that mesh when the layouts fit it) and the string stays,
// to be rewritten with the plan. False with a located error, nothing
// changed, when they disagree or a string fits no mesh: no user sharding is
// dropped silently.
//
//   sdy.mesh @m = <["x"=2, "y"=2]>
//   %a {mhlo.sharding = "{devices=[2,2]<=[4]}"}
//   -> %a {mhlo.sharding = "...", sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}
bool mergeXlaShardings(Module &m, Diagnostics &diags);

// The Shardy form of one parsed non-tuple sharding of a rank-`rank` value on
// `mesh` (named `meshName`; its device_ids, when given, place each device on
// it). Maximal shardings name `single_device_<id>`. nullopt with `error`.
// `manual`, when given, receives the axes of a manual subgroup (every axis
// for `{manual}`).
std::optional<TensorSharding> shardyFromHlo(const HloSharding &h, size_t rank, const Mesh &mesh,
                                            const std::string &meshName, std::string *error,
                                            std::vector<AxisRef> *manual = nullptr);

}  // namespace autopart
