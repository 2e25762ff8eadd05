// RUN: autopart-opt %s -autopart-microbatch=count=2 | FileCheck %s
// RUN: autopart-opt %s -autopart-microbatch=count=2 | autopart-opt - | FileCheck %s
// RUN: autopart-opt %s -autopart-microbatch=count=2 | autopart simulate - --device a100-80gb | FileCheck %s --check-prefix=SIM
// RUN: autopart plan %s --mesh data=2 --tactics dp,microbatch:2 2>&1 >/dev/null | FileCheck %s --check-prefix=PLAN
// RUN: not autopart-opt %s -autopart-microbatch=count=3 2>&1 | FileCheck %s --check-prefix=SPLIT

// Microbatching the two-layer MLP step: the forward and backward passes run
// twice in a while loop over halves of the batch (rows j, j + 2, ...: the
// batch is reshaped to [4, 2, ...] and the loop takes column j), the loss and
// both weight gradients (the values that sum over the batch) are accumulated,
// and the SGD update after the loop reads the sums.

// CHECK:      %[[XS:.*]] = stablehlo.reshape %arg2 : (tensor<8x4xf32>) -> tensor<4x2x4xf32>
// CHECK-NEXT: %[[TS:.*]] = stablehlo.reshape %arg3 : (tensor<8x4xf32>) -> tensor<4x2x4xf32>
// CHECK:      %[[R:.*]]:4 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[G2:.*]] = %{{.*}}, %[[G1:.*]] = %{{.*}}) : tensor<i32>, tensor<f32>, tensor<16x4xf32>, tensor<4x16xf32>
// CHECK:      stablehlo.compare  LT, %[[I]], %{{.*}},  SIGNED
// CHECK:      } do {
// CHECK:      %[[XJ:.*]] = stablehlo.dynamic_slice %[[XS]], %{{.*}}, %[[I]], %{{.*}}, sizes = [4, 1, 4]
// CHECK-NEXT: %[[X:.*]] = stablehlo.reshape %[[XJ]] : (tensor<4x1x4xf32>) -> tensor<4x4xf32>
// CHECK:      stablehlo.dot_general %[[X]], %arg0, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK:      %[[LOSS:.*]] = stablehlo.reduce
// CHECK:      stablehlo.constant dense<2.000000e+00> : tensor<4x4xf32>
// CHECK:      stablehlo.add %[[L]], %[[LOSS]] : tensor<f32>
// CHECK:      stablehlo.return
// CHECK-NEXT: }
// CHECK:      stablehlo.multiply %{{.*}}, %[[R]]#3 : tensor<4x16xf32>
// CHECK:      stablehlo.multiply %{{.*}}, %[[R]]#2 : tensor<16x4xf32>
// CHECK:      return %[[R]]#1,

// The loop runs twice: the step does the same FLOPs.
// SIM: step time

// PLAN: levers microbatch:2: 2 microbatches of 4 (of a batch of 8), 3 sums accumulated

// SPLIT: error: microbatching: a batch of 8 does not split into 3 microbatches

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
