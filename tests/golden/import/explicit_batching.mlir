// RUN: autopart-opt %s -sdy-explicit-gather-scatter-batching | FileCheck %s

// Cases beyond Shardy's lit file: indices that are not a concatenation are
// sliced around the iota component, and a scatter whose index component is
// not an iota keeps its implicit batch.

// The whole index tensor is an iota: components 0 and 2 are kept by slicing
// around component 1 (which indexes operand dimension 0).
// CHECK-LABEL: func.func @gather_sliced_indices(
// CHECK-NEXT: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<4x3xi32>
// CHECK-NEXT: %[[LO:.*]] = stablehlo.slice %[[IOTA]] [0:4, 0:1]
// CHECK-NEXT: %[[HI:.*]] = stablehlo.slice %[[IOTA]] [0:4, 2:3]
// CHECK-NEXT: %[[IDX:.*]] = stablehlo.concatenate %[[LO]], %[[HI]], dim = 1
// CHECK-NEXT: "stablehlo.gather"(%arg0, %[[IDX]])
// CHECK-SAME: collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2]
func.func @gather_sliced_indices(%operand: tensor<4x8x16xf32>) -> tensor<4x1xf32> {
  %idx = stablehlo.iota dim = 0 : tensor<4x3xi32>
  %result = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0, 2], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1, 1>, indices_are_sorted = false
  } : (tensor<4x8x16xf32>, tensor<4x3xi32>) -> tensor<4x1xf32>
  return %result : tensor<4x1xf32>
}

// The iota runs along dimension 1: not a batch.
// CHECK-LABEL: func.func @scatter_iota_on_other_dim(
// CHECK: "stablehlo.scatter"
// CHECK-SAME: inserted_window_dims = [0, 1]
// CHECK-NOT: input_batching_dims
func.func @scatter_iota_on_other_dim(%input: tensor<4x8xf32>, %updates: tensor<4xf32>) -> tensor<4x8xf32> {
  %iota = stablehlo.iota dim = 1 : tensor<4x2xi32>
  %0 = "stablehlo.scatter"(%input, %iota, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>,
    indices_are_sorted = false, unique_indices = false
  } : (tensor<4x8xf32>, tensor<4x2xi32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
