// A two-layer MLP forward pass with a mean-squared-error loss, in the style of
// `jax.jit(loss).lower(params, batch).as_text()`.
module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x4096xf32> {jax.arg_info = "params['w1']"}, %arg1: tensor<4096xf32> {jax.arg_info = "params['b1']"}, %arg2: tensor<4096x1024xf32> {jax.arg_info = "params['w2']"}, %arg3: tensor<256x1024xf32> {jax.arg_info = "batch['x']"}, %arg4: tensor<256x1024xf32> {jax.arg_info = "batch['y']"}) -> (tensor<f32> {jax.result_info = ""}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<3.81469727E-6> : tensor<f32>
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x4096xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4096xf32>) -> tensor<256x4096xf32>
    %2 = stablehlo.add %0, %1 : tensor<256x4096xf32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x4096xf32>
    %4 = stablehlo.maximum %2, %3 : tensor<256x4096xf32>
    %5 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0] : (tensor<256x4096xf32>, tensor<4096x1024xf32>) -> tensor<256x1024xf32>
    %6 = stablehlo.subtract %5, %arg4 : tensor<256x1024xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<256x1024xf32>
    %8 = stablehlo.reduce(%7 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1024xf32>, tensor<f32>) -> tensor<f32>
    %9 = stablehlo.multiply %8, %cst_0 : tensor<f32>
    return %9 : tensor<f32>
  }
}
