// RUN: autopart-opt %s -sdy-export-named-computations | FileCheck %s

// Each sdy.named_computation becomes a call of a new private function
// (sdy_export_passes.md: "converts a NamedComputationOp to a CallOp with a
// new private function called the NamedComputationOp's name ... If there is
// a function with the same name ... the MLIR symbol table will change it to
// {name}_#").

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The call keeps the computation's other attributes and takes its
// out_shardings; the function's arguments take its in_shardings. A second
// computation named "foo" gets @foo_0. The inner "inner" computation is
// outlined first, so @outer's body calls @inner.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = call @foo(%arg0) {random_attr = "v", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    %1 = call @foo_0(%0) : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    %2 = call @outer(%1) : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    return %2
func.func @main(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%arg1: tensor<8x2xf32>) {
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<8x2xf32>
    sdy.return %1 : tensor<8x2xf32>
  } {random_attr = "v"} : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %2 = sdy.named_computation<"foo">(%0) (%arg1: tensor<8x2xf32>) {
    %3 = stablehlo.abs %arg1 : tensor<8x2xf32>
    sdy.return %3 : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %4 = sdy.named_computation<"outer">(%2) (%arg1: tensor<8x2xf32>) {
    %5 = sdy.named_computation<"inner">(%arg1) (%arg2: tensor<8x2xf32>) {
      %6 = stablehlo.negate %arg2 : tensor<8x2xf32>
      sdy.return %6 : tensor<8x2xf32>
    } : (tensor<8x2xf32>) -> tensor<8x2xf32>
    sdy.return %5 : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %4 : tensor<8x2xf32>
}

// Data-flow edges on a computation go (a call has none); their shardings
// become the call's result sharding and the function's argument sharding.
// CHECK-LABEL: func.func @edges
// CHECK-NEXT:    %0 = call @bar(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// CHECK-NEXT:    %1 = stablehlo.negate %0
func.func @edges(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = sdy.named_computation<"bar">(%arg0) (%arg1: tensor<8x2xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"x"}, {}]> : tensor<8x2xf32>
    %2 = stablehlo.abs %1 : tensor<8x2xf32>
    sdy.return %2 : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"y"}, {}]> : tensor<8x2xf32>
  %4 = stablehlo.negate %3 : tensor<8x2xf32>
  return %4 : tensor<8x2xf32>
}

// Functions are appended in outlining order (post-order: @inner before @outer).
// CHECK-LABEL: func.func private @foo(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x2xf32> attributes {sdy.original_func_name = "foo"}
// CHECK-NEXT:    stablehlo.multiply %arg0, %arg0
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @foo_0(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> attributes {sdy.original_func_name = "foo"}
// CHECK-LABEL: func.func private @inner(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> attributes {sdy.original_func_name = "inner"}
// CHECK-NEXT:    stablehlo.negate %arg0
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @outer(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> attributes {sdy.original_func_name = "outer"}
// CHECK-NEXT:    %0 = call @inner(%arg0)
// CHECK-NEXT:    return %0
// CHECK-LABEL: func.func private @bar(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x2xf32> attributes {sdy.original_func_name = "bar"}
// CHECK-NEXT:    stablehlo.abs %arg0
// CHECK-NOT:   sdy.named_computation
// CHECK-NOT:   sdy.data_flow_edge
