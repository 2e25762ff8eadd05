// RUN: autopart-opt %s -xla-sdy-stablehlo-import-pipeline -split-input-file | FileCheck %s

// CHECK-LABEL: sdy.mesh @mesh = <["axis_0"=4, "axis_1"=2]>
// CHECK-LABEL: func @sharding_custom_call_becomes_constraint(
// CHECK-SAME: %arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_1"}, {"axis_0"}]>}
// CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"axis_0"}, {}]> : tensor<16x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @sharding_custom_call_becomes_constraint(%arg0: tensor<16x4xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"}) -> tensor<16x4xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// CHECK-LABEL: func @unspecified_dims_are_open(
// CHECK-NEXT: sdy.sharding_constraint %arg0 <@mesh, [{?}, {"axis_0"}]> : tensor<16x4xf32>
func.func @unspecified_dims_are_open(%arg0: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0]", mhlo.sharding = "{devices=[1,4,2]<=[8] last_tile_dim_replicate}"} : (tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

// shard_map: operands constrained and cut to their local shape, a call of
// the body, the result grown back -- one manual computation over every
// axis ("{manual}").

// CHECK-LABEL: sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
// CHECK-LABEL: func @shard_map_fully_manual(
// CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%arg0, %arg1)
// CHECK-SAME: in_shardings=[<@mesh, [{"axis_0", "axis_1"}, {}]>, <@mesh, [{"axis_0"}, {}]>]
// CHECK-SAME: out_shardings=[<@mesh, [{"axis_0", "axis_1"}, {}]>]
// CHECK-SAME: manual_axes={"axis_0", "axis_1"} (%arg2: tensor<2x6xf32>, %arg3: tensor<2x6xf32>) {
// CHECK-NEXT: %[[S:.*]] = stablehlo.subtract %arg2, %arg3 : tensor<2x6xf32>
// CHECK-NEXT: sdy.return %[[S]] : tensor<2x6xf32>
// CHECK-NEXT: } : (tensor<8x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: return %[[MC]]
// CHECK-NOT: func.func @shard_map_body
func.func @shard_map_fully_manual(%arg0: tensor<8x6xf32>, %arg1: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x6xf32>) -> tensor<2x6xf32>
  %2 = stablehlo.custom_call @Sharding(%arg1) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{manual}"} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %4 = call @shard_map_body(%1, %3) : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{manual}"} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x6xf32>) -> tensor<8x6xf32>
  return %6 : tensor<8x6xf32>
}
func.func private @shard_map_body(%arg0: tensor<2x6xf32>, %arg1: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %0 = stablehlo.subtract %arg0, %arg1 : tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// A manual subgroup (last_tile_dims={manual}) makes only its axes manual;
// the other axis stays free inside the body.

// CHECK-LABEL: sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
// CHECK-LABEL: func @shard_map_partially_manual(
// CHECK-NEXT: sdy.manual_computation(%arg0)
// CHECK-SAME: in_shardings=[<@mesh, [{"axis_0", "axis_1"}]>]
// CHECK-SAME: out_shardings=[<@mesh, [{"axis_0", "axis_1"}]>]
// CHECK-SAME: manual_axes={"axis_0"} (%arg1: tensor<4xf32>)
func.func @shard_map_partially_manual(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual}}"} : (tensor<8xf32>) -> tensor<4xf32>
  %2 = call @partial_body(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual}}"} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<4xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}
func.func private @partial_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A sharded value a while loop reads from outside gets an open constraint
// the loop reads instead; constants become sdy.constant and are left alone.

// CHECK-LABEL: func @while_free_variable_constrained(
// CHECK-NEXT: %[[ZERO:.*]] = sdy.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[LIMIT:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<10> : tensor<i32>
// CHECK-NEXT: %[[FREE:.*]] = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : tensor<16x8xf32>
// CHECK-NEXT: stablehlo.while(%iterArg = %arg0, %iterArg_0 = %[[ZERO]])
// CHECK: stablehlo.compare LT, %iterArg_0, %[[LIMIT]]
// CHECK: stablehlo.multiply %iterArg, %[[FREE]]
func.func @while_free_variable_constrained(%arg0: tensor<16x8xf32>,
    %arg1: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> tensor<16x8xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant {mhlo.sharding = "{replicated}"} dense<10> : tensor<i32>
  %2:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<16x8xf32>, tensor<i32>
    cond {
    %3 = stablehlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %3 = stablehlo.multiply %iterArg, %arg1 : tensor<16x8xf32>
    stablehlo.return %3, %iterArg_0 : tensor<16x8xf32>, tensor<i32>
  }
  return %2#0 : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: func @tuple_custom_call_flattened(
// CHECK-NEXT: %[[R:.*]]:2 = stablehlo.custom_call @bar(%arg0, %arg1) : (tensor<4xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<2xi32>)
// CHECK-NEXT: return %[[R]]#1
func.func @tuple_custom_call_flattened(%arg0: tensor<4xf32>, %arg1: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<4xf32>, tensor<2xi32>>
  %1 = stablehlo.custom_call @bar(%0) : (tuple<tensor<4xf32>, tensor<2xi32>>) -> tuple<tensor<4xf32>, tensor<2xi32>>
  %2 = stablehlo.get_tuple_element %1[1] : (tuple<tensor<4xf32>, tensor<2xi32>>) -> tensor<2xi32>
  return %2 : tensor<2xi32>
}

// CHECK-LABEL: func @sharding_group_custom_call(
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=7 : tensor<4xf32>
func.func @sharding_group_custom_call(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "7 : i64"}} : (tensor<4xf32>) -> tuple<>
  return %arg0 : tensor<4xf32>
}

// -----

// Shardy attributes XLA carried in frontend attributes become Shardy again.

// CHECK: module @frontend_attributes_read_back {
// CHECK-NEXT: sdy.mesh @mesh = <["a"=2, "b"=4]>
// CHECK-LABEL: func @shardy_frontend_attributes(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}
// CHECK-SAME: -> (tensor<8x8xf32> {mhlo.frontend_attributes = {other = "kept"}, sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>})
// CHECK-NEXT: stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}, {}]>]>}
module @frontend_attributes_read_back attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=4]>}"}} {
  func.func @shardy_frontend_attributes(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22b\22}, {}]>"}})
      -> (tensor<8x8xf32> {mhlo.frontend_attributes = {other = "kept", xla.sdy.sharding = "#sdy.sharding<@mesh, [{}, {\22a\22}]>"}}) {
    %0 = stablehlo.abs %arg0 {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22, \22b\22}, {}]>]>"}} : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
