// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline | FileCheck %s --check-prefixes=CHECK,CHECK-V2
// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline='enable-hlo-sharding-v3=true' | FileCheck %s --check-prefixes=CHECK,CHECK-V3

// A function called inside a manual computation runs in its manual
// context: its shardings carry the manual axis "b" too.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @manual_callee_shardings_carry_manual_axes(
// CHECK: call @xla.sdy.inlinable_manual_computation_body(
func.func @manual_callee_shardings_carry_manual_axes(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<2x4xf32>) {
    %1 = func.call @scale(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    sdy.return %1 : tensor<2x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func private @scale(
// CHECK-V2-SAME: %arg0: tensor<2x4xf32> {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dims={manual}}"}
// CHECK-V2-NEXT: stablehlo.exponential %arg0 {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dims={manual}}"}
// CHECK-V3-SAME: %arg0: tensor<2x4xf32> {mhlo.sharding = "{mesh['a'=2,'b'=4], [{}, {'a'}], manual={'b'}}"}
// CHECK-V3-NEXT: stablehlo.exponential %arg0 {mhlo.sharding = "{mesh['a'=2,'b'=4], [{}, {'a'}], manual={'b'}}"}
func.func private @scale(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) -> tensor<2x4xf32> {
  %0 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>} : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
