// RUN: autopart-opt %s -sdy-propagate-to-func-results | FileCheck %s
// RUN: not autopart-opt %s -sdy-propagate-to-func-results -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// A non-main function's results take the shardings of the values it returns
// (sdy_export_passes.md: "Copies the shardings of func terminator values to
// the corresponding func.func results, except for the main func").

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The main function's result shardings are the program's contract: kept
// even though the returned value says otherwise.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = call @replaced(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @cleared(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// The returned value's sharding replaces the declared one.
// CHECK-LABEL: func.func private @replaced
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})
func.func private @replaced(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A returned value without a sharding clears the result's.
// CHECK-LABEL: func.func private @cleared
// CHECK-SAME:    -> tensor<8xf32> {
func.func private @cleared(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Without a function called main (and more than one function) there is no
// main to leave alone: an error, as Shardy's main-function lookup fails.
// ERR: propagate_to_func_results.mlir:[[@LINE+1]]:1: error: sdy-propagate-to-func-results: the module has no main function
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
