// RUN: autopart-opt %s -sdy-basic-propagate | FileCheck %s

// One function (or caller/callee pair) per behaviour: sdy.func_data_flow_edge
// carries shardings through func.call in both directions, and values print
// as mlir-opt prints them (rng_bit_generator result names, f32 constants).

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Forward: the caller's operand sharding reaches the callee's argument edge,
// and what the callee returns reaches the call's result edge.
// CHECK-LABEL: func.func private @callee_forward(
// CHECK-NEXT: %[[E:.*]] = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x2xf32>
// CHECK-NEXT: stablehlo.negate %[[E]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
func.func private @callee_forward(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x2xf32>
  %1 = stablehlo.negate %0 : tensor<8x2xf32>
  return %1 : tensor<8x2xf32>
}

// CHECK-LABEL: func.func @caller_forward(
// CHECK: %[[C:.*]] = call @callee_forward
// CHECK-NEXT: sdy.func_data_flow_edge %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x2xf32>
func.func @caller_forward(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x2xf32> {
  %0 = call @callee_forward(%arg0) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8x2xf32>
  return %1 : tensor<8x2xf32>
}

// Backward: a sharding on the caller's result flows into the callee's body
// and out to the caller's operand.
// CHECK-LABEL: func.func private @callee_backward(
// CHECK-NEXT: sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}
func.func private @callee_backward(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x2xf32>
  %1 = stablehlo.abs %0 : tensor<8x2xf32>
  return %1 : tensor<8x2xf32>
}

// CHECK-LABEL: func.func @caller_backward(
// CHECK-SAME: %arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}
func.func @caller_backward(%arg0: tensor<8x2xf32>) -> (tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = call @callee_backward(%arg0) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8x2xf32>
  return %1 : tensor<8x2xf32>
}

// rng_bit_generator names its results as its OpAsmOpInterface does.
// CHECK-LABEL: func.func @rng_result_names(
// CHECK-NEXT: %output_state, %output = stablehlo.rng_bit_generator %arg0
// CHECK-NEXT: return %output, %output_state
func.func @rng_result_names(%arg0: tensor<2xui64>) -> (tensor<4x8xui32>, tensor<2xui64>) {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8xui32>)
  return %0#1, %0#0 : tensor<4x8xui32>, tensor<2xui64>
}

// f32 constants print in MLIR's six-digit scientific form when exact, else
// with the nine digits that identify the f32 value.
// CHECK-LABEL: func.func @float_constants(
// CHECK-NEXT: %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %cst_0 = stablehlo.constant dense<[1.000000e-01, -2.500000e+00]> : tensor<2xf32>
// CHECK-NEXT: %cst_1 = stablehlo.constant dense<3.14159274> : tensor<f32>
func.func @float_constants() -> (tensor<f32>, tensor<2xf32>, tensor<f32>) {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.constant dense<[0.1, -2.5]> : tensor<2xf32>
  %2 = stablehlo.constant dense<3.14159265> : tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<2xf32>, tensor<f32>
}
