// RUN: not autopart-opt %s -autopart-microbatch=count=2 2>&1 | FileCheck %s
// RUN: not autopart plan %s --mesh data=2 --tactics dp,microbatch:2 -o %t 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: not test -e %t

// A step that normalises over the batch (batch statistics, as batch norm
// does) reads a sum over the batch inside the per-example computation:
// accumulating microbatches would change what it computes, so it is refused
// at the op that mixes the examples, and `plan` writes nothing.

// CHECK: microbatch_refused.mlir:[[@LINE+7]]:{{[0-9]+}}: error: microbatching: stablehlo.broadcast_in_dim mixes the examples
// PLAN:  error: microbatching: stablehlo.broadcast_in_dim mixes the examples
module @jit_bn_step {
  func.func public @main(%w: tensor<4x4xf32> {jax.arg_info = "params['w']"}, %x: tensor<8x4xf32> {jax.arg_info = "batch['x']"}) -> (tensor<f32>, tensor<4x4xf32>) {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %mean = stablehlo.reduce(%h init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %mb = stablehlo.broadcast_in_dim %mean, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
    %c = stablehlo.subtract %h, %mb : tensor<8x4xf32>
    %sq = stablehlo.multiply %c, %c : tensor<8x4xf32>
    %loss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    %g = stablehlo.dot_general %x, %c, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %nw = stablehlo.subtract %w, %g : tensor<4x4xf32>
    return %loss, %nw : tensor<f32>, tensor<4x4xf32>
  }
}
