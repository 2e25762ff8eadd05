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

// Level 0 skips an op when one of its non-scalar operands has other users:
// sharding one user of a shared value first would make each of its other users
// disagree with it (one reshard per use), and taking a sharding backwards from
// one user could conflict with what another user needs. Here %0 feeds both the
// negate and the abs, so the negate waits until level 1, by which time the
// closed result of the sqrt has already given %1 "b" on its columns; the abs,
// with no competing source, takes %0's rows at level 1. (Shardy's op-priority
// schedule: single-use pass-through ops, then any pass-through op.)
// CHECK-LABEL: func.func @shared_value_waits(
// CHECK: stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>}
// CHECK-NEXT: stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}
// CHECK-NEXT: stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>}
// CHECK-NEXT: stablehlo.sqrt %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}
func.func @shared_value_waits(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>})
    -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, tensor<16x4xf32>) {
  %0 = stablehlo.exponential %arg0 : tensor<16x4xf32>
  %1 = stablehlo.negate %0 : tensor<16x4xf32>
  %2 = stablehlo.abs %0 : tensor<16x4xf32>
  %3 = stablehlo.sqrt %1 : tensor<16x4xf32>
  return %3, %2 : tensor<16x4xf32>, tensor<16x4xf32>
}

// A broadcast propagates forward only at the last level, after every other
// op (including the non-pass-through factors of level 3): a broadcast result
// is cheap to produce in any sharding, while the large tensor it meets is
// expensive to reshard. The 512x256 weight's contracting "a" therefore
// reaches the broadcast's new dimension first, and %arg0's "a" can no longer
// go to its rows; the dot itself gets no sharding. (Shardy's op-priority
// schedule: everything but broadcast-forward, then everything.)
// CHECK-LABEL: func.func @broadcast_waits_for_contraction(
// CHECK-SAME: -> tensor<16x256xf32>
// CHECK: stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
// CHECK-NEXT: stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] :
// Without op priorities the broadcast runs first and its rows win.
// PLAIN-LABEL: func.func @broadcast_waits_for_contraction(
// PLAIN: stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
func.func @broadcast_waits_for_contraction(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>},
    %arg1: tensor<512x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<16x256xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<16xf32>) -> tensor<16x512xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<16x512xf32>, tensor<512x256xf32>) -> tensor<16x256xf32>
  return %1 : tensor<16x256xf32>
}
