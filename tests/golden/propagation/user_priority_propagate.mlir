// RUN: autopart-opt %s -sdy-user-priority-propagate | FileCheck %s

// User priorities: dimensions with p0 propagate first, then p1, ..., then
// dimensions without a priority; a later round cannot override what an
// earlier one decided. The output drops the priorities.

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// The p0 "a" of %arg1 reaches the shared add before the p1 "a" of %arg0, so
// %arg0's dim 0 is left open-empty (its "a" conflicts) and the result follows %arg1.
// CHECK-LABEL: func.func @higher_priority_wins(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}
// CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
func.func @higher_priority_wins(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {?}]>},
                                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}p0]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Swapping the priorities swaps the outcome.
// CHECK-LABEL: func.func @swapped(
// CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
func.func @swapped(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p0, {?}]>},
                   %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}p1]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A lower-priority dimension is still used where it does not conflict.
// CHECK-LABEL: func.func @lower_priority_fills_the_rest(
// CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>}
func.func @lower_priority_fills_the_rest(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p0, {?}]>},
                                         %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"c", ?}p3]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
