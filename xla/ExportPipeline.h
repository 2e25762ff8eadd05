// `-xla-sdy-stablehlo-export-pipeline`: a Shardy module as XLA's pass of
// that name leaves it for the GSPMD partitioner.
//
//   sdy.mesh @mesh = <["x"=8, "y"=4]>
//   %c = sdy.constant {sdy.sharding = ...<@mesh, [{"x"}, {}]>} dense<1.0> : tensor<8x8xf32>
//   %r = sdy.reshard %c <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
//   %s = sdy.all_reduce {"x"} %r out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
//   ->
//   %c = stablehlo.constant {mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"} dense<1.0> : ...
//   %r = mhlo.copy %c {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}"} : ...
//   (the all_reduce over axes that are not unreduced forwards its operand)
//
// Also: `sdy.sharding_constraint` as `@Sharding` custom calls,
// `sdy.propagation_barrier` dropped, while loops without a sharding marked
// replicated, manual computations as `@SPMDFullToShardShape` / a call of
// their outlined body / `@SPMDShardToFullShape` (shardings inside carry the
// manual axes), the result of a host callback wrapped in a tuple read by
// `get_tuple_element`, and the sharding of `@mhlo.*` custom calls moved into
// their `mhlo.attributes`; the module's entry shardings
// (`sdy.parameters_shardings` / `sdy.output_shardings`) become
// `mhlo.spmd_parameters_shardings` / `mhlo.spmd_output_sharding`.
// `enable-hlo-sharding-v3=true` writes V3 strings
// (export/GspmdSharding.h).
#pragma once

#include "ir/Module.h"

namespace autopart {

struct XlaExportOptions {
  bool v3 = false;
};

// False with a located error when a sharding has no GSPMD form.
bool exportToXla(Module &m, const XlaExportOptions &opts, Diagnostics &diags);

}  // namespace autopart
