// RUN: autopart-opt %s -sdy-sink-func-data-flow-edges | FileCheck %s

// Each sdy.func_data_flow_edge hands its sharding to the value it sits on
// and disappears (Shardy, sdy_export_passes.md: "Moves the sharding of each
// FuncDataFlowEdgeOp to its input and replaces the op with its input").

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An argument edge with a sharding: the argument takes it. An argument edge
// without one, on an unsharded argument: nothing to move.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<4xf32>)
// CHECK-NEXT:    %0 = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NEXT:    return %0, %arg1
func.func private @callee(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  %1 = sdy.func_data_flow_edge %arg1 : tensor<4xf32>
  %2 = stablehlo.negate %0 : tensor<8xf32>
  return %2, %1 : tensor<8xf32>, tensor<4xf32>
}

// Call results: the first call had no shardings, its second result's edge
// gives one, so the call gets a list with the other result fully open on
// the same mesh. The second call's first result edge has no sharding: the
// call's own {"a"} no longer holds after propagation and becomes fully open
// (Shardy sets getFullyOpenLike of the old sharding); its second result
// takes the edge's {"a", ?}.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0:2 = call @callee(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"b"}]>]>}
// CHECK-NEXT:    %1:2 = call @callee(%0#0, %0#1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"a", ?}]>]>}
// CHECK-NEXT:    return %1#0, %1#1
// CHECK-NOT:   sdy.func_data_flow_edge
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0:2 = call @callee(%arg0, %arg1) : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  %1 = sdy.func_data_flow_edge %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<4xf32>
  %2 = sdy.func_data_flow_edge %0#0 : tensor<8xf32>
  %3:2 = call @callee(%2, %1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{"b"}]>]>} : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  %4 = sdy.func_data_flow_edge %3#0 : tensor<8xf32>
  %5 = sdy.func_data_flow_edge %3#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<4xf32>
  return %4, %5 : tensor<8xf32>, tensor<4xf32>
}
