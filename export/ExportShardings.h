// Shardy shardings as GSPMD `mhlo.sharding` strings throughout a module, the
// conversion XLA's `-xla-sdy-stablehlo-export-pipeline` performs before its
// SPMD partitioner runs (export/GspmdSharding.h has the string form).
//
//   sdy.mesh @mesh = <["x"=2, "y"=2]>
//   func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
//     %0 = sdy.reshard %a <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
//  -> (keepSdy = false)
//   func.func @f(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) {
//     %0 = mhlo.copy %a {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : tensor<8x8xf32>
//
// With keepSdy (`autopart plan --gspmd`) the strings are added next to the
// `sdy.sharding` attributes and nothing else changes.
#pragma once

#include <string>

#include "ir/Module.h"

namespace autopart {

struct ExportOptions {
  bool keepSdy = true;
  bool v3 = false;  // HloSharding V3 strings (export/GspmdSharding.h)
  // Only rewrite the strings the module already has (a GSPMD input planned
  // without --gspmd keeps its strings in step with the plan).
  bool onlyExisting = false;
};

// False with an error at the op in `diags` when a sharding names an unknown
// mesh or has no GSPMD form; the module may then be half converted.
bool exportGspmdShardings(Module &m, const ExportOptions &opts, Diagnostics &diags);

}  // namespace autopart
