// RUN: autopart-opt %s -sdy-aggressive-propagate | FileCheck %s

// Sideways propagation (operand to operand, past the op's results) and
// unreduced axes. Shardy's aggressive strategy updates results first, then
// operands; an elementwise op's operand gets no more than its results hold,
// so a result that cannot take an axis does not make every operand gather it
// (one all-gather on the result instead of one per operand). An op that is
// not elementwise (here a custom call with its own rule) has no such cap, and
// one closed result does not stop the others. An unreduced axis of a tensor
// holds partial sums: no factor of that tensor can be sharded on it.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The result is closed and empty: %b does not take "x" from %a.
// CHECK-LABEL: func.func @no_sideways_past_closed_result(
// CHECK-SAME: %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}
// CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
func.func @no_sideways_past_closed_result(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                                          %b: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> tensor<16xf32> {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// The result is closed on "x": %b takes "x" but not "y".
// CHECK-LABEL: func.func @partial_sideways_up_to_result(
// CHECK-SAME: %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}
func.func @partial_sideways_up_to_result(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>},
                                         %b: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> tensor<16xf32> {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// Two results, one closed and empty: the open one and %b still take "x".
// CHECK-LABEL: func.func @one_of_two_results_conflicts(
// CHECK-SAME: %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}
// CHECK: stablehlo.custom_call @pair(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x", ?}]>]>
func.func @one_of_two_results_conflicts(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                                        %b: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> (tensor<16xf32>, tensor<16xf32>) {
  %0:2 = stablehlo.custom_call @pair(%a, %b) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i], [i]) {i=16}, custom>} : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xf32>
}

// The matmul's result is unreduced over "y" (the contracting factor's axis):
// the function result's "y" on the columns does not flow back into it, but
// the add after it (a reduced value) takes it.
// CHECK-LABEL: func.func @unreduced_blocks_backward(
// CHECK: %[[DOT:.*]] = stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}], unreduced={"y"}>]>}
// CHECK: stablehlo.multiply %[[DOT]], %[[DOT]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
func.func @unreduced_blocks_backward(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                                     %b: tensor<8x32xf32>) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y"}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}], unreduced={"y"}>]>} : (tensor<8x8xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}
