// `-xla-sdy-stablehlo-import-pipeline`: a program as `jax.jit(...).lower()`
// prints it for GSPMD, read into Shardy:
//
//   - `mhlo.sharding` strings -> `sdy.sharding` on one common mesh with
//     axes `axis_0`, `axis_1`, ... (xla/ImportShardings.h);
//   - shard_map's pattern -> `sdy.manual_computation`:
//       %0 = custom_call @Sharding(%x) {mhlo.sharding = "{devices=[8,1]<=[8]}"}
//       %1 = custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"}
//       %2 = call @body(%1)
//       %3 = custom_call @Sharding(%2) {mhlo.sharding = "{manual}"}
//       %4 = custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[8,1]<=[8]}"}
//     ->
//       %4 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"axis_0"}, {}]>]
//              out_shardings=[<@mesh, [{"axis_0"}, {}]>] manual_axes={"axis_0"} (%l) { body }
//     (`last_tile_dims={manual}` makes only the axes of that subgroup manual);
//   - other `@Sharding` custom calls -> `sdy.sharding_constraint`, the
//     dimensions in `backend_config = "unspecified_dims=[...]"` open;
//   - `@xla.sdy.ShardingGroup` custom calls -> `sdy.sharding_group`;
//   - custom calls on `stablehlo.tuple` operands / with a tuple result read
//     by `get_tuple_element` -> one operand / result per element;
//   - Shardy attributes XLA carried as strings in `mhlo.frontend_attributes`
//     (`xla.sdy.meshes` on the module, `xla.sdy.sharding` on values) ->
//     `sdy.mesh` ops and `sdy.sharding` attributes;
//   - `stablehlo.constant` -> `sdy.constant`;
//   - values a while loop uses from outside that have a sharding -> an open
//     `sdy.sharding_constraint` before the loop (constants excepted).
#pragma once

#include "ir/Module.h"

namespace autopart {

// False with a located error (malformed strings, a shard_map pattern whose
// pieces disagree).
bool importFromXla(Module &m, Diagnostics &diags);

// Whether `m` is a GSPMD program whose shardings say something: no
// `sdy.mesh`, and a `mhlo.sharding` other than `{replicated}` / `{unknown}`
// or a `@Sharding` / `@SPMDFullToShardShape` custom call or Shardy meshes in
// its frontend attributes. A program whose
// strings are all replicated (a one-device export) pins nothing.
bool isGspmdProgram(const Module &m);

// How autopart reads a program's XLA shardings, the one path `plan` and the
// propagated copy share: a GSPMD program through importFromXla (`*imported`
// set), any other through mergeXlaShardings (strings beside an `sdy.mesh`
// checked against, or added to, the Shardy ones). False with a located error.
bool readXlaShardings(Module &m, Diagnostics &diags, bool *imported = nullptr);

}  // namespace autopart
