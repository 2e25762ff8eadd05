// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | FileCheck %s

// An op with a single-device (maximal) result sharding runs on that device:
// its tensor operands are gathered onto it and its tensor results handed back
// replicated on the program's first mesh with axes (export/SingleDeviceReshards.h).

sdy.mesh @devices = <["d"=4]>
sdy.mesh @other = <["e"=4]>
sdy.mesh @dev2 = <[], device_ids=[2]>

// A sharded operand is replicated where it is, then moved to the device; the
// result comes back replicated, then as its reader wants it.
// CHECK-LABEL: func @sharded_operand_and_sharded_reader
func.func @sharded_operand_and_sharded_reader(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@devices, [{"d"}, {}]>}) -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@devices, [{}, {"d"}]>}) {
  // CHECK-NEXT: %[[REP:.*]] = sdy.reshard %arg0 <@devices, [{}, {}]>
  // CHECK-NEXT: %[[ON:.*]] = sdy.reshard %[[REP]] <@dev2, []>
  // CHECK-NEXT: %[[CC:.*]] = stablehlo.custom_call @host_fn(%[[ON]]) {sdy.sharding = #sdy.sharding_per_value<[<@dev2, []>]>}
  // CHECK-NEXT: %[[BACK:.*]] = sdy.reshard %[[CC]] <@devices, [{}, {}]>
  // CHECK-NEXT: %[[COL:.*]] = sdy.reshard %[[BACK]] <@devices, [{}, {"d"}]>
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %[[COL]]
  // CHECK-NEXT: return %[[NEG]]
  %0 = stablehlo.custom_call @host_fn(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev2, []>]>} : (tensor<16x4xf32>) -> tensor<16x4xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@devices, [{}, {"d"}]>]>} : tensor<16x4xf32>
  return %1 : tensor<16x4xf32>
}

// A replicated operand on another mesh goes through the first mesh; a result
// annotated on a mesh is computed on the device and handed back to it.
// CHECK-LABEL: func @other_mesh_operand_and_mixed_results
func.func @other_mesh_operand_and_mixed_results(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{}]>}) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@devices, [{"d"}]>}) {
  // CHECK-NEXT: %[[REP:.*]] = sdy.reshard %arg0 <@devices, [{}]>
  // CHECK-NEXT: %[[ON:.*]] = sdy.reshard %[[REP]] <@dev2, []>
  // CHECK-NEXT: %[[CC:.*]]:2 = stablehlo.custom_call @host_fn2(%[[ON]]) {sdy.sharding = #sdy.sharding_per_value<[<@dev2, []>, <@dev2, []>]>}
  // CHECK-NEXT: %[[B0:.*]] = sdy.reshard %[[CC]]#0 <@devices, [{}]>
  // CHECK-NEXT: %[[B1:.*]] = sdy.reshard %[[CC]]#1 <@devices, [{}]>
  // CHECK-NEXT: %[[T1:.*]] = sdy.reshard %[[B1]] <@devices, [{"d"}]>
  // CHECK-NEXT: return %[[B0]], %[[T1]]
  %0:2 = stablehlo.custom_call @host_fn2(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev2, []>, <@devices, [{"d"}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}
