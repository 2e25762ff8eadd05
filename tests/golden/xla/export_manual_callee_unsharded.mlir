// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline | FileCheck %s --check-prefixes=CHECK,CHECK-V2
// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline='enable-hlo-sharding-v3=true' | FileCheck %s --check-prefixes=CHECK,CHECK-V3

sdy.mesh @mesh = <["a"=2, "b"=4]>

// Ops without a sharding in a function called from a manual computation
// (directly or through another such function) get the manual sharding of
// its context, as the ops of the body itself do.

// CHECK-LABEL: func @manual_callee_ops_without_sharding_get_manual(
func.func @manual_callee_ops_without_sharding_get_manual(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b"}, {}]>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a", "b"} (%arg1: tensor<1x4xf32>) {
    %1 = func.call @double(%arg1) : (tensor<1x4xf32>) -> tensor<1x4xf32>
    sdy.return %1 : tensor<1x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func private @double(
// CHECK-V2: stablehlo.add %arg0, %arg0 {mhlo.sharding = "{manual}"}
// CHECK-V2: call @negate(%{{.*}}) {mhlo.sharding = "{manual}"}
// CHECK-V3: stablehlo.add %arg0, %arg0 {mhlo.sharding = "{mesh['a'=2,'b'=4], manual}"}
// CHECK-V3: call @negate(%{{.*}}) {mhlo.sharding = "{mesh['a'=2,'b'=4], manual}"}
func.func private @double(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<1x4xf32>
  %1 = func.call @negate(%0) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// CHECK-LABEL: func private @negate(
// CHECK-V2: stablehlo.negate %arg0 {mhlo.sharding = "{manual}"}
// CHECK-V3: stablehlo.negate %arg0 {mhlo.sharding = "{mesh['a'=2,'b'=4], manual}"}
func.func private @negate(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
