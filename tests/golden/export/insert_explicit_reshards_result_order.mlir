// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | FileCheck %s

// Shardy's explicit-reshard insertion (sdy_export_passes.md) builds the ops
// that follow a multi-result op at one insertion point right after it: the
// all-reduces of all results first, in result order, then the reshards back
// to each result's sharding, in result order.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @result_reshards_in_result_order
// CHECK:         %2:2 = "stablehlo.sort"(%0, %1)
// CHECK:         %3 = sdy.reshard %2#0 <@mesh, [{}, {"b"}]>
// CHECK-NEXT:    %4 = sdy.reshard %2#1 <@mesh, [{}, {"b"}]>
func.func @result_reshards_in_result_order(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, %arg1: tensor<8x32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x32xf32>, tensor<8x32xi32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>, <@mesh, [{}, {"b"}]>]>} : (tensor<8x32xf32>, tensor<8x32xi32>) -> (tensor<8x32xf32>, tensor<8x32xi32>)
  return %0#0, %0#1 : tensor<8x32xf32>, tensor<8x32xi32>
}

// CHECK-LABEL: func.func @all_reduces_then_reshards_in_result_order
// CHECK:         %2:2 = stablehlo.reduce(%0 init: %cst), (%1 init: %c)
// CHECK:         %3 = sdy.all_reduce {"a"} %2#0 out_sharding=<@mesh, [{"b"}]>
// CHECK-NEXT:    %4 = sdy.all_reduce {"a"} %2#1 out_sharding=<@mesh, [{"b"}]>
// CHECK-NEXT:    %5 = sdy.reshard %3 <@mesh, [{}]>
// CHECK-NEXT:    %6 = sdy.reshard %4 <@mesh, [{}]>
func.func @all_reduces_then_reshards_in_result_order(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<16xf32>, tensor<16xi32>) {
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %c1 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%arg0 init: %c0), (%arg1 init: %c1) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>, <@mesh, [{"b"}]>]>} :
    (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>) {
      %s = stablehlo.add %a, %b : tensor<f32>
      %t = stablehlo.add %c, %d : tensor<i32>
      stablehlo.return %s, %t : tensor<f32>, tensor<i32>
    }
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xi32>
}

// The sort has no shardings: giving its first result one (Shardy's
// setSharding) gives the second an open replicated one, so the first
// result is resharded back to closed replicated and the second to open.
// CHECK-LABEL: func.func @unannotated_results_after_the_first_become_open
// CHECK:         sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>, <@mesh, [{"b"}, {}]>]>
// CHECK-NEXT:    %3 = sdy.reshard %2#0 <@mesh, [{}, {}]>
// CHECK-NEXT:    %4 = sdy.reshard %2#1 <@mesh, [{?}, {?}]>
func.func @unannotated_results_after_the_first_become_open(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, %arg1: tensor<8x32xi32>) -> (tensor<8x32xf32>, tensor<8x32xi32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<8x32xf32>, tensor<8x32xi32>) -> (tensor<8x32xf32>, tensor<8x32xi32>)
  return %0#0, %0#1 : tensor<8x32xf32>, tensor<8x32xi32>
}
