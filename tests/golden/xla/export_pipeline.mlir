// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline -split-input-file | FileCheck %s --check-prefixes=CHECK,CHECK-V2
// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline='enable-hlo-sharding-v3=true' -split-input-file | FileCheck %s --check-prefixes=CHECK,CHECK-V3

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @listed = <["p"=2, "q"=2], device_ids=[3, 1, 2, 0]>
sdy.mesh @single = <[], device_ids=[5]>
sdy.mesh @empty = <[]>

// CHECK-NOT: sdy.mesh

// CHECK-LABEL: func @arguments_in_both_versions(
// CHECK-V2-SAME: %arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}
// CHECK-V2-SAME: %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"}
// CHECK-V2-SAME: %arg2: tensor<8x8xf32> {mhlo.sharding = "{replicated}"}
// CHECK-V3-SAME: %arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {}]}"}
// CHECK-V3-SAME: %arg1: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {'x'}]}"}
// CHECK-V3-SAME: %arg2: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=4,'y'=2], [{?}, {}]}"}
func.func @arguments_in_both_versions(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                                      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>},
                                      %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @sub_axes_split_the_device_array(
// CHECK-V2-SAME: {mhlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"}
// CHECK-V3-SAME: {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'x':(2)2}, {'x':(1)2}]}"}
func.func @sub_axes_split_the_device_array(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2}, {"x":(1)2}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// Explicit device ids are listed; each replicated group ascending.
// CHECK-LABEL: func @device_ids_listed_groups_sorted(
// CHECK-V2-SAME: {mhlo.sharding = "{devices=[2,1,2]1,3,0,2 last_tile_dim_replicate}"}
// CHECK-V3-SAME: {mhlo.sharding = "{mesh['p'=2,'q'=2], device_ids=(3,1,2,0), [{'p'}, {}]}"}
func.func @device_ids_listed_groups_sorted(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@listed, [{"p"}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @maximal_and_empty_meshes(
// CHECK-V2-SAME: %arg0: tensor<8xf32> {mhlo.sharding = "{maximal device=5}"}
// CHECK-V2-SAME: %arg1: tensor<8xf32> {mhlo.sharding = "{replicated}"}
// CHECK-V3-SAME: %arg0: tensor<8xf32> {mhlo.sharding = "{single_device[device_id=5]}"}
// CHECK-V3-SAME: %arg1: tensor<8xf32> {mhlo.sharding = "{mesh[], [{}]}"}
func.func @maximal_and_empty_meshes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@single, []>},
                                    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@empty, [{}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// CHECK-LABEL: func @constant_and_copy_forms(
// CHECK-V2-NEXT: %[[C:.*]] = stablehlo.constant {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} dense<2.000000e+00> : tensor<8x8xf32>
// CHECK-V3-NEXT: %[[C:.*]] = stablehlo.constant {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'x'}, {}]}"} dense<2.000000e+00> : tensor<8x8xf32>
// CHECK-V2-NEXT: %[[R:.*]] = mhlo.copy %[[C]] {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"} : tensor<8x8xf32>
// CHECK-V3-NEXT: %[[R:.*]] = mhlo.copy %[[C]] {mhlo.sharding = "{mesh['x'=4,'y'=2], [{}, {'y'}], replicated={'x'}}"} : tensor<8x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @constant_and_copy_forms() -> tensor<8x8xf32> {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.000000e+00> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"y"}], replicated={"x"}> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_reduce_without_unreduced_forwards(
// CHECK-NEXT: return %arg0
func.func @all_reduce_without_unreduced_forwards(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @barrier_dropped_constraint_custom_call(
// CHECK-V2-NEXT: %[[S:.*]] = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}
// CHECK-V3-NEXT: %[[S:.*]] = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{mesh['x'=4,'y'=2], [{'x'}, {?}]}"}
// CHECK-NEXT: return %[[S]]
func.func @barrier_dropped_constraint_custom_call(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {?}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Unreduced axes: a typed subgroup with the reduction in the metadata (V2),
// the axis list (V3); all of the mesh unreduced is the bare form.
// CHECK-LABEL: func @unreduced_axes_written(
// CHECK-V2-SAME: %arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"}
// CHECK-V2-SAME: %arg1: tensor<8x8xf32> {mhlo.sharding = "{unreduced metadata={op_type=\22sdy::reduction_op\22 op_name=\22MAX\22}}"}
// CHECK-V3-SAME: %arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {}], unreduced={'x'}}"}
// CHECK-V3-SAME: %arg1: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=4,'y'=2], [{}, {}], unreduced={'x', 'y'}}"}
func.func @unreduced_axes_written(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>},
                                  %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"x", "y"}>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @mhlo_custom_call_sharding_in_attributes(
// CHECK-V2-NEXT: stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.sharding = "{devices=[4,2]<=[8]}", mhlo.version = 1 : i64}}
// CHECK-V3-NEXT: stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'x'}, {'y'}]}", mhlo.version = 1 : i64}}
func.func @mhlo_custom_call_sharding_in_attributes(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.version = 1 : i64}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @while_without_sharding_replicated(
// CHECK: stablehlo.while
// CHECK-V2-SAME: attributes {mhlo.sharding = "{replicated}"}
// CHECK-V3-SAME: attributes {mhlo.sharding = "{mesh[], replicated}"}
func.func @while_without_sharding_replicated(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<4xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare LT, %iterArg_0, %0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<4xf32>, tensor<i32>
  }
  return %1#0 : tensor<4xf32>
}

// CHECK-LABEL: func @host_callback_result_in_tuple(
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant dense<42> : tensor<i64>
// CHECK-NEXT: %[[T:.*]] = stablehlo.custom_call @xla_python_cpu_callback(%[[C]], %arg0) {api_version = 2 : i32, backend_config = "42"} : (tensor<i64>, tensor<4xf32>) -> tuple<tensor<4xf32>>
// CHECK-V2-NEXT: %[[R:.*]] = stablehlo.get_tuple_element %[[T]][0] {mhlo.sharding = "{replicated}"} : (tuple<tensor<4xf32>>) -> tensor<4xf32>
// CHECK-V3-NEXT: %[[R:.*]] = stablehlo.get_tuple_element %[[T]][0] {mhlo.sharding = "{mesh[], [{}]}"} : (tuple<tensor<4xf32>>) -> tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @host_callback_result_in_tuple(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<42> : tensor<i64>
  %0 = stablehlo.custom_call @xla_python_cpu_callback(%c, %arg0) {api_version = 2 : i32, backend_config = "42", sdy.sharding = #sdy.sharding_per_value<[<@empty, [{}]>]>} : (tensor<i64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A manual computation: copy into the in-sharding, cut, call the outlined
// body (its shardings carry the manual axis x), copy, grow back. y stays
// free inside.
// CHECK-LABEL: func @manual_computation_as_shard_map(
// CHECK-V2-NEXT: %[[IN:.*]] = mhlo.copy %arg0 {mhlo.sharding = "{devices=[8,1]<=[8]}"} : tensor<16x4xf32>
// CHECK-V2-NEXT: %[[CUT:.*]] = stablehlo.custom_call @SPMDFullToShardShape(%[[IN]]) {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dims={manual}}"} : (tensor<16x4xf32>) -> tensor<4x4xf32>
// CHECK-V2-NEXT: %[[CALL:.*]] = call @xla.sdy.inlinable_manual_computation_body(%[[CUT]]) {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dims={manual}}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-V2-NEXT: %[[OUT:.*]] = mhlo.copy %[[CALL]] {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dims={manual}}"} : tensor<4x4xf32>
// CHECK-V2-NEXT: %[[FULL:.*]] = stablehlo.custom_call @SPMDShardToFullShape(%[[OUT]]) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<4x4xf32>) -> tensor<16x4xf32>
// CHECK-V3-NEXT: %[[IN:.*]] = mhlo.copy %arg0 {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'x', 'y'}, {}]}"} : tensor<16x4xf32>
// CHECK-V3-NEXT: %[[CUT:.*]] = stablehlo.custom_call @SPMDFullToShardShape(%[[IN]]) {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {}], manual={'x'}}"} : (tensor<16x4xf32>) -> tensor<4x4xf32>
// CHECK-V3-NEXT: %[[CALL:.*]] = call @xla.sdy.inlinable_manual_computation_body(%[[CUT]]) {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {}], manual={'x'}}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-V3-NEXT: %[[OUT:.*]] = mhlo.copy %[[CALL]] {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {}], manual={'x'}}"} : tensor<4x4xf32>
// CHECK-V3-NEXT: %[[FULL:.*]] = stablehlo.custom_call @SPMDShardToFullShape(%[[OUT]]) {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'x', 'y'}, {}]}"} : (tensor<4x4xf32>) -> tensor<16x4xf32>
// CHECK-NEXT: return %[[FULL]]
func.func @manual_computation_as_shard_map(%arg0: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x4xf32>
    %2 = stablehlo.negate %1 : tensor<4x4xf32>
    sdy.return %2 : tensor<4x4xf32>
  } : (tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// CHECK-LABEL: func private @xla.sdy.inlinable_manual_computation_body(
// CHECK-V2-SAME: %arg0: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dims={manual}}"}
// CHECK-V2-NEXT: %[[A:.*]] = stablehlo.abs %arg0 {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dims={manual}}"}
// CHECK-V2-NEXT: %[[N:.*]] = stablehlo.negate %[[A]] {mhlo.sharding = "{devices=[1,1,4,2]<=[8] last_tile_dims={manual, replicated}}"}
// CHECK-V3-SAME: %arg0: tensor<4x4xf32> {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {}], manual={'x'}}"}
// CHECK-V3-NEXT: %[[A:.*]] = stablehlo.abs %arg0 {mhlo.sharding = "{mesh['x'=4,'y'=2], [{'y'}, {}], manual={'x'}}"}
// CHECK-V3-NEXT: %[[N:.*]] = stablehlo.negate %[[A]] {mhlo.sharding = "{mesh['x'=4,'y'=2], [{}, {}], manual={'x'}}"}
// CHECK-NEXT: return %[[N]]

