// RUN: autopart search %s --method mcts --iterations 50 --seed 1 -o - 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: f=$(mktemp) && autopart search %s --method mcts --iterations 50 --seed 1 -o $f > /dev/null 2>&1 && autopart-opt $f > /dev/null
// RUN: autopart plan %s --tactics dp,fsdp,auto --iterations 50 --seed 1 -o - 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: f=$(mktemp) && autopart plan %s --tactics dp,fsdp,auto --iterations 50 --seed 1 -o $f > /dev/null 2>&1 && autopart-opt $f > /dev/null

// An MLP whose layer runs inside an sdy.manual_computation over "x" (the
// torch-xla / tt-xla wrapper form, with "y" and "z" left free): inside the
// body, and in @act which the body calls, every value is one "x" slice, so
// a plan may shard them over "y" and "z" only. Outside (the residual add
// and the loss) any axis goes. tests/tools/manual_axes_test.py runs every
// search method and the tactics on this file, with and without
// `--mesh data=2,model=2,pipe=2 --input-shardings map`.

// CHECK: sdy.manual_computation
// CHECK-NOT: {{sdy.sharding.*"x"}}
// CHECK: sdy.return
// CHECK: func.func private @act
// CHECK-NOT: {{sdy.sharding.*"x"}}

module @manual_mlp {
  sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
  func.func @main(%arg0: tensor<64x256xf32>, %arg1: tensor<256x1024xf32>, %arg2: tensor<1024x256xf32>) -> (tensor<64x256xf32>, tensor<f32>) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg3: tensor<32x256xf32>, %arg4: tensor<256x1024xf32>, %arg5: tensor<1024x256xf32>) {
      %1 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0] : (tensor<32x256xf32>, tensor<256x1024xf32>) -> tensor<32x1024xf32>
      %2 = func.call @act(%1) : (tensor<32x1024xf32>) -> tensor<32x1024xf32>
      %3 = stablehlo.dot_general %2, %arg5, contracting_dims = [1] x [0] : (tensor<32x1024xf32>, tensor<1024x256xf32>) -> tensor<32x256xf32>
      %4 = stablehlo.add %3, %arg3 : tensor<32x256xf32>
      sdy.return %4 : tensor<32x256xf32>
    } : (tensor<64x256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
    %5 = stablehlo.add %0, %arg0 : tensor<64x256xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<64x256xf32>
    %7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%6 init: %7) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x256xf32>, tensor<f32>) -> tensor<f32>
    return %5, %8 : tensor<64x256xf32>, tensor<f32>
  }
  func.func private @act(%arg0: tensor<32x1024xf32>) -> tensor<32x1024xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<32x1024xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<32x1024xf32>
    return %1 : tensor<32x1024xf32>
  }
}
