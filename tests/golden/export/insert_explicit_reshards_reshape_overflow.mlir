// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | FileCheck %s

// A reshape whose projection has overflow axes (an axis that does not divide
// what is left of a non-minor factor) cannot be settled factor by factor: the
// overflow axes belong to no factor. Shardy (insert_explicit_reshards.cc,
// processReshapeWithOverflowAxes; sharding_projection.cc,
// distributeAxesAcrossFactors) takes every axis of the more sharded side and
// deals it out again on both sides: a (sub-)axis goes to the first factor, in
// dimension order, that shares a divisor with it, split by that divisor when
// the axis is bigger, and what is left of it goes on to the next factors.
// Each factor then keeps the common prefix of its axes on the two sides.

sdy.mesh @mesh = <["a"=6, "b"=4]>
sdy.mesh @mesh4 = <["a"=4]>

// Rule ([ij, k])->([i, j, k]) {i=4, j=6, k=5}: i takes "a":(1)2; "a":(2)3 is
// coprime with the 2 left of i, so it goes to j; "b" is split: "b":(1)2
// completes i, "b":(2)2 completes j. The operand is read in that order.
// CHECK-LABEL: func.func @overflow_axes_split_and_interleaved
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"a":(1)2, "b":(1)2, "a":(2)3, "b":(2)2}, {}]>
// CHECK-NEXT:    %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2, "b":(1)2}, {"a":(2)3, "b":(2)2}, {}]>]>}
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{}, {}, {}]>
// CHECK-NEXT:    return %2
func.func @overflow_axes_split_and_interleaved(%arg0: tensor<24x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> (tensor<4x6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<24x5xf32>) -> tensor<4x6x5xf32>
  return %0 : tensor<4x6x5xf32>
}

// The result is the more sharded side here, so its axes are dealt out; the
// operand is resharded to the same factor sharding.
// CHECK-LABEL: func.func @overflow_on_more_sharded_result
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"a":(1)2, "b":(1)2}, {"a":(2)3, "b":(2)2}, {}]>
// CHECK-NEXT:    %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2, "b":(1)2, "a":(2)3, "b":(2)2}, {}]>]>}
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{"a", "b"}, {}]>
// CHECK-NEXT:    return %2
func.func @overflow_on_more_sharded_result(%arg0: tensor<4x6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) -> (tensor<24x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}, {}]>]>} : (tensor<4x6x5xf32>) -> tensor<24x5xf32>
  return %0 : tensor<24x5xf32>
}

// Rule ([ij, k])->([i, j, k]) {i=3, j=2, k=4}: "a"=4 shares nothing with i,
// so j takes "a":(1)2 and k, the next factor in dimension order, "a":(2)2.
// j cannot show on the operand (i before it in the same dimension is not
// fully sharded) and differs on the two sides, so only k keeps its axis:
// the axis moves from the operand's first dimension to its second.
// CHECK-LABEL: func.func @overflow_axis_moves_to_later_dimension
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh4, [{}, {"a":(2)2}]>
// CHECK-NEXT:    %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh4, [{}, {}, {"a":(2)2}]>]>}
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh4, [{}, {}, {}]>
// CHECK-NEXT:    return %2
func.func @overflow_axis_moves_to_later_dimension(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh4, [{"a"}, {}]>}) -> (tensor<3x2x4xf32> {sdy.sharding = #sdy.sharding<@mesh4, [{}, {}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh4, [{}, {}, {}]>]>} : (tensor<6x4xf32>) -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}
