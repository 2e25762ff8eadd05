// RUN: autopart-opt %s -sdy-reshard-to-collectives | FileCheck %s
// RUN: autopart-opt %s -sdy-reshard-to-collectives='keep-redundant-reshards=true' | FileCheck %s --check-prefix=KEEP

// Each sdy.reshard becomes the sdy collectives that move its operand's
// sharding to its own (sdy_export_passes.md, -sdy-reshard-to-collectives):
// slices, then a permute, then all-to-alls, then gathers, every collective
// carrying the closed sharding reached so far.

// With keep-redundant-reshards a reshard to the operand's own sharding stays.
// KEEP-LABEL: func.func @already_in_target_is_erased
// KEEP-NEXT:    sdy.reshard %arg0 <@cube, [{"a", ?}, {"b"}]>
// KEEP-LABEL: func.func @minor_axes_are_gathered
// KEEP-NEXT:    sdy.all_gather

sdy.mesh @cube = <["a"=2, "b"=2, "c"=2]>
sdy.mesh @cube_rev = <["a"=2, "b"=2, "c"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @wide = <["a"=4, "b"=2]>
sdy.mesh @odd = <["p"=2, "q"=3]>
sdy.mesh @line = <["r"=8]>

// The operand already has the target's axes (open or closed does not matter):
// no collective, the reshard is dropped.
// CHECK-LABEL: func.func @already_in_target_is_erased
// CHECK-NEXT:    return %arg0
func.func @already_in_target_is_erased(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a", ?}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Replicated on one mesh is replicated on any other: nothing to move.
// CHECK-LABEL: func.func @replicated_on_two_meshes_is_erased
// CHECK-NEXT:    return %arg0
func.func @replicated_on_two_meshes_is_erased(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@line, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Only the minor axis "b" is no longer wanted: one all-gather of it.
// CHECK-LABEL: func.func @minor_axes_are_gathered
// CHECK-NEXT:    %0 = sdy.all_gather [{"b"}, {}] %arg0 out_sharding=<@cube, [{"a"}, {"c"}]>
// CHECK-NEXT:    return %0
func.func @minor_axes_are_gathered(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a", "b"}, {"c"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a"}, {"c"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A fully replicated target is reached on the operand's mesh, whatever mesh
// the target names.
// CHECK-LABEL: func.func @replicated_target_gathers_on_operand_mesh
// CHECK-NEXT:    %0 = sdy.all_gather [{"c"}, {"a"}] %arg0 out_sharding=<@cube, [{}, {}]>
// CHECK-NEXT:    return %0
func.func @replicated_target_gathers_on_operand_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"c"}, {"a"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@line, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Axes the operand does not use are sliced where the target wants them.
// CHECK-LABEL: func.func @free_axes_are_sliced_in_place
// CHECK-NEXT:    %0 = sdy.all_slice [{"a"}, {"c"}] %arg0 out_sharding=<@cube, [{"a"}, {"b", "c"}]>
// CHECK-NEXT:    return %0
func.func @free_axes_are_sliced_in_place(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a"}, {"b", "c"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// An operand with no sharding is replicated.
// CHECK-LABEL: func.func @operand_without_sharding_is_sliced
// CHECK-NEXT:    %0 = sdy.all_slice [{"c"}, {}] %arg0 out_sharding=<@cube, [{"c"}, {}]>
// CHECK-NEXT:    return %0
func.func @operand_without_sharding_is_sliced(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"c"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// An axis changing dimension keeps the shard size: an all-to-all, not a
// gather and a slice.
// CHECK-LABEL: func.func @axis_moves_dims_by_all_to_all
// CHECK-NEXT:    %0 = sdy.all_to_all [{"b"}: 0->2] %arg0 out_sharding=<@cube, [{}, {"a"}, {"b"}]>
// CHECK-NEXT:    return %0
func.func @axis_moves_dims_by_all_to_all(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"b"}, {"a"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{}, {"a"}, {"b"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// "b" must follow "a" on dim 0: slicing it on dim 1 first lets one all-to-all
// move both, where slicing it on dim 0 would need a permute.
// CHECK-LABEL: func.func @slice_on_source_then_one_all_to_all
// CHECK-NEXT:    %0 = sdy.all_slice [{}, {"b"}] %arg0 out_sharding=<@cube, [{}, {"a", "b"}]>
// CHECK-NEXT:    %1 = sdy.all_to_all [{"a", "b"}: 1->0] %0 out_sharding=<@cube, [{"a", "b"}, {}]>
// CHECK-NEXT:    return %1
func.func @slice_on_source_then_one_all_to_all(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@cube, [{}, {"a"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a", "b"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// Axes join the target dimension in its major-to-minor order: "a" first, then "c".
// CHECK-LABEL: func.func @two_all_to_alls_into_one_dim_in_order
// CHECK-NEXT:    %0 = sdy.all_to_all [{"a"}: 1->2] %arg0 out_sharding=<@cube, [{"c"}, {}, {"a"}]>
// CHECK-NEXT:    %1 = sdy.all_to_all [{"c"}: 0->2] %0 out_sharding=<@cube, [{}, {}, {"a", "c"}]>
// CHECK-NEXT:    return %1
func.func @two_all_to_alls_into_one_dim_in_order(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"c"}, {"a"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{}, {}, {"a", "c"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// Same-size axes trading dimensions: one collective-permute.
// CHECK-LABEL: func.func @swap_between_dims_is_one_permute
// CHECK-NEXT:    %0 = sdy.collective_permute %arg0 out_sharding=<@cube, [{"c"}, {"a"}]>
// CHECK-NEXT:    return %0
func.func @swap_between_dims_is_one_permute(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {"c"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"c"}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Same axes, other order within a dimension: one collective-permute.
// CHECK-LABEL: func.func @reorder_within_dim_is_one_permute
// CHECK-NEXT:    %0 = sdy.collective_permute %arg0 out_sharding=<@cube, [{"a", "c"}, {}]>
// CHECK-NEXT:    return %0
func.func @reorder_within_dim_is_one_permute(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"c", "a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a", "c"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// "a"=4 gives way to "b"=2: the permute puts "b" in the major half of the
// split and keeps the minor half of "a", then that half is gathered.
// CHECK-LABEL: func.func @bigger_axis_replaced_then_rest_gathered
// CHECK-NEXT:    %0 = sdy.collective_permute %arg0 out_sharding=<@wide, [{}, {"b", "a":(2)2}]>
// CHECK-NEXT:    %1 = sdy.all_gather [{}, {"a":(2)2}] %0 out_sharding=<@wide, [{}, {"b"}]>
// CHECK-NEXT:    return %1
func.func @bigger_axis_replaced_then_rest_gathered(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@wide, [{}, {"a"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@wide, [{}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Keeping the major sub-axis "a":(1)2 gathers the minor one.
// CHECK-LABEL: func.func @sub_axis_kept_minor_half_gathered
// CHECK-NEXT:    %0 = sdy.all_gather [{"a":(2)2}, {}] %arg0 out_sharding=<@wide, [{"a":(1)2}, {}]>
// CHECK-NEXT:    return %0
func.func @sub_axis_kept_minor_half_gathered(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@wide, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@wide, [{"a":(1)2}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Same axes, other device order: a permute onto the target mesh, after which
// the collectives name that mesh.
// CHECK-LABEL: func.func @device_order_change_is_a_permute
// CHECK-NEXT:    %0 = sdy.collective_permute %arg0 out_sharding=<@cube_rev, [{"a"}, {"b"}]>
// CHECK-NEXT:    %1 = sdy.all_gather [{}, {"b"}] %0 out_sharding=<@cube_rev, [{"a"}, {}]>
// CHECK-NEXT:    return %1
func.func @device_order_change_is_a_permute(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube_rev, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Meshes with different axes: no collective expresses the change, the reshard stays.
// CHECK-LABEL: func.func @different_axes_mesh_change_is_kept
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@line, [{"r"}, {}]>
// CHECK-NEXT:    return %0
func.func @different_axes_mesh_change_is_kept(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@line, [{"r"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// "p"=2 and "q"=3 do not divide each other: slice "q" next to "p", swap them,
// gather "p".
// CHECK-LABEL: func.func @non_divisible_axes_slice_permute_gather
// CHECK-NEXT:    %0 = sdy.all_slice [{}, {"q"}] %arg0 out_sharding=<@odd, [{}, {"p", "q"}]>
// CHECK-NEXT:    %1 = sdy.collective_permute %0 out_sharding=<@odd, [{}, {"q", "p"}]>
// CHECK-NEXT:    %2 = sdy.all_gather [{}, {"p"}] %1 out_sharding=<@odd, [{}, {"q"}]>
// CHECK-NEXT:    return %2
func.func @non_divisible_axes_slice_permute_gather(%arg0: tensor<12x12xf32> {sdy.sharding = #sdy.sharding<@odd, [{}, {"p"}]>}) -> tensor<12x12xf32> {
  %0 = sdy.reshard %arg0 <@odd, [{}, {"q"}]> : tensor<12x12xf32>
  return %0 : tensor<12x12xf32>
}

// Unreduced axes the operand and target share are kept on every collective.
// CHECK-LABEL: func.func @unreduced_axes_ride_along
// CHECK-NEXT:    %0 = sdy.all_to_all [{"a"}: 0->1] %arg0 out_sharding=<@cube, [{}, {"a"}], unreduced={"c"}>
// CHECK-NEXT:    return %0
func.func @unreduced_axes_ride_along(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}], unreduced={"c"}>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{}, {"a"}], unreduced={"c"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// An axis the target holds unreduced and the operand shards: sharded_to_unreduced.
// CHECK-LABEL: func.func @sharded_axis_becomes_unreduced
// CHECK-NEXT:    %0 = sdy.sharded_to_unreduced [{"b"}, {}] %arg0 out_sharding=<@cube, [{"a"}, {}], unreduced={"b"}>
// CHECK-NEXT:    return %0
func.func @sharded_axis_becomes_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// An axis the target holds unreduced and the operand does not use: replicated_to_unreduced.
// CHECK-LABEL: func.func @replicated_axis_becomes_unreduced
// CHECK-NEXT:    %0 = sdy.replicated_to_unreduced {"c"} %arg0 out_sharding=<@cube, [{"a"}, {}], unreduced={"c"}>
// CHECK-NEXT:    return %0
func.func @replicated_axis_becomes_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a"}, {}], unreduced={"c"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The operand's sharding is read through a propagation barrier, and the
// collectives read the barrier's input.
// CHECK-LABEL: func.func @barrier_is_looked_through
// CHECK-NEXT:    %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE
// CHECK-NEXT:    %1 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@cube, [{}, {}]>
// CHECK-NEXT:    return %1
func.func @barrier_is_looked_through(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@cube, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Reshards nested in regions convert too; a while block argument has the loop's sharding.
// CHECK-LABEL: func.func @reshard_in_a_region
// CHECK-NEXT:    %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@cube, [{}, {"b"}]>]>}
// CHECK-NEXT:    cond {
// CHECK-NEXT:    stablehlo.return %arg1
// CHECK-NEXT:    } do {
// CHECK-NEXT:    %1 = sdy.all_to_all [{"b"}: 1->0] %iterArg out_sharding=<@cube, [{"b"}, {}]>
// CHECK-NEXT:    stablehlo.return %1
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0
func.func @reshard_in_a_region(%arg0: tensor<8x8xf32>, %arg1: tensor<i1>) -> tensor<8x8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x8xf32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@cube, [{}, {"b"}]>]>}
    cond {
    stablehlo.return %arg1 : tensor<i1>
  } do {
    %1 = sdy.reshard %iterArg <@cube, [{"b"}, {}]> : tensor<8x8xf32>
    stablehlo.return %1 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// A reshard of a reshard converts from the first one's sharding.
// CHECK-LABEL: func.func @chained_reshards_each_convert
// CHECK-NEXT:    %0 = sdy.all_slice [{"b"}, {}] %arg0 out_sharding=<@cube, [{"a", "b"}, {}]>
// CHECK-NEXT:    %1 = sdy.all_to_all [{"a", "b"}: 0->1] %0 out_sharding=<@cube, [{}, {"a", "b"}]>
// CHECK-NEXT:    return %1
func.func @chained_reshards_each_convert(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a", "b"}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@cube, [{}, {"a", "b"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
