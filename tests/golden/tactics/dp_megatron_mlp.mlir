// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,megatron 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,megatron -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,megatron --report --device h100-80gb -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM

// Megatron shards the hidden name of the paired matmuls (w1's columns, the
// bias, w2's rows) on "model" and leaves the residual-stream name (w1's
// rows, w2's columns), which reaches the data, alone.

// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]>
// CHECK-LABEL: func.func public @main(
// CHECK-SAME{LITERAL}: %arg0: tensor<512x2048xf32> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}
// CHECK-SAME{LITERAL}: %arg1: tensor<2048xf32> {jax.arg_info = "params['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}
// CHECK-SAME{LITERAL}: %arg2: tensor<2048x512xf32> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}
// CHECK-SAME{LITERAL}: %arg3: tensor<64x512xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}

// --report simulates the plan: w2's row-parallel product all-reduces over
// "model" (the output [64/2, 512] f32 = 64 KiB per device).
// SIM: device h100-80gb, 8 devices <["data"=2, "model"=4]>
// SIM: step time
// SIM: costliest collectives:
// SIM-NEXT: all-reduce {"model"} 64.00 KiB
// SIM: peak memory

// REPORT: tactic megatron (axis model): sharded 3 argument(s)
// REPORT-NEXT: params['w1'] dim 1
// REPORT-NEXT: params['b1'] dim 0
// REPORT-NEXT: params['w2'] dim 0
func.func public @main(%arg0: tensor<512x2048xf32> {jax.arg_info = "params['w1']"}, %arg1: tensor<2048xf32> {jax.arg_info = "params['b1']"}, %arg2: tensor<2048x512xf32> {jax.arg_info = "params['w2']"}, %arg3: tensor<64x512xf32> {jax.arg_info = "batch['x']"}) -> tensor<64x512xf32> {
  %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x2048xf32>) -> tensor<64x2048xf32>
  %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2048xf32>) -> tensor<64x2048xf32>
  %2 = stablehlo.add %0, %1 : tensor<64x2048xf32>
  %3 = stablehlo.logistic %2 : tensor<64x2048xf32>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [1] x [0] : (tensor<64x2048xf32>, tensor<2048x512xf32>) -> tensor<64x512xf32>
  %5 = stablehlo.add %4, %arg3 : tensor<64x512xf32>
  return %5 : tensor<64x512xf32>
}
