// RUN: autopart-opt %s -canonicalize | FileCheck %s

// What -canonicalize erases besides its patterns: ops free of side effects
// that nothing reads (transitively), never ops with side effects.

sdy.mesh @mesh = <["x"=2]>

// A dead chain goes as a whole, a live op stays.
// CHECK-LABEL: func @dead_chain_erased
// CHECK-NEXT: %0 = stablehlo.abs %arg0
// CHECK-NEXT: return %0
func.func @dead_chain_erased(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8xf32>
  %1 = stablehlo.cosine %0 : tensor<8xf32>
  %2 = stablehlo.add %1, %0 : tensor<8xf32>
  %3 = stablehlo.abs %arg0 : tensor<8xf32>
  return %3 : tensor<8xf32>
}

// Custom calls, collectives and sharding constraints are kept unread.
// CHECK-LABEL: func @side_effects_kept
// CHECK-NEXT: stablehlo.custom_call @foo
// CHECK-NEXT: sdy.all_reduce {"x"}
// CHECK-NEXT: sdy.sharding_constraint
// CHECK-NEXT: return %arg0
func.func @side_effects_kept(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %2 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// A dead loop whose body is pure goes; dead ops inside a live region go too
// (the reducer, left with its add alone, prints in the short form).
// CHECK-LABEL: func @dead_loop_and_dead_ops_in_regions_erased
// CHECK-NEXT: %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [0]
// CHECK-NEXT: return %0
func.func @dead_loop_and_dead_ops_in_regions_erased(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.while(%iter = %arg1) : tensor<f32>
    cond {
      %c = stablehlo.compare LT, %iter, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.negate %iter : tensor<f32>
      stablehlo.return %n : tensor<f32>
    }
  %1 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %unused = stablehlo.multiply %a, %b : tensor<f32>
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %1 : tensor<f32>
}
