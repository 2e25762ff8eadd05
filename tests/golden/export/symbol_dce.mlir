// RUN: autopart-opt %s -symbol-dce | FileCheck %s

// MLIR's symbol DCE, which Shardy's export pipeline runs right after
// -sdy-unflatten-call-graph to drop the copies no call reaches any more:
// private functions no live code names are erased; public functions and
// meshes stay.

// CHECK: sdy.mesh @mesh
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @used(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Called from main: live, and so is what it calls.
// CHECK-LABEL: func.func private @used
// CHECK-LABEL: func.func private @used_by_used
func.func private @used(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @used_by_used(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @used_by_used(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// Only called from a dead function: dead too.
// CHECK-NOT:   @dead
func.func private @dead(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @dead_callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @dead_callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// A public function stays without callers.
// CHECK-LABEL: func.func @public_unused
func.func @public_unused(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
