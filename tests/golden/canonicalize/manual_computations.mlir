// RUN: autopart-opt %s -canonicalize | FileCheck %s

// One function per manual_computation pattern of -canonicalize: unused
// inputs dropped, computations over size-1 manual axes inlined, empty ones
// erased, and those that do split devices kept.

sdy.mesh @mesh = <["a"=2, "b"=1]>

// Only the unread operands go, with their in_shardings; the rest keep their
// order.
// CHECK-LABEL: func @unused_inputs_dropped_in_order
// CHECK-NEXT: %0 = sdy.manual_computation(%arg1, %arg2) in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg3: tensor<4xf32>, %arg4: tensor<8xf32>) {
func.func @unused_inputs_dropped_in_order(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{"a"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"a"}]>]
      manual_axes={"a"} (%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<8xf32>) {
    %1 = stablehlo.slice %z [0:4] : (tensor<8xf32>) -> tensor<4xf32>
    %2 = stablehlo.add %y, %1 : tensor<4xf32>
    sdy.return %2 : tensor<4xf32>
  } : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Manual axes of size 1 split nothing: the body is inlined, its arguments
// replaced by the operands and the results by what it returns.
// CHECK-LABEL: func @size_one_manual_axis_inlined
// CHECK-NEXT: %0 = stablehlo.multiply %arg0, %arg1
// CHECK-NEXT: %1 = stablehlo.add %0, %arg0
// CHECK-NEXT: return %1, %arg1
func.func @size_one_manual_axis_inlined(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"b"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"b"}]>, <@mesh, [{}]>]
      manual_axes={"b"} (%x: tensor<8xf32>, %y: tensor<8xf32>) {
    %1 = stablehlo.multiply %x, %y : tensor<8xf32>
    sdy.return %1, %y : tensor<8xf32>, tensor<8xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %2 = stablehlo.add %0#0, %arg0 : tensor<8xf32>
  return %2, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// A computation over a real manual axis whose results nothing reads stays
// when its body has side effects...
// CHECK-LABEL: func @unused_computation_with_side_effects_stays
// CHECK-NEXT: sdy.manual_computation
// CHECK: stablehlo.custom_call @log
func.func @unused_computation_with_side_effects_stays(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>]
      manual_axes={"a"} (%x: tensor<4xf32>) {
    %1 = stablehlo.custom_call @log(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// ...and is erased as dead when its body is pure.
// CHECK-LABEL: func @unused_pure_computation_erased
// CHECK-NEXT: return %arg0
func.func @unused_pure_computation_erased(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>]
      manual_axes={"a"} (%x: tensor<4xf32>) {
    %1 = stablehlo.negate %x : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}
