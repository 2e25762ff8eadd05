// RUN: autopart-opt %s -sdy-propagation-pipeline='inline-meshes=false' | FileCheck %s --check-prefix=SYMBOLS
// RUN: autopart-opt %s -sdy-propagation-pipeline='avoid-export-for-partitioning=true' | FileCheck %s --check-prefix=AVOID
// RUN: autopart-opt %s -sdy-propagation-pipeline='update-non-divisible-input-output-shardings=false' | FileCheck %s --check-prefix=NONDIV

// Shardy's propagation pipeline hands its export options to the export
// pipeline (propagation_pipeline.cc fills ExportOptions from
// PropagationOptions), so each reaches the export step it controls.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// inlineMeshes=false (as XLA's drivers ask when they read the result back):
// -sdy-inline-meshes is skipped, the shardings keep naming @mesh.
// SYMBOLS: sdy.mesh @mesh = <["x"=4, "y"=2]>
// SYMBOLS-LABEL: func.func @meshes_stay_symbols(
// SYMBOLS-SAME:    {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}
// SYMBOLS-NOT:   mesh<[
func.func @meshes_stay_symbols(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// avoid-export-for-partitioning: the module stays fit for another round of
// propagation: the constraint and the group stay, no reshard is inserted.
// AVOID-LABEL: func.func @constraints_and_groups_stay(
// AVOID:         sdy.sharding_constraint %{{.*}} <mesh<["x"=4, "y"=2]>, [{"x"}, {"y"}]>
// AVOID-NEXT:    sdy.sharding_group
// AVOID-NOT:     sdy.reshard
// AVOID:       func.func
func.func @constraints_and_groups_stay(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"y"}]> : tensor<8x8xf32>
  sdy.sharding_group %1 group_id = 3 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// update-non-divisible-input-output-shardings=false: "x"=4 does not divide
// 6, yet the argument keeps it (by default
// -sdy-update-non-divisible-input-output-shardings cuts it down to a part
// that divides evenly).
// NONDIV-LABEL: func.func @non_divisible_boundary_kept(
// NONDIV-SAME:    {sdy.sharding = #sdy.sharding<mesh<["x"=4, "y"=2]>, [{"x"}, {}]>}
func.func @non_divisible_boundary_kept(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}) -> tensor<6x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}
