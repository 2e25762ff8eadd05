// RUN: autopart-opt %s -sdy-aggressive-propagate | FileCheck %s
// RUN: autopart-opt %s -sdy-basic-propagate | FileCheck %s --check-prefix=BASIC

// Real and fake conflicts. Shardy's propagation.md: a conflict is real when
// two tensors want different axes for the same factor (nobody can be
// satisfied); it is fake when an axis only cannot be added to some tensor
// (closed there, or already used by another factor of that tensor). The
// basic strategy stops every tensor at any conflict; the aggressive strategy
// lets each tensor take what it can on its own, and settles factors that
// want the same axis in one tensor in favour of the larger source tensor.

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Fake, within a factor: %b's closed empty row dimension cannot take "x",
// but that only concerns %b; the result still takes "x".
// CHECK-LABEL: func.func @fake_conflict_closed_operand(
// CHECK: stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// BASIC-LABEL: func.func @fake_conflict_closed_operand(
// BASIC: stablehlo.multiply %arg0, %arg1 :
func.func @fake_conflict_closed_operand(%a: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
                                        %b: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}]>}) -> tensor<16x4xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// Real, within a factor: the rows want "x" from %a and "y" from %b; no
// strategy picks one, the result stays unsharded.
// CHECK-LABEL: func.func @real_conflict_within_factor(
// CHECK: stablehlo.subtract %arg0, %arg1 :
// BASIC-LABEL: func.func @real_conflict_within_factor(
// BASIC: stablehlo.subtract %arg0, %arg1 :
func.func @real_conflict_within_factor(%a: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
                                       %b: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}) -> tensor<16x4xf32> {
  %0 = stablehlo.subtract %a, %b : tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// Fake, across factors: "x" shards the rows (i) of %a and the contracting
// factor (k) of %b. k cannot take "x" in %a, nor i in %b, but no tensor
// needs "x" twice: the result's rows take it. Basic gives up on both.
// CHECK-LABEL: func.func @fake_conflict_axis_on_other_factor(
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// BASIC-LABEL: func.func @fake_conflict_axis_on_other_factor(
// BASIC: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] :
func.func @fake_conflict_axis_on_other_factor(%a: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>},
                                              %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) -> tensor<32x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>
  return %0 : tensor<32x8xf32>
}

// Real, across factors: the result's rows (from %a, 256 elements) and
// columns (from %b, 32 elements) both want "z". The factor with the larger
// source tensor wins (resharding the smaller one is cheaper).
// CHECK-LABEL: func.func @real_conflict_across_factors_larger_source(
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>}
// BASIC-LABEL: func.func @real_conflict_across_factors_larger_source(
// BASIC: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] :
func.func @real_conflict_across_factors_larger_source(%a: tensor<64x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {?}]>},
                                                      %b: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z"}]>}) -> tensor<64x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x4xf32>, tensor<4x8xf32>) -> tensor<64x8xf32>
  return %0 : tensor<64x8xf32>
}

// Partial, across factors: only "y" is wanted by both; the rows (larger
// source) keep ["x", "y"], the columns keep the part before the conflict.
// Basic cuts both at the first axis another factor uses anywhere.
// CHECK-LABEL: func.func @partial_conflict_across_factors(
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {"z", ?}]>]>}
// BASIC-LABEL: func.func @partial_conflict_across_factors(
// BASIC: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"z", ?}]>]>}
func.func @partial_conflict_across_factors(%a: tensor<64x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {?}]>},
                                           %b: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", "y"}]>}) -> tensor<64x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x4xf32>, tensor<4x8xf32>) -> tensor<64x8xf32>
  return %0 : tensor<64x8xf32>
}

// Several at once, with a closed dimension: the batch factor wants "y" from
// %a, the rows want "x" and the columns "x" too (a real conflict the rows win,
// %a being larger); %b's closed contracting dimension is a fake conflict that
// only %b pays for.
// CHECK-LABEL: func.func @several_conflicts_closed_dim(
// CHECK-SAME: %arg1: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {}, {"x"}]>}
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {"x", ?}, {?}]>]>}
func.func @several_conflicts_closed_dim(%a: tensor<4x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}, {"z"}]>},
                                        %b: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}, {"x"}]>}) -> tensor<4x32x16xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x8xf32>, tensor<4x8x16xf32>) -> tensor<4x32x16xf32>
  return %0 : tensor<4x32x16xf32>
}
