// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline -split-input-file | FileCheck %s --check-prefixes=CHECK,CHECK-V2
// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline='enable-hlo-sharding-v3=true' -split-input-file | FileCheck %s --check-prefixes=CHECK,CHECK-V3

// An sdy.all_reduce of unreduced axes is the manual all-reduce XLA's
// export builds: a fully manual computation (outlined, between
// SPMDFullToShardShape and SPMDShardToFullShape) whose body all-reduces
// over the device groups of the reduction axes, on a fresh channel after
// the module's last one, with global device ids.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @all_reduce_of_unreduced_axes_is_manual_all_reduce(
// CHECK-V2: %[[C:.*]] = mhlo.copy %arg0 {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"}
// CHECK-V3: %[[C:.*]] = mhlo.copy %arg0 {mhlo.sharding = "{mesh['x'=2,'y'=2], [{'x'}, {}], unreduced={'y'}}"}
// CHECK-NEXT: %[[F:.*]] = stablehlo.custom_call @SPMDFullToShardShape(%[[C]])
// CHECK-V2-SAME: {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-V3-SAME: {mhlo.sharding = "{mesh['x'=2,'y'=2], manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[B:.*]] = call @xla.sdy.inlinable_manual_computation_body(%[[F]])
// CHECK-NEXT: %[[O:.*]] = mhlo.copy %[[B]]
// CHECK-NEXT: %[[R:.*]] = stablehlo.custom_call @SPMDShardToFullShape(%[[O]])
// CHECK-V2-SAME: {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-V3-SAME: {mhlo.sharding = "{mesh['x'=2,'y'=2], [{'x'}, {}]}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func private @xla.sdy.inlinable_manual_computation_body(
// CHECK-SAME: %arg0: tensor<4x8xf32>
// CHECK-NEXT: "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK: stablehlo.add
// CHECK: }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @all_reduce_of_unreduced_axes_is_manual_all_reduce(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Reducing the major axis of a mesh in another device order: the groups
// are the devices that differ in "x" only, named by their ids; the channel
// follows the one the module already uses; a max reduction combines with
// stablehlo.maximum.

sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

// CHECK-LABEL: func @all_reduce_groups_follow_device_ids_and_channels(
// CHECK-LABEL: func private @xla.sdy.inlinable_manual_computation_body(
// CHECK-NEXT: "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>, replica_groups = dense<{{\[\[}}3, 1], [2, 0]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK: stablehlo.maximum
func.func @all_reduce_groups_follow_device_ids_and_channels(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}], unreduced=max{"x"}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce max {"x"} %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %1 = "stablehlo.all_reduce"(%0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, use_global_device_ids} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
