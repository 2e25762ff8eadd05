// RUN: autopart-opt %s -sdy-aggressive-propagate | FileCheck %s

// On an elementwise op every tensor has the same factors and the same size,
// so "the larger source tensor" cannot choose between two factors that want
// the same axis. The aggressive strategy then prefers the factor sharded
// the most ways: its tensors are the smallest per device (Shardy's docs:
// aggressive propagation "can reduce the memory footprint at the cost of
// potential communication").

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Both factors want "x" in the result; the rows (["y", "x"], 4 ways, on
// operand %b) beat the columns (["x"], 2 ways, on operand %a).
// CHECK-LABEL: func.func @most_sharded_on_operands(
// CHECK: stablehlo.maximum %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x", ?}, {?}]>]>}
func.func @most_sharded_on_operands(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                                    %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.maximum %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The competing sharding sits on the result (through the function result):
// its columns (["z", "y"], 4 ways) beat %a's rows (["z"], 2 ways), and the
// open operand %b follows the result.
// CHECK-LABEL: func.func @most_sharded_result_against_operand(
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", "y", ?}]>}
// CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"z", "y", ?}]>]>}
func.func @most_sharded_result_against_operand(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {?}]>},
                                               %b: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", "y"}]>}) {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Not elementwise: the preference does not apply. The sources are equally
// large, so the earlier one (the lhs) wins although the rhs's columns are
// sharded more ways.
// CHECK-LABEL: func.func @non_elementwise_prefers_lhs(
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @non_elementwise_prefers_lhs(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                                       %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
