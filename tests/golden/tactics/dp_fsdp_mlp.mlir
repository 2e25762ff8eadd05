// RUN: autopart plan %s --mesh data=8,model=4 --tactics dp,fsdp 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: autopart plan %s --mesh data=8,model=4 --tactics dp,fsdp -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not autopart plan %s --mesh data=8,model=4 --tactics dp:rows 2>&1 | FileCheck %s --check-prefix=BADAXIS

// dp shards the batch of the data arguments; fsdp then shards every
// parameter on its largest dimension divisible by 8, skipping the axis a
// parameter already uses.

// CHECK: sdy.mesh @mesh = <["data"=8, "model"=4]>
// CHECK-LABEL: func.func public @main(
// CHECK-SAME: %arg0: tensor<1024x4096xf32> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}
// CHECK-SAME: %arg1: tensor<4096xf32> {jax.arg_info = "params['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}
// CHECK-SAME: %arg2: tensor<4096x1024xf32> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: %arg3: tensor<256x1024xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: %arg4: tensor<256x3xf32> {jax.arg_info = "batch['y']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: %arg5: tensor<f32> {jax.arg_info = "lr", sdy.sharding = #sdy.sharding<@mesh, []>}

// REPORT: tactic dp (axis data): sharded 2 argument(s)
// REPORT-NEXT: batch['x'] dim 0
// REPORT-NEXT: batch['y'] dim 0
// REPORT: tactic fsdp (axis data): sharded 3 argument(s)
// REPORT-NEXT: params['w1'] dim 1
// REPORT-NEXT: params['b1'] dim 0
// REPORT-NEXT: params['w2'] dim 0

// BADAXIS: autopart plan: error: --tactics: tactic 'dp:rows' names axis 'rows', which the mesh <["data"=8, "model"=4]> does not have
module @jit_step {
  func.func public @main(%arg0: tensor<1024x4096xf32> {jax.arg_info = "params['w1']"}, %arg1: tensor<4096xf32> {jax.arg_info = "params['b1']"}, %arg2: tensor<4096x1024xf32> {jax.arg_info = "params['w2']"}, %arg3: tensor<256x1024xf32> {jax.arg_info = "batch['x']"}, %arg4: tensor<256x3xf32> {jax.arg_info = "batch['y']"}, %arg5: tensor<f32> {jax.arg_info = "lr"}) -> (tensor<256x1024xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x4096xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4096xf32>) -> tensor<256x4096xf32>
    %2 = stablehlo.add %0, %1 : tensor<256x4096xf32>
    %3 = stablehlo.dot_general %2, %arg2, contracting_dims = [1] x [0] : (tensor<256x4096xf32>, tensor<4096x1024xf32>) -> tensor<256x1024xf32>
    return %3 : tensor<256x1024xf32>
  }
}
