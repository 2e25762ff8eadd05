// RUN: autopart-opt %s -sdy-resolve-single-device-sharding | FileCheck %s
// RUN: autopart-opt %s -sdy-resolve-single-device-sharding=replica-count=4 | FileCheck %s --check-prefix=REPLICA

// Shardy's -sdy-resolve-single-device-sharding: an op placed on one device
// (a sharding on a maximal mesh) runs under a stablehlo.if that only that
// device takes; the others produce zeros, and an all-reduce over the global
// mesh's axes gives every device the result.

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @dev3 = <[], device_ids=[3]>

// The guard compares the partition id (the replica id with replica-count > 1)
// with device 3; the op reads its operand from before the single-device
// reshard, which goes; the reshard of the result to the replicated global
// sharding becomes the all-reduce itself.
// CHECK-LABEL: func @negate_on_device_3
// CHECK-NEXT: %[[ID:.*]] = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %[[ID64:.*]] = stablehlo.convert %[[ID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %[[C3:.*]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT: %[[IS:.*]] = stablehlo.compare EQ, %[[ID64]], %[[C3]]
// CHECK-NEXT: %[[IF:.*]] = "stablehlo.if"(%[[IS]]) ({
// CHECK-NEXT:   %[[NEG:.*]] = stablehlo.negate %arg0 : tensor<4xi32>
// CHECK-NEXT:   stablehlo.return %[[NEG]]
// CHECK-NEXT: }, {
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-NEXT:   stablehlo.return %[[Z]]
// CHECK-NEXT: })
// CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"x", "y"} %[[IF]] out_sharding=<@mesh, [{}]>
// CHECK-NEXT: return %[[AR]]
// REPLICA: stablehlo.replica_id
func.func @negate_on_device_3(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = sdy.reshard %arg0 <@dev3, []> : tensor<4xi32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@dev3, []>]>} : tensor<4xi32>
  %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<4xi32>
  return %2 : tensor<4xi32>
}

// A use that needs another sharding reads the all-reduce through its reshard.
// CHECK-LABEL: func @other_use_keeps_its_reshard
// CHECK: %[[AR:.*]] = sdy.all_reduce {"x", "y"}
// CHECK-NEXT: sdy.reshard %[[AR]] <@mesh, [{"x"}]>
func.func @other_use_keeps_its_reshard(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %1 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@dev3, []>]>} : tensor<4xf32>
  %2 = sdy.reshard %1 <@mesh, [{"x"}]> : tensor<4xf32>
  return %2 : tensor<4xf32>
}
