// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | FileCheck %s

// A factor that needs replication (a cholesky matrix dimension, a sort
// dimension) cannot stay sharded. Shardy's full explicit-reshard insertion
// (sdy_export_passes.md: operands and results are resharded to a common
// sharding per factor) lets such a factor win axes like any other and then
// moves them to the batching factors that have room, so the op still runs
// split over as many devices instead of replicated.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// The matrix dimension's "b" moves to the batch dimension (16 / 4 fits).
// CHECK-LABEL: func.func @matrix_axis_moves_to_batch
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"b"}, {}, {}]>
// CHECK-NEXT:    %1 = stablehlo.cholesky %0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}, {}]>]>}
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{}, {"b"}, {}]>
// CHECK-NEXT:    return %2
func.func @matrix_axis_moves_to_batch(%arg0: tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}, {}]>}) -> (tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}, {}]>}) {
  %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}, {}]>]>} : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
  return %0 : tensor<16x8x8xf32>
}

// The first batch dimension (size 2) is full with "a"; "b" goes to the second.
// CHECK-LABEL: func.func @first_batch_full_second_takes_it
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}, {}, {}]>
// CHECK-NEXT:    %1 = stablehlo.cholesky %0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}, {}, {}]>]>}
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{"a"}, {}, {}, {}]>
func.func @first_batch_full_second_takes_it(%arg0: tensor<2x8x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}, {"b"}, {}]>}) -> (tensor<2x8x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}, {}, {}]>}) {
  %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}, {}, {}]>]>} : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// No batching factor has room for "b": the op runs replicated over it.
// CHECK-LABEL: func.func @no_room_axis_dropped
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}, {}]>
// CHECK-NEXT:    %1 = stablehlo.cholesky %0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}, {}]>]>}
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{"a"}, {"b"}, {}]>
func.func @no_room_axis_dropped(%arg0: tensor<2x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}, {}]>}) -> (tensor<2x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}, {}]>}) {
  %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}, {}]>]>} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %0 : tensor<2x8x8xf32>
}

// Both axes of the sort dimension move, in order, to the other dimension.
// CHECK-LABEL: func.func @sort_dimension_axes_move
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"a", "b"}, {}]>
// CHECK:         sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}, {}]>]>
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{}, {"a", "b"}]>
func.func @sort_dimension_axes_move(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a", "b"}]>}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a", "b"}]>}) {
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a", "b"}]>]>} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
