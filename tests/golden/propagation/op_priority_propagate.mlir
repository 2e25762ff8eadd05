// RUN: autopart-opt %s -sdy-op-priority-propagate | FileCheck %s
// RUN: autopart-opt %s -sdy-aggressive-propagate | FileCheck %s --check-prefix=PLAIN

// Op priorities: elementwise ops propagate before anything else, so a
// sharding arriving through an add wins over one a dot would bring.

sdy.mesh @mesh = <["a"=2, "b"=2]>

// %arg2's "a" reaches %0 through the add (level 0) before the dot (level 2)
// could put %arg1's "a" on %0's columns.
// CHECK-LABEL: func.func @elementwise_first(
// CHECK: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// CHECK: stablehlo.add {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// Without op priorities the dot runs first (program order); the add then sees
// "a" on both of its factors, from equally large sources, and the aggressive
// strategy gives it to the factor whose source comes first (%0's columns).
// PLAIN-LABEL: func.func @elementwise_first(
// PLAIN: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
// PLAIN: stablehlo.add {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
func.func @elementwise_first(%arg0: tensor<8x8xf32>,
                             %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>},
                             %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg2 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
