// RUN: autopart-opt %s -autopart-remat=policy=full | FileCheck %s --check-prefix=FULL
// RUN: autopart-opt %s -autopart-remat=policy=dots | FileCheck %s --check-prefix=DOTS
// RUN: autopart-opt %s -autopart-remat=policy=selective | FileCheck %s --check-prefix=SEL
// RUN: autopart-opt %s -autopart-remat=policy=full | autopart simulate - --device a100-80gb | FileCheck %s --check-prefix=SIM
// RUN: not autopart-opt %s -autopart-remat=policy=most 2>&1 | FileCheck %s --check-prefix=BAD

// Rematerialization of a two-layer MLP training step (forward, squared
// error, backward, SGD). The forward pass is what the returned loss is
// computed from; the backward pass reads %a (tanh) and %d (the error).

// full: the whole forward (one segment: the two layers differ, so no layer
// boundary recurs) is recomputed behind a barrier before its first backward
// use, from the saved y and the arguments; the loss is returned from the
// forward pass, not recomputed.
// FULL:      %[[H:.*]] = stablehlo.dot_general %arg2, %arg0
// FULL-NEXT: %[[A:.*]] = stablehlo.tanh %[[H]]
// FULL:      %[[LOSS:.*]] = stablehlo.reduce
// FULL:      %[[B1:.*]]:2 = stablehlo.optimization_barrier %{{.*}}, %arg3
// FULL-NEXT: %[[D:.*]] = stablehlo.subtract %[[B1]]#0, %[[B1]]#1
// FULL:      %[[B2:.*]]:2 = stablehlo.optimization_barrier %arg2, %arg0
// FULL-NEXT: %[[H2:.*]] = stablehlo.dot_general %[[B2]]#0, %[[B2]]#1
// FULL-NEXT: %[[A2:.*]] = stablehlo.tanh %[[H2]]
// FULL-NEXT: stablehlo.dot_general %[[A2]], %{{.*}}, contracting_dims = [0] x [0]
// FULL-NOT:  stablehlo.multiply %[[A]], %[[A]]
// FULL:      return %[[LOSS]],

// dots (JAX's checkpoint_dots): matmul outputs are saved, tanh and the
// error are recomputed from them.
// DOTS:      %[[H:.*]] = stablehlo.dot_general %arg2, %arg0
// DOTS-NEXT: %[[A:.*]] = stablehlo.tanh %[[H]]
// DOTS-NEXT: %[[Y:.*]] = stablehlo.dot_general %[[A]], %arg1
// DOTS:      stablehlo.optimization_barrier %[[Y]], %arg3
// DOTS:      %[[HB:.*]] = stablehlo.optimization_barrier %[[H]] :
// DOTS-NEXT: stablehlo.tanh %[[HB]]
// DOTS-NOT:  stablehlo.dot_general %{{.*}}, %arg0, contracting_dims = [1] x [0]

// selective recomputes attention scores only: an MLP has none.
// SEL-NOT: optimization_barrier

// The rewritten program reads back and simulates.
// SIM: step time
// SIM: peak memory

// BAD: error: autopart-remat: option 'policy' takes one of none|full|selective|dots|dots-no-batch, not 'most'

module @jit_train_step {
  func.func public @main(%w1: tensor<4x16xf32> {jax.arg_info = "params['w1']"}, %w2: tensor<16x4xf32> {jax.arg_info = "params['w2']"}, %x: tensor<8x4xf32> {jax.arg_info = "batch['x']"}, %t: tensor<8x4xf32> {jax.arg_info = "batch['t']"}) -> (tensor<f32> {jax.result_info = "[0]"}, tensor<4x16xf32> {jax.result_info = "[1]['w1']"}, tensor<16x4xf32> {jax.result_info = "[1]['w2']"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
    %a = stablehlo.tanh %h : tensor<8x16xf32>
    %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %d = stablehlo.subtract %y, %t : tensor<8x4xf32>
    %sq = stablehlo.multiply %d, %d : tensor<8x4xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %loss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    %two = stablehlo.constant dense<2.000000e+00> : tensor<8x4xf32>
    %gy = stablehlo.multiply %two, %d : tensor<8x4xf32>
    %gw2 = stablehlo.dot_general %a, %gy, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %ga = stablehlo.dot_general %gy, %w2, contracting_dims = [1] x [1] : (tensor<8x4xf32>, tensor<16x4xf32>) -> tensor<8x16xf32>
    %one = stablehlo.constant dense<1.000000e+00> : tensor<8x16xf32>
    %a2 = stablehlo.multiply %a, %a : tensor<8x16xf32>
    %da = stablehlo.subtract %one, %a2 : tensor<8x16xf32>
    %gh = stablehlo.multiply %ga, %da : tensor<8x16xf32>
    %gw1 = stablehlo.dot_general %x, %gh, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %lr1 = stablehlo.constant dense<1.000000e-02> : tensor<4x16xf32>
    %s1 = stablehlo.multiply %lr1, %gw1 : tensor<4x16xf32>
    %nw1 = stablehlo.subtract %w1, %s1 : tensor<4x16xf32>
    %lr2 = stablehlo.constant dense<1.000000e-02> : tensor<16x4xf32>
    %s2 = stablehlo.multiply %lr2, %gw2 : tensor<16x4xf32>
    %nw2 = stablehlo.subtract %w2, %s2 : tensor<16x4xf32>
    return %loss, %nw1, %nw2 : tensor<f32>, tensor<4x16xf32>, tensor<16x4xf32>
  }
}
