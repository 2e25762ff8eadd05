// RUN: autopart-opt %s -sdy-insert-func-call-reshards | FileCheck %s

// After unflattening, calls of one function may disagree with its result
// shardings. Shardy (sdy_export_passes.md: "Inserts reshards for func and
// call sharding conflicts on results") gives the call the callee's result
// sharding and reshards the result back to what the call's users expect.

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func private @two(%arg0: tensor<8x2xi32>) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  return %arg0, %arg0 : tensor<8x2xi32>, tensor<8x2xi32>
}

func.func private @unsharded(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  return %arg0 : tensor<8x2xi32>
}

// Both results differ: each gets a reshard right after the call, so the
// second result's reshard comes first; the users read the reshards.
// CHECK-LABEL: func.func @both_results_differ
// CHECK-NEXT:    %0:2 = call @two(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT:    %1 = sdy.reshard %0#1 <@mesh, [{"y"}, {"x"}]>
// CHECK-NEXT:    %2 = sdy.reshard %0#0 <@mesh, [{"x"}, {"y"}]>
// CHECK-NEXT:    %3 = stablehlo.divide %2, %1
func.func @both_results_differ(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0:2 = call @two(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {"x"}]>]>} : (tensor<8x2xi32>) -> (tensor<8x2xi32>, tensor<8x2xi32>)
  %1 = stablehlo.divide %0#0, %0#1 : tensor<8x2xi32>
  return %1 : tensor<8x2xi32>
}

// Matching shardings: nothing to do.
// CHECK-LABEL: func.func @results_match
// CHECK-NEXT:    %0:2 = call @two(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT:    stablehlo.divide %0#0, %0#1
func.func @results_match(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0:2 = call @two(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]>} : (tensor<8x2xi32>) -> (tensor<8x2xi32>, tensor<8x2xi32>)
  %1 = stablehlo.divide %0#0, %0#1 : tensor<8x2xi32>
  return %1 : tensor<8x2xi32>
}

// A callee result without a sharding is replicated: the call is made
// replicated and resharded to its own sharding.
// CHECK-LABEL: func.func @callee_result_unsharded
// CHECK-NEXT:    %0 = call @unsharded(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}
// CHECK-NEXT:    %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]>
// CHECK-NEXT:    return %1
func.func @callee_result_unsharded(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = call @unsharded(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}

// A call without result shardings has no conflict.
// CHECK-LABEL: func.func @call_without_shardings
// CHECK-NEXT:    %0:2 = call @two(%arg0) : (tensor<8x2xi32>)
// CHECK-NEXT:    return %0#0
func.func @call_without_shardings(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0:2 = call @two(%arg0) : (tensor<8x2xi32>) -> (tensor<8x2xi32>, tensor<8x2xi32>)
  return %0#0 : tensor<8x2xi32>
}
