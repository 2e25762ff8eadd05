// RUN: autopart-opt %s -sdy-flatten-call-graph | FileCheck %s
// RUN: not autopart-opt %s -sdy-import-func-calls 2>&1 | FileCheck %s --check-prefix=IMPORT

// A recursive function. Callees come first, so @rec's call to itself is the
// first call of @rec and keeps it; both calls from @main get copies, and each
// copy's call back into @rec keeps its callee (copying it would never end).
// Inlining calls into named computations cannot handle recursion and says so.

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: call @rec_0(%arg0)
// CHECK-NEXT: call @rec_1(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @rec(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @rec(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// CHECK-LABEL: func.func private @rec(
// CHECK-NEXT: call @rec(%arg0)
// IMPORT: error: recursive call to @rec cannot be imported
func.func private @rec(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @rec(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func private @rec_0(
// CHECK-SAME: attributes {sdy.original_func_name = "rec"}
// CHECK-NEXT: call @rec(%arg0)
// CHECK-LABEL: func.func private @rec_1(
// CHECK-NEXT: call @rec(%arg0)
