// RUN: autopart-opt %s -sdy-unflatten-call-graph | FileCheck %s
// RUN: autopart-opt %s -sdy-unflatten-call-graph='dedup-functions-fully=true' | FileCheck %s --check-prefix=FULLY
// RUN: autopart-opt %s -sdy-unflatten-call-graph | FileCheck %s --check-prefix=ATTRS

// Undoing -sdy-flatten-call-graph (sdy_export_passes.md: "deduplicates
// functions with the same input/output shardings and the same origin as
// described by the 'original_func_name' attribute"). With
// dedup-functions-fully "regardless of the input and output shardings ...
// it keeps one callee function" per origin: Shardy keeps the copy with the
// most calls.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// @f_0 has @f's shardings: its call goes to @f. @f_1 differs: kept apart,
// unless fully deduplicated; then @f (two calls with its shardings) wins
// over @f_1 (one call). @g and @g_0 have equal shardings but different
// manual axes: never merged. @h_0 and @h_1 share a sharding signature
// different from @h's: normally the @h_1 call goes to @h_0; fully
// deduplicated, that signature's two calls beat @h's one and all three
// calls go to the copy whose call made it overtake, @h_1.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = call @f(%arg0)
// CHECK-NEXT:    %1 = call @f(%0)
// CHECK-NEXT:    %2 = call @f_1(%1)
// CHECK-NEXT:    %3 = call @g(%2)
// CHECK-NEXT:    %4 = call @g_0(%3)
// CHECK-NEXT:    %5 = call @h(%4)
// CHECK-NEXT:    %6 = call @h_0(%5)
// CHECK-NEXT:    %7 = call @h_0(%6)
// FULLY-LABEL: func.func @main
// FULLY-NEXT:    %0 = call @f(%arg0)
// FULLY-NEXT:    %1 = call @f(%0)
// FULLY-NEXT:    %2 = call @f(%1)
// FULLY-NEXT:    %3 = call @g(%2)
// FULLY-NEXT:    %4 = call @g_0(%3)
// FULLY-NEXT:    %5 = call @h_1(%4)
// FULLY-NEXT:    %6 = call @h_1(%5)
// FULLY-NEXT:    %7 = call @h_1(%6)
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @f_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = call @g(%2) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = call @g_0(%3) : (tensor<8xf32>) -> tensor<8xf32>
  %5 = call @h(%4) : (tensor<8xf32>) -> tensor<8xf32>
  %6 = call @h_0(%5) : (tensor<8xf32>) -> tensor<8xf32>
  %7 = call @h_1(%6) : (tensor<8xf32>) -> tensor<8xf32>
  return %7 : tensor<8xf32>
}

// The bookkeeping attributes are gone from every function afterwards; the
// copies that lost their calls stay (a -symbol-dce removes them).
// ATTRS-NOT:   sdy.original_func_name
// ATTRS-NOT:   sdy.func_manual_axes
// ATTRS:       func.func private @f_0
// ATTRS-NOT:   sdy.original_func_name
// ATTRS-NOT:   sdy.func_manual_axes
func.func private @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}
func.func private @f_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
func.func private @f_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})
    attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @g_0(%arg0: tensor<8xf32>) -> tensor<8xf32>
    attributes {sdy.original_func_name = "g", sdy.func_manual_axes = #sdy<manual_axes{"x"}>} {
  return %arg0 : tensor<8xf32>
}
func.func private @h(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @h_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32>
    attributes {sdy.original_func_name = "h"} {
  return %arg0 : tensor<8xf32>
}
func.func private @h_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32>
    attributes {sdy.original_func_name = "h"} {
  return %arg0 : tensor<8xf32>
}
