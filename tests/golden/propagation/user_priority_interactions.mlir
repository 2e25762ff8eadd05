// RUN: autopart-opt %s -sdy-user-priority-propagate | FileCheck %s

// User priorities against closed and replicated dimensions, manual
// computations and multi-result reductions. Shardy runs one round per
// priority (p0 first, dimensions without one last). Until its round a
// dimension is hidden as closed and empty, its axes explicitly replicated:
// it takes nothing and lends its axes to no other dimension, and, being
// closed, it caps what an elementwise op's operands take from each other.
// Values that own a data-flow edge (a manual computation's in/out shardings)
// are left as the user wrote them; their edges carry the propagation.

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Round p0: the multiply's result is hidden ([{}, {}] closed), so %c takes
// nothing from %0. Round p1 reveals "z" on its rows, which conflicts with %0's
// "x"; its columns stay closed and empty. %c never gets a sharding.
// CHECK-LABEL: func.func @hidden_dim_is_closed(
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>}
// CHECK-SAME: %arg2: tensor<8x8xf32>)
// CHECK: stablehlo.multiply %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {}]>]>}
func.func @hidden_dim_is_closed(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {"y"}p0]>},
                                %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  %1 = stablehlo.multiply %0, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}p1, {}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Round p0 spreads the divide's "z" (p0) over the rows of every tensor;
// %a's rows ("x", p1) then conflict. %a's columns bring "y" in round p1, but
// the divide's result has "y" explicitly replicated, so the divide's other
// operand %c does not take it either.
// CHECK-LABEL: func.func @replicated_axis_caps_columns(
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}, {"y", ?}]>}
// CHECK-SAME: %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}, {?}]>}
// CHECK: stablehlo.divide %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {?}], replicated={"y"}>]>}
func.func @replicated_axis_caps_columns(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {"y"}p1]>},
                                        %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  %1 = stablehlo.divide %0, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}p0, {?}], replicated={"y"}>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// The computation's in/out shardings keep their priorities (their edges hold
// the propagated shardings); the edges and everything else lose them. %a's
// "z" (p1) comes after the computation's "x", "y" (p0) and loses.
// CHECK-LABEL: func.func @manual_computation_keeps_priorities(
// CHECK-SAME: -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", ?}, {?}]>})
// CHECK: in_shardings=[<@mesh, [{"x", "y"}p0, {?}]>] out_shardings=[<@mesh, [{"x", ?}p0, {?}]>]
// CHECK: sdy.data_flow_edge %arg1 sharding=<@mesh, [{"y"}, {?}]>
// CHECK: stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>}
// CHECK: sdy.data_flow_edge %0 sharding=<@mesh, [{"x", "y", ?}, {?}]>
func.func @manual_computation_keeps_priorities(%a: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}p1, {?}]>}) -> tensor<16x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}p0, {?}]>] out_shardings=[<@mesh, [{"x", ?}p0, {?}]>] manual_axes={"x"} (%arg1: tensor<8x16xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"y"}p0, {?}]> : tensor<8x16xf32>
    %2 = stablehlo.negate %1 : tensor<8x16xf32>
    sdy.return %2 : tensor<8x16xf32>
  } : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x", ?}p0, {?}]> : tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// A reduction with its own body (max and sum) and two results sharing the
// batch factor: result 1's "y" (p0) reaches both operands first; result 0's
// "x" (p1) then conflicts on that factor and stays on result 0 only.
// CHECK-LABEL: func.func @custom_reduction_priorities(
// CHECK-SAME: %arg0: tensor<4x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}, {?}]>}
// CHECK-SAME: %arg1: tensor<4x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}, {?}]>}
// CHECK: stablehlo.reduce{{.*}}{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>, <@mesh, [{"y"}, {?}]>]>}
func.func @custom_reduction_priorities(%a: tensor<4x32x8xf32>, %b: tensor<4x32x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %init = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0:2 = stablehlo.reduce(%a init: %init), (%b init: %init) across dimensions = [1]
    {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}p1, {?}]>, <@mesh, [{"y"}p0, {?}]>]>} :
    (tensor<4x32x8xf32>, tensor<4x32x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
    reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<f32>, %s: tensor<f32>) {
      %m = stablehlo.maximum %p, %q : tensor<f32>
      %n = stablehlo.add %r, %s : tensor<f32>
      stablehlo.return %m, %n : tensor<f32>, tensor<f32>
    }
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
