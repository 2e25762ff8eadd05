// RUN: autopart-opt %s -sdy-constant-or-scalar-splitter | FileCheck %s

// A constant call inside a constant call. Callees are split first: in @foo
// the constant flows into `call @bar`, a constant expression (@bar only
// negates its argument), whose one non-constant user (the return) gets a copy
// of the constant and the call with a callee of its own, @bar_0. In @main the
// call to @foo is then a constant expression with two users, so each user gets
// a copy of @foo (and, inside it, of @bar_0). Copies are made of functions
// already split, so they are not split again: @foo_2 calls @bar_0_1, not a
// copy of it (Shardy's constant_or_scalar_splitter.mlir, case
// ..._foo_calls_bar; the copies share one name counter, so the suffixes run
// 0, 1, 2, ... across the module).

// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    %0 = call @foo_2()
// CHECK-NEXT:    %1 = call @foo_4()
// CHECK-NEXT:    stablehlo.abs %0
// CHECK-NEXT:    stablehlo.abs %1
func.func @main() -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = call @foo() : () -> tensor<4x8xf32>
  %1 = stablehlo.abs %0 : tensor<4x8xf32>
  %2 = stablehlo.abs %0 : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func private @foo()
// CHECK-NEXT:    %0 = sdy.constant
// CHECK-NEXT:    %1 = call @bar_0(%0)
func.func private @foo() -> tensor<4x8xf32> {
  %0 = stablehlo.constant dense<2.0> : tensor<4x8xf32>
  %1 = call @bar(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func private @bar(
func.func private @bar(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func private @bar_0(
// CHECK-SAME:    sdy.original_func_name = "bar"
// CHECK-LABEL: func.func private @bar_0_1(
// CHECK-SAME:    sdy.original_func_name = "bar"
// CHECK-LABEL: func.func private @foo_2()
// CHECK-NEXT:    %0 = sdy.constant
// CHECK-NEXT:    %1 = call @bar_0_1(%0)
// CHECK-NEXT:    return %1
// CHECK-LABEL: func.func private @bar_0_3(
// CHECK-LABEL: func.func private @foo_4()
// CHECK-NEXT:    %0 = sdy.constant
// CHECK-NEXT:    %1 = call @bar_0_3(%0)
// CHECK-NEXT:    return %1
// CHECK-NOT:   func.func
