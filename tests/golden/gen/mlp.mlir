// RUN: autopart gen mlp --layers 1 --width 8 --input 4 --batch 2 --classes 3 | FileCheck %s
// RUN: autopart gen mlp --layers 1 --width 8 --input 4 --batch 2 --classes 3 | autopart-opt - | FileCheck %s --check-prefix=PARSE
// RUN: not autopart gen gpt --preset 7t 2>&1 | FileCheck %s --check-prefix=BADPRESET

// A one-hidden-layer MLP training step in JAX's form: parameters, then
// Adam's two moments, then the batch; forward, cross-entropy, backward, the
// update, and the loss as the last result.

// CHECK: module @jit_train_step
// CHECK: func.func public @main(%arg0: tensor<4x8xf32> {jax.arg_info = "params['layers'][0]['w']"}
// CHECK-SAME: %arg4: tensor<4x8xf32> {jax.arg_info = "opt_state['mu']['layers'][0]['w']"}
// CHECK-SAME: %arg12: tensor<2x4xf32> {jax.arg_info = "batch['x']"}, %arg13: tensor<2xi32> {jax.arg_info = "batch['label']"}
// CHECK-SAME: tensor<f32> {jax.result_info = "['loss']"}
// CHECK: stablehlo.dot_general %arg12, %arg0, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
// CHECK: stablehlo.maximum
// The gradient of the output layer's weight: activations^T . dlogits.
// CHECK: stablehlo.dot_general %{{[0-9]+}}, %{{[0-9]+}}, contracting_dims = [0] x [0] : (tensor<2x8xf32>, tensor<2x3xf32>) -> tensor<8x3xf32>
// CHECK: stablehlo.sqrt
// CHECK: return

// PARSE: func.func public @main
// PARSE: return

// BADPRESET: error: unknown preset '7t'
