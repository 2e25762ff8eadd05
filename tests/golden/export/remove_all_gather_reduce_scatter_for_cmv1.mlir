// RUN: autopart-opt %s -sdy-remove-all-gather-reduce-scatter-for-cmv1 | FileCheck %s

// For collective matmul v1 (sdy_export_passes.md: "Removes all-gather in
// the pattern all-gather + dot. Removes reduce-scatter in the pattern dot +
// reduce-scatter").

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Both collectives around the dot go; the dot takes the scatter's sharding.
// CHECK-LABEL: func.func @gather_dot_scatter
// CHECK-NEXT:    %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    return %0
func.func @gather_dot_scatter(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x32xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<16x32xf32>
  %1 = stablehlo.dot %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %2 = sdy.reduce_scatter [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// A gather with another use, a gather not feeding a dot, a scatter of a dot
// result used elsewhere and a scatter of partial sums all stay.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %0 = sdy.all_gather
// CHECK-NEXT:    %1 = stablehlo.dot %arg0, %0
// CHECK-NEXT:    %2 = sdy.reduce_scatter [{"x"}, {}] %1
// CHECK-NEXT:    %3 = sdy.all_gather
// CHECK-NEXT:    %4 = stablehlo.negate %3
// CHECK-NEXT:    %5 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>}
// CHECK-NEXT:    %6 = sdy.reduce_scatter
// CHECK-NEXT:    return %0, %1, %2, %4, %6
func.func @kept(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<16x32xf32>, tensor<8x32xf32>) {
  %0 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<16x32xf32>
  %1 = stablehlo.dot %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %2 = sdy.reduce_scatter [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x32xf32>
  %3 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<16x32xf32>
  %4 = stablehlo.negate %3 : tensor<16x32xf32>
  %5 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %6 = sdy.reduce_scatter [{"y"}, {}] %5 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x32xf32>
  return %0, %1, %2, %4, %6 : tensor<16x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<16x32xf32>, tensor<8x32xf32>
}
