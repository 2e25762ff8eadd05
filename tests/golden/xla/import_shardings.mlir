// RUN: autopart-opt %s -xla-sdy-import-shardings -split-input-file | FileCheck %s

// GSPMD strings become Shardy shardings on one mesh whose axes refine every
// tile assignment of the module: [8,4] (the transposed iota of the first
// argument) and [2,16] (the partial tiling of the second) meet in [2,4,4].

// CHECK-LABEL: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
// CHECK-LABEL: func @common_mesh_refines_every_assignment(
// CHECK-SAME: %arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>}
// CHECK-SAME: %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0"}]>}
// CHECK-SAME: -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}, {"_axis_2"}]>})
func.func @common_mesh_refines_every_assignment(
    %arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"},
    %arg1: tensor<16x32xf32> {mhlo.sharding = "{devices=[1,2,16]<=[32] last_tile_dim_replicate}"})
    -> (tensor<16x32xf32> {mhlo.sharding = "{devices=[8,4]<=[32]}"}) {
  // CHECK: stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_1", "_axis_0"}, {}]>]>}
  %0 = stablehlo.multiply %arg0, %arg1 {mhlo.sharding = "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"} : tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// A tile dimension of 6 over an iota of 7x10x3 transposed: the 10 splits
// into 2 x 5 across the two tile dimensions, so the mesh is 7,2,5,3.

// CHECK-LABEL: sdy.mesh @mesh = <["_axis_0"=7, "_axis_1"=2, "_axis_2"=5, "_axis_3"=3]>
// CHECK-LABEL: func @axes_split_at_prime_factors(
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_3", "_axis_1"}, {"_axis_2", "_axis_0"}]>}
func.func @axes_split_at_prime_factors(%arg0: tensor<12x70xf32> {mhlo.sharding = "{devices=[6,35]<=[7,10,3]T(2,1,0)}"}) -> tensor<12x70xf32> {
  return %arg0 : tensor<12x70xf32>
}

// -----

// CHECK-LABEL: sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2]>
// CHECK-LABEL: func @tuple_sharding_per_result
// CHECK: stablehlo.optimization_barrier
// CHECK-SAME: {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {}]>, <@mesh, [{}, {"_axis_1"}]>]>}
func.func @tuple_sharding_per_result(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg1) {mhlo.sharding = "{{devices=[4,1,2]<=[8] last_tile_dim_replicate}, {devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}}"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// CHECK-LABEL: sdy.mesh @mesh = <["_axis_0"=4]>
// CHECK-LABEL: func @replicated_closed_unknown_open(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}
// CHECK-SAME: %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}
func.func @replicated_closed_unknown_open(%arg0: tensor<8x8xf32> {mhlo.sharding = "{replicated}"},
                                          %arg1: tensor<8x8xf32> {mhlo.sharding = "{unknown}"},
                                          %arg2: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// Only replicated strings: an empty mesh.

// CHECK-LABEL: sdy.mesh @mesh = <[]>
// CHECK-LABEL: func @only_replicated_gives_an_empty_mesh(
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{}]>}
func.func @only_replicated_gives_an_empty_mesh(%arg0: tensor<8xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// One maximal mesh per device, sorted by id, each once.

// CHECK: sdy.mesh @mesh = <["_axis_0"=2]>
// CHECK-NEXT: sdy.mesh @single_device_1 = <[], device_ids=[1]>
// CHECK-NEXT: sdy.mesh @single_device_3 = <[], device_ids=[3]>
// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func @maximal_meshes_sorted_and_deduplicated(
// CHECK-SAME: %arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@single_device_3, []>}
// CHECK-SAME: %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@single_device_1, []>}
// CHECK-SAME: %arg2: tensor<4xf32> {sdy.sharding = #sdy.sharding<@single_device_1, []>}
// CHECK: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}]>]>}
func.func @maximal_meshes_sorted_and_deduplicated(%arg0: tensor<4xf32> {mhlo.sharding = "{maximal device=3}"},
                                                  %arg1: tensor<4xf32> {mhlo.sharding = "{maximal device=1}"},
                                                  %arg2: tensor<4xf32> {mhlo.sharding = "{maximal device=1}"}) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 {mhlo.sharding = "{devices=[2]<=[2]}"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A device list that is no layout of the ids (0,2,3,1: the steps 2 and 3
// are no mixed radix) gives the mesh its device order; the other sharding
// is a layout of that order (position of 3 is 2, of 2 is 1).

// CHECK-LABEL: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2], device_ids=[0, 2, 3, 1]>
// CHECK-LABEL: func @device_list_becomes_mesh_device_ids(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {}]>}
func.func @device_list_becomes_mesh_device_ids(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]0,2,3,1}"},
                                               %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]0,3,2,1 last_tile_dim_replicate}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// Subgroups typed in last_tile_dims: replicated axes are listed, unreduced
// axes keep the reduction XLA records in the metadata.

// CHECK-LABEL: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2]>
// CHECK-LABEL: func @typed_subgroups_replicated_and_unreduced(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}], replicated={"_axis_2"}, unreduced={"_axis_1"}>}
// CHECK-SAME: %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"_axis_0", "_axis_1", "_axis_2"}>}
func.func @typed_subgroups_replicated_and_unreduced(
    %arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2,2,2]<=[8] last_tile_dims={unreduced, replicated} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"},
    %arg1: tensor<8xf32> {mhlo.sharding = "{devices=[1,8]<=[8] last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22MAX\22}}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// A token (rank 0) takes an empty dimension list.

// CHECK-LABEL: func @token_has_no_dimensions(
// CHECK-SAME: !stablehlo.token {sdy.sharding = #sdy.sharding<@mesh, []>}
func.func @token_has_no_dimensions(%arg0: !stablehlo.token {mhlo.sharding = "{replicated}"},
                                   %arg1: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> !stablehlo.token {
  return %arg0 : !stablehlo.token
}

// -----

// No mhlo.sharding: nothing changes, no mesh.

// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func @no_shardings_no_mesh(
func.func @no_shardings_no_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
