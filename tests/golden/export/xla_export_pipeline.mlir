// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline -split-input-file | FileCheck %s

// Shardy shardings become GSPMD strings, the mesh goes away, and reshards
// and explicit collectives become mhlo.copy ops carrying their target.

sdy.mesh @mesh = <["x"=8, "y"=4]>

// CHECK-LABEL: func @arguments_results_and_ops
// CHECK-NOT: sdy.mesh
// CHECK-SAME: %arg0: tensor<64x32xf32> {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}"}
// CHECK-SAME: %arg1: tensor<64x32xf32> {mhlo.sharding = "{devices=[8,4]<=[32]}"}
// CHECK-SAME: -> (tensor<64x32xf32> {mhlo.sharding = "{devices=[4,1,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"})
func.func @arguments_results_and_ops(%arg0: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                                     %arg1: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)4}, {}]>}) {
  // CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{devices=[32,1]<=[32]}"}
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<64x32xf32>
  // CHECK-NEXT: %1 = mhlo.copy %0 {mhlo.sharding = "{replicated}"}
  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<64x32xf32>
  // CHECK-NEXT: %2 = mhlo.copy %1 {mhlo.sharding = "{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate}"}
  %2 = sdy.all_slice [{}, {"y"}] %1 out_sharding=<@mesh, [{}, {"y"}]> : tensor<64x32xf32>
  // CHECK-NEXT: return %2
  return %2 : tensor<64x32xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func @several_results_make_a_tuple
// CHECK: mhlo.sharding = "{{[{][{]}}devices=[2,1]<=[2]}, {replicated}}"
func.func @several_results_make_a_tuple(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

sdy.mesh @single = <[], device_ids=[3]>

// CHECK-LABEL: func @maximal_mesh
// CHECK-SAME: {mhlo.sharding = "{maximal device=3}"}
func.func @maximal_mesh(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@single, []>}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
