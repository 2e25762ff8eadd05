// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,megatron --gspmd 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,megatron --gspmd 2>/dev/null | autopart-opt - -xla-sdy-stablehlo-export-pipeline | FileCheck %s --check-prefix=EXPORT

// --gspmd writes each sharding also as the GSPMD string XLA reads (device
// id = data * 4 + model): w1 split over "model" on its columns, the batch
// over "data" with "model" replicating.

// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]>
// CHECK-LABEL: func.func public @main(
// CHECK-SAME{LITERAL}: %arg0: tensor<512x2048xf32> {jax.arg_info = "params['w1']", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}
// CHECK-SAME{LITERAL}: %arg1: tensor<2048xf32> {jax.arg_info = "params['b1']", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"
// CHECK-SAME{LITERAL}: %arg3: tensor<64x512xf32> {jax.arg_info = "batch['x']", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"

// The export pipeline then drops the Shardy form.
// EXPORT-NOT: sdy.mesh
// EXPORT-NOT: sdy.sharding
// EXPORT: mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"
func.func public @main(%arg0: tensor<512x2048xf32> {jax.arg_info = "params['w1']"}, %arg1: tensor<2048xf32> {jax.arg_info = "params['b1']"}, %arg2: tensor<2048x512xf32> {jax.arg_info = "params['w2']"}, %arg3: tensor<64x512xf32> {jax.arg_info = "batch['x']"}) -> tensor<64x512xf32> {
  %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x2048xf32>) -> tensor<64x2048xf32>
  %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2048xf32>) -> tensor<64x2048xf32>
  %2 = stablehlo.add %0, %1 : tensor<64x2048xf32>
  %3 = stablehlo.logistic %2 : tensor<64x2048xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [1] x [0] : (tensor<64x2048xf32>, tensor<2048x512xf32>) -> tensor<64x512xf32>
  %5 = stablehlo.add %4, %arg3 : tensor<64x512xf32>
  return %5 : tensor<64x512xf32>
}
