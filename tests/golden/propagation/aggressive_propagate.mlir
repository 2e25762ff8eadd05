// RUN: autopart-opt %s -sdy-aggressive-propagate | FileCheck %s
// RUN: autopart-opt %s -sdy-basic-propagate | FileCheck %s --check-prefix=BASIC

// Aggressive propagation resolves conflicts across factors: when two factors
// would put the same axis on one tensor, the factor already sharded on the
// larger tensor keeps it. Basic propagation gives up on both.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// lhs (64x16, 1024 elements) shards its row factor on "x", rhs (16x8, 128
// elements) its column factor on "x": the result takes the lhs's.
// CHECK-LABEL: func.func @larger_operand_wins(
// CHECK-SAME: -> (tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// BASIC-LABEL: func.func @larger_operand_wins(
// BASIC-NOT: sdy.sharding_per_value
// BASIC: return
func.func @larger_operand_wins(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                               %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<64x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<64x16xf32>, tensor<16x8xf32>) -> tensor<64x8xf32>
  return %0 : tensor<64x8xf32>
}

// The same with the larger tensor on the right.
// CHECK-LABEL: func.func @larger_rhs_wins(
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
func.func @larger_rhs_wins(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                           %arg1: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x64xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// Without a conflict both strategies agree.
// CHECK-LABEL: func.func @no_conflict(
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
// BASIC-LABEL: func.func @no_conflict(
// BASIC: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
func.func @no_conflict(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                       %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<64x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<64x16xf32>, tensor<16x8xf32>) -> tensor<64x8xf32>
  return %0 : tensor<64x8xf32>
}
