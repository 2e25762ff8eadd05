// RUN: autopart-opt %s -canonicalize | FileCheck %s

// One function per collective pattern of -canonicalize, on cases Shardy's own
// tests do not spell out: sub-axes, missing operand shardings, unreduced
// reductions, and what must be left alone.

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @mesh8 = <["x"=8, "y"=2]>

// A permute of a replicated operand to a replicated target moves nothing.
// CHECK-LABEL: func @permute_of_replicated_to_replicated_folds
// CHECK-NEXT: return %arg0
func.func @permute_of_replicated_to_replicated_folds(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A permute whose target differs from the operand's sharding stays.
// CHECK-LABEL: func @permute_to_other_axes_stays
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {}]>
func.func @permute_to_other_axes_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A reduce_scatter over no axes folds; an unused all_gather with axes stays
// (collectives have side effects).
// CHECK-LABEL: func @empty_reduce_scatter_folds_unused_gather_stays
// CHECK-NEXT: %0 = sdy.all_gather [{"x"}, {}] %arg0
// CHECK-NEXT: return %arg0
func.func @empty_reduce_scatter_folds_unused_gather_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.reduce_scatter [{}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Slicing the same sub-axes that were gathered gives the operand back.
// CHECK-LABEL: func @slice_of_gather_with_sub_axes_cancels
// CHECK: return %arg0
func.func @slice_of_gather_with_sub_axes_cancels(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh8, [{"x":(1)2}, {"x":(2)4}]>}) -> tensor<16x8xf32> {
  %0 = sdy.all_gather [{"x":(1)2}, {"x":(2)4}] %arg0 out_sharding=<@mesh8, [{}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{"x":(1)2}, {"x":(2)4}] %0 out_sharding=<@mesh8, [{"x":(1)2}, {"x":(2)4}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// The fused reduce_scatter keeps the operand's axes and merges a sub-axis
// that continues one of them; nothing is left to slice.
// CHECK-LABEL: func @reduce_scatter_fusion_merges_sub_axis_without_residue
// CHECK-NEXT: %0 = sdy.reduce_scatter [{"x":(4)2}, {}] %arg0 out_sharding=<@mesh8, [{"x"}, {}]>
// CHECK-NEXT: return %0
func.func @reduce_scatter_fusion_merges_sub_axis_without_residue(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh8, [{"x":(1)4}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.all_reduce {"x":(4)2} %arg0 out_sharding=<@mesh8, [{"x":(1)4}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{"x":(4)2}, {}] %0 out_sharding=<@mesh8, [{"x"}, {}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// Not fused when the all_reduce is read by anything but identical slices.
// CHECK-LABEL: func @reduce_scatter_fusion_needs_only_slice_users
// CHECK-NEXT: %0 = sdy.all_reduce {"x"} %arg0
// CHECK-NEXT: %1 = sdy.all_slice [{"x"}, {}] %0
// CHECK-NEXT: %2 = stablehlo.negate %0
func.func @reduce_scatter_fusion_needs_only_slice_users(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// Reducing all axes a sharded_to_unreduced made unreduced, listed in another
// order, is an all_gather of its operand.
// CHECK-LABEL: func @all_reduce_of_sharded_to_unreduced_sorts_axes
// CHECK: %1 = sdy.all_gather [{}, {"y", "x"}] %arg0 out_sharding=<@mesh, [{}, {}]>
// CHECK-NEXT: return %1
func.func @all_reduce_of_sharded_to_unreduced_sorts_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharded_to_unreduced [{}, {"y", "x"}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x8xf32>
  %1 = sdy.all_reduce {"x", "y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Reducing only part of what replicated_to_unreduced made unreduced stays.
// CHECK-LABEL: func @all_reduce_of_part_of_replicated_to_unreduced_stays
// CHECK: %1 = sdy.all_reduce {"x"} %0
func.func @all_reduce_of_part_of_replicated_to_unreduced_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.replicated_to_unreduced {"x", "y"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x8xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Two all_to_alls over disjoint dimensions fuse into one whose parameters
// are sorted by source dimension, whichever ran first.
// CHECK-LABEL: func @all_to_all_chain_fuses_sorted_by_source
// CHECK-NEXT: %0 = sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->3] %arg0 out_sharding=<@mesh, [{}, {}, {"x"}, {"y"}]>
// CHECK-NEXT: return %0
func.func @all_to_all_chain_fuses_sorted_by_source(%arg0: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}) -> tensor<8x8x8x8xf32> {
  %0 = sdy.all_to_all [{"y"}: 1->3] %arg0 out_sharding=<@mesh, [{"x"}, {}, {}, {"y"}]> : tensor<8x8x8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->2] %0 out_sharding=<@mesh, [{}, {}, {"x"}, {"y"}]> : tensor<8x8x8x8xf32>
  return %1 : tensor<8x8x8x8xf32>
}
