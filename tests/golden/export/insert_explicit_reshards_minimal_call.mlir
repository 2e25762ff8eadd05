// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=false' | FileCheck %s

// Calls get their operands resharded to the callee's argument shardings even
// in the minimal explicit reshards (Shardy's insert_explicit_reshards treats
// func.call as always "on full version": otherwise call sites with different
// operand shardings would need copies of the callee). Each reshard goes right
// after the operand's definition (the start of the block for an argument),
// so a later call's reshard of the same value comes first.

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func private @sharded_arg(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  return %arg0 : tensor<8x8xf32>
}

func.func private @no_arg_shardings(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// The callee's own all-reduce of its unreduced argument is not doubled.
// CHECK-LABEL: func.func private @unreduced_arg
// CHECK-NEXT:    %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{"b"}, {}]>
// CHECK-NEXT:    return %0
func.func private @unreduced_arg(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}], unreduced={"a"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @operand_resharded_to_callee_argument
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"b"}, {}]>
// CHECK-NEXT:    %1 = call @sharded_arg(%0)
// CHECK-NEXT:    return %1
func.func @operand_resharded_to_callee_argument(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  %0 = call @sharded_arg(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The reshard follows the negate that defines the operand, not the call.
// CHECK-LABEL: func.func @operand_after_its_definition
// CHECK-NEXT:    %0 = stablehlo.negate %arg0
// CHECK-NEXT:    %1 = sdy.reshard %0 <@mesh, [{"b"}, {}]>
// CHECK-NEXT:    %2 = stablehlo.abs %arg0
// CHECK-NEXT:    %3 = call @sharded_arg(%1)
func.func @operand_after_its_definition(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
  %2 = call @sharded_arg(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.add %1, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// A callee without argument shardings takes its operands replicated on their
// mesh.
// CHECK-LABEL: func.func @callee_without_argument_shardings
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{}, {}]>
// CHECK-NEXT:    %1 = call @no_arg_shardings(%0)
func.func @callee_without_argument_shardings(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = call @no_arg_shardings(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @one_value_two_calls
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{}, {}]>
// CHECK-NEXT:    %1 = sdy.reshard %arg0 <@mesh, [{"b"}, {}]>
// CHECK-NEXT:    %2 = call @sharded_arg(%1)
// CHECK-NEXT:    %3 = call @no_arg_shardings(%0)
func.func @one_value_two_calls(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = call @sharded_arg(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = call @no_arg_shardings(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// A callee argument that holds partial sums over "a": the replicated operand
// becomes unreduced without communication (replicated_to_unreduced).
// CHECK-LABEL: func.func @operand_to_unreduced_argument
// CHECK-NEXT:    %0 = sdy.replicated_to_unreduced {"a"} %arg0 out_sharding=<@mesh, [{"b"}, {}], unreduced={"a"}>
// CHECK-NEXT:    %1 = call @unreduced_arg(%0)
func.func @operand_to_unreduced_argument(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x8xf32> {
  %0 = call @unreduced_arg(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
