// RUN: autopart plan %s --tactics auto --gspmd 2>/dev/null | FileCheck %s
// RUN: autopart plan %s --tactics auto 2>/dev/null | autopart-opt - -xla-sdy-stablehlo-export-pipeline | FileCheck %s --check-prefix=EXPORT

// A program as jax.jit(...).lower() prints it: GSPMD strings, two
// with_sharding_constraint calls (@Sharding) and a shard_map over both mesh
// axes. `autopart plan` reads it as XLA's import does: the mesh from the
// tile assignments, the constraints as sdy.sharding_constraint, the
// shard_map as a manual computation, whose axes survive the plan and the
// export back to the shard_map form.

// CHECK: sdy.mesh @mesh = <["axis_0"=4, "axis_1"=2]>
// CHECK-LABEL: func.func public @main(
// CHECK-SAME: %arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>}
// CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{"axis_0"}, {?}]>
// CHECK: sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"axis_0"}, {}]>] out_shardings=[<@mesh, [{"axis_0"}, {}]>] manual_axes={"axis_0", "axis_1"}
// CHECK: stablehlo.tanh
// CHECK: sdy.return
// CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{"axis_0"}, {"axis_1"}]>
// CHECK-NOT: func.func private @shmap_body

// EXPORT-NOT: sdy.
// EXPORT: stablehlo.custom_call @Sharding(%{{.*}}) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}
// EXPORT: stablehlo.custom_call @SPMDFullToShardShape(%{{.*}}) {mhlo.sharding = "{manual}"}
// EXPORT: call @xla.sdy.inlinable_manual_computation_body(
// EXPORT: stablehlo.custom_call @SPMDShardToFullShape(%{{.*}}) {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}
// EXPORT: stablehlo.custom_call @Sharding(%{{.*}}) {mhlo.sharding = "{devices=[4,2]<=[8]}"}
// EXPORT: func.func private @xla.sdy.inlinable_manual_computation_body(%arg0: tensor<4x64xf32> {mhlo.sharding = "{manual}"})
// EXPORT: stablehlo.tanh %arg0 {mhlo.sharding = "{manual}"}
module @jit_layer attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<32x64xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<64x32xf32>) -> (tensor<16x32xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{manual}"} : (tensor<16x64xf32>) -> tensor<4x64xf32>
    %4 = call @shmap_body(%3) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{manual}"} : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<4x64xf32>) -> tensor<16x64xf32>
    %7 = stablehlo.dot_general %6, %arg2, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %8 = stablehlo.custom_call @Sharding(%7) {mhlo.sharding = "{devices=[4,2]<=[8]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %8 : tensor<16x32xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4x64xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<4x64xf32>
    return %1 : tensor<4x64xf32>
  }
}
