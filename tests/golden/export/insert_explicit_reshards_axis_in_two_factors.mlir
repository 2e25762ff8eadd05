// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | FileCheck %s

// Every tensor agreeing factor by factor is not enough: the op's iteration
// space is cut by all factors at once, so one axis may shard only one of
// them. Here the operand shards the size-1 factor of its first dimension
// and the result the size-1 factor of its second, both over "a"; Shardy
// (sdy_export_passes.md: operands and results are resharded to a common
// sharding per factor) keeps the operand's sharding, computes the reshape
// replicated along the result's factor and reshards the result back.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @one_axis_on_two_factors
// CHECK-NEXT:    %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}
// CHECK-NEXT:    %1 = sdy.reshard %0 <@mesh, [{}, {"a"}]>
// CHECK-NEXT:    return %1
func.func @one_axis_on_two_factors(%arg0: tensor<1x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>} : (tensor<1x8xf32>) -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}
