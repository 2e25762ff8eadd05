// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | FileCheck %s

// Unreduced axes, data-flow ops and meshes in -sdy-insert-explicit-reshards
// (see export/UnreducedCollectives.h and export/InsertExplicitReshards.cpp).

sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @mesh_rev = <["a"=2, "b"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

// Partial sums an op's result does not keep are reduced before the op reads
// them (sdy_export_passes.md: an all-reduce is inserted where unreduced axes
// become replicated).
// CHECK-LABEL: func @operand_partial_sums_reduced_before_reader
// CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{"a"}]>
// CHECK-NEXT: %[[EXP:.*]] = stablehlo.exponential %[[AR]]
// CHECK-NEXT: return %[[EXP]]
func.func @operand_partial_sums_reduced_before_reader(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced={"b"}>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  %0 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// Partial maxima are reduced with max, not summed.
// CHECK-LABEL: func @max_partials_reduced_with_max
// CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce max {"a"} %arg0 out_sharding=<@mesh, [{}]>
// CHECK-NEXT: stablehlo.exponential %[[AR]]
func.func @max_partials_reduced_with_max(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"a"}>}) -> tensor<16xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// A result that keeps the partial sums delays the all-reduce to where they
// become replicated: here the unsharded function result.
// CHECK-LABEL: func @partial_sums_kept_until_result
// CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %arg0
// CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"b"} %[[NEG]] out_sharding=<@mesh, [{}]>
// CHECK-NEXT: return %[[AR]]
func.func @partial_sums_kept_until_result(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"b"}>}) -> tensor<16xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"b"}>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// A reduction over "b" whose result keeps only "b":(1)2 unreduced reduces the
// rest of the axis, "b":(2)2.
// CHECK-LABEL: func @reduce_keeps_part_of_an_axis_unreduced
// CHECK:      %[[RED:.*]] = stablehlo.reduce
// CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"b":(2)2} %[[RED]] out_sharding=<@mesh, [{}], unreduced={"b":(1)2}>
// CHECK-NEXT: return %[[AR]]
func.func @reduce_keeps_part_of_an_axis_unreduced(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"b":(1)2}>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"b":(1)2}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A function result unreduced over an axis the value is replicated on takes
// a replicated_to_unreduced.
// CHECK-LABEL: func @result_adds_unreduced_on_replicated_axis
// CHECK-NEXT: %[[R2U:.*]] = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@mesh, [{"a"}], unreduced={"b"}>
// CHECK-NEXT: return %[[R2U]]
func.func @result_adds_unreduced_on_replicated_axis(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced={"b"}>}) {
  return %arg0 : tensor<16xf32>
}

// Dimensions move first (a reshard), then the replicated axis becomes
// unreduced.
// CHECK-LABEL: func @result_moves_dims_then_adds_unreduced
// CHECK-NEXT: %[[RS:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"a"}]>
// CHECK-NEXT: %[[R2U:.*]] = sdy.replicated_to_unreduced {"b"} %[[RS]] out_sharding=<@mesh, [{}, {"a"}], unreduced={"b"}>
// CHECK-NEXT: return %[[R2U]]
func.func @result_moves_dims_then_adds_unreduced(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}], unreduced={"b"}>}) {
  return %arg0 : tensor<16x8xf32>
}

// A reshard that only adds unreduced axes is lowered: "a" was replicated
// (replicated_to_unreduced), "b":(2)2 sharded dimension 0 (sharded_to_unreduced).
// CHECK-LABEL: func @reshard_to_unreduced_becomes_collectives
// CHECK-NEXT: %[[R2U:.*]] = sdy.replicated_to_unreduced {"a"} %arg0 out_sharding=<@mesh, [{"b"}, {}], unreduced={"a"}>
// CHECK-NEXT: %[[S2U:.*]] = sdy.sharded_to_unreduced [{"b":(2)2}, {}] %[[R2U]] out_sharding=<@mesh, [{"b":(1)2}, {}], unreduced={"a", "b":(2)2}>
// CHECK-NEXT: return %[[S2U]]
func.func @reshard_to_unreduced_becomes_collectives(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2}, {}], unreduced={"a", "b":(2)2}>}) {
  %0 = sdy.reshard %arg0 <@mesh, [{"b":(1)2}, {}], unreduced={"a", "b":(2)2}> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// A data-flow op's source is resharded right after it is defined, for that
// use only: the abs in between still reads the original value.
// CHECK-LABEL: func @barrier_operand_resharded_after_definition
// CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %arg0
// CHECK-NEXT: %[[RS:.*]] = sdy.reshard %[[NEG]] <@mesh, [{"b"}]>
// CHECK-NEXT: %[[ABS:.*]] = stablehlo.abs %arg0
// CHECK-NEXT: %[[BAR:.*]] = stablehlo.optimization_barrier {{.*}} %[[RS]]
func.func @barrier_operand_resharded_after_definition(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<16xf32>
  %1 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<16xf32>
  %2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} %0 : tensor<16xf32>
  %3 = stablehlo.add %1, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<16xf32>
  return %3 : tensor<16xf32>
}

// A manual computation's body returns its result in the local view: the out
// sharding without the manual axis "a".
// CHECK-LABEL: func @manual_body_returns_local_sharding
// CHECK:      %[[ABS:.*]] = stablehlo.abs %arg1
// CHECK-NEXT: %[[RS:.*]] = sdy.reshard %[[ABS]] <@mesh, [{"b"}]>
// CHECK-NEXT: sdy.return %[[RS]]
func.func @manual_body_returns_local_sharding(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a", "b"}]>] manual_axes={"a"} (%arg1: tensor<16xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<16xf32>
    sdy.return %1 : tensor<16xf32>
  } : (tensor<32xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// Same axes on a mesh with another device order still differ: the operand
// moves to the op's mesh.
// CHECK-LABEL: func @operand_on_other_device_order_moves
// CHECK-NEXT: %[[RS:.*]] = sdy.reshard %arg0 <@mesh, [{"b"}]>
// CHECK-NEXT: stablehlo.add %[[RS]], %arg1
func.func @operand_on_other_device_order_moves(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{"b"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}
