// RUN: autopart plan %s --mesh data=2 --tactics dp,zero1 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: autopart plan %s --mesh data=2 --tactics dp,zero-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: autopart plan %s --mesh data=2 --tactics dp,zero1 --report -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: not autopart plan %s --mesh data=2 --tactics dp,zero2 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// ZeRO-1 on an Adam training step (`autopart gen mlp --batch 8 --input 16
// --layers 0 --classes 4`): dp splits the batch; zero1 splits the optimizer
// state (mu, nu) over "data" on its largest dimension, and the update the
// step computes from it elementwise: the new mu and nu (returned split, as
// they came in) and the new parameters' step. The parameters, the new
// parameters and the gradients stay replicated: the new parameters are
// all-gathered from the slices.

// CHECK: sdy.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func public @main(
// CHECK-SAME{LITERAL}: %arg0: tensor<16x4xf32> {jax.arg_info = "params['layers'][0]['w']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}
// CHECK-SAME{LITERAL}: %arg1: tensor<4xf32> {jax.arg_info = "params['layers'][0]['b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-SAME{LITERAL}: %arg2: tensor<16x4xf32> {jax.arg_info = "opt_state['mu']['layers'][0]['w']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME{LITERAL}: %arg3: tensor<4xf32> {jax.arg_info = "opt_state['mu']['layers'][0]['b']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}
// CHECK-SAME{LITERAL}: %arg4: tensor<16x4xf32> {jax.arg_info = "opt_state['nu']['layers'][0]['w']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME{LITERAL}: %arg5: tensor<4xf32> {jax.arg_info = "opt_state['nu']['layers'][0]['b']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}
// CHECK-SAME{LITERAL}: %arg6: tensor<8x16xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME{LITERAL}: %arg7: tensor<8xi32> {jax.arg_info = "batch['label']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}
// CHECK-SAME{LITERAL}: -> (tensor<16x4xf32> {jax.result_info = "['params']['layers'][0]['w']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}
// CHECK-SAME{LITERAL}: tensor<4xf32> {jax.result_info = "['params']['layers'][0]['b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-SAME{LITERAL}: tensor<16x4xf32> {jax.result_info = "['opt_state']['mu']['layers'][0]['w']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME{LITERAL}: tensor<4xf32> {jax.result_info = "['opt_state']['mu']['layers'][0]['b']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}
// CHECK-SAME{LITERAL}: tensor<16x4xf32> {jax.result_info = "['opt_state']['nu']['layers'][0]['w']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME{LITERAL}: tensor<4xf32> {jax.result_info = "['opt_state']['nu']['layers'][0]['b']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}
// CHECK-SAME{LITERAL}: tensor<f32> {jax.result_info = "['loss']", sdy.sharding = #sdy.sharding<@mesh, []>}

// The weight gradient (x^T . dlogits, the batch contracted) stays whole,
// pinned so: XLA's propagation would otherwise shard it from mu's slices.
// CHECK{LITERAL}: %30 = stablehlo.dot_general %arg6, %29, contracting_dims = [0] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
// mu' = 0.9 mu + 0.1 g and nu' = 0.95 nu + 0.05 g^2, on the slices.
// CHECK{LITERAL}: %38 = stablehlo.multiply %arg2, %37 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK{LITERAL}: %39 = stablehlo.add %38, %35 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK{LITERAL}: %47 = stablehlo.add %46, %43 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// The step mu' / (sqrt(nu') + eps) * lr, on the slices; w - step replicated,
// pinned so: XLA's aggressive propagation would shard the result from the
// step's slices although w is closed replicated (a closed operand only stops
// itself) and reshard it at the return.
// CHECK{LITERAL}: %52 = stablehlo.divide %39, %51 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK{LITERAL}: %55 = stablehlo.multiply %52, %54 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK{LITERAL}: %56 = stablehlo.subtract %arg0, %55 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<16x4xf32>
// CHECK: return %56, %80, %39, %63, %47, %71, %23

// REPORT: tactic dp (axis data): sharded 2 argument(s)
// REPORT-NEXT: batch['x'] dim 0
// REPORT-NEXT: batch['label'] dim 0
// REPORT: tactic zero-1 (axis data): sharded 4 argument(s), 20 tensor dimension(s) in all
// REPORT-NEXT: opt_state['mu']['layers'][0]['w'] dim 0
// REPORT-NEXT: opt_state['mu']['layers'][0]['b'] dim 0
// REPORT-NEXT: opt_state['nu']['layers'][0]['w'] dim 0
// REPORT-NEXT: opt_state['nu']['layers'][0]['b'] dim 0
// REPORT-NOT: skipped

// Simulated: dp's gradient all-reduces, then one all-gather per parameter
// (w: 16x4 f32 = 256 B, b: 16 B), where the new parameter is formed.
// SIM: device h100-80gb, 2 devices <["data"=2]>
// SIM: costliest collectives:
// SIM: all-reduce {"data"}
// SIM: all-gather {"data"} 256 B
// SIM-NEXT: all-gather {"data"} 16 B
// SIM-EMPTY:

// UNKNOWN: autopart plan: error: --tactics: unknown tactic 'zero2' (registered: dp, fsdp, megatron, {{.*}}zero1{{.*}}; also auto, and manual tactics in a JSON/YAML file)
module @jit_train_step attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x4xf32> {jax.arg_info = "params['layers'][0]['w']"}, %arg1: tensor<4xf32> {jax.arg_info = "params['layers'][0]['b']"}, %arg2: tensor<16x4xf32> {jax.arg_info = "opt_state['mu']['layers'][0]['w']"}, %arg3: tensor<4xf32> {jax.arg_info = "opt_state['mu']['layers'][0]['b']"}, %arg4: tensor<16x4xf32> {jax.arg_info = "opt_state['nu']['layers'][0]['w']"}, %arg5: tensor<4xf32> {jax.arg_info = "opt_state['nu']['layers'][0]['b']"}, %arg6: tensor<8x16xf32> {jax.arg_info = "batch['x']"}, %arg7: tensor<8xi32> {jax.arg_info = "batch['label']"}) -> (tensor<16x4xf32> {jax.result_info = "['params']['layers'][0]['w']"}, tensor<4xf32> {jax.result_info = "['params']['layers'][0]['b']"}, tensor<16x4xf32> {jax.result_info = "['opt_state']['mu']['layers'][0]['w']"}, tensor<4xf32> {jax.result_info = "['opt_state']['mu']['layers'][0]['b']"}, tensor<16x4xf32> {jax.result_info = "['opt_state']['nu']['layers'][0]['w']"}, tensor<4xf32> {jax.result_info = "['opt_state']['nu']['layers'][0]['b']"}, tensor<f32> {jax.result_info = "['loss']"}) {
    %0 = stablehlo.dot_general %arg6, %arg0, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x4xf32>
    %3 = stablehlo.constant dense<-3.000000e+38> : tensor<f32>
    %4 = stablehlo.reduce(%2 init: %3) applies stablehlo.maximum across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
    %6 = stablehlo.subtract %2, %5 : tensor<8x4xf32>
    %7 = stablehlo.exponential %6 : tensor<8x4xf32>
    %8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%7 init: %8) applies stablehlo.add across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
    %10 = stablehlo.log %9 : tensor<8xf32>
    %11 = stablehlo.iota dim = 1 : tensor<8x4xi32>
    %12 = stablehlo.broadcast_in_dim %arg7, dims = [0] : (tensor<8xi32>) -> tensor<8x4xi32>
    %13 = stablehlo.compare  EQ, %11, %12,  SIGNED : (tensor<8x4xi32>, tensor<8x4xi32>) -> tensor<8x4xi1>
    %14 = stablehlo.convert %13 : (tensor<8x4xi1>) -> tensor<8x4xf32>
    %15 = stablehlo.multiply %6, %14 : tensor<8x4xf32>
    %16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%15 init: %16) applies stablehlo.add across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
    %18 = stablehlo.subtract %10, %17 : tensor<8xf32>
    %19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%18 init: %19) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %21 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<f32>) -> tensor<f32>
    %23 = stablehlo.multiply %20, %22 : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
    %25 = stablehlo.divide %7, %24 : tensor<8x4xf32>
    %26 = stablehlo.subtract %25, %14 : tensor<8x4xf32>
    %27 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %29 = stablehlo.multiply %26, %28 : tensor<8x4xf32>
    %30 = stablehlo.dot_general %arg6, %29, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%29 init: %31) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %33 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %35 = stablehlo.multiply %30, %34 : tensor<16x4xf32>
    %36 = stablehlo.constant dense<9.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %38 = stablehlo.multiply %arg2, %37 : tensor<16x4xf32>
    %39 = stablehlo.add %38, %35 : tensor<16x4xf32>
    %40 = stablehlo.multiply %30, %30 : tensor<16x4xf32>
    %41 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %43 = stablehlo.multiply %40, %42 : tensor<16x4xf32>
    %44 = stablehlo.constant dense<9.500000e-01> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %46 = stablehlo.multiply %arg4, %45 : tensor<16x4xf32>
    %47 = stablehlo.add %46, %43 : tensor<16x4xf32>
    %48 = stablehlo.sqrt %47 : tensor<16x4xf32>
    %49 = stablehlo.constant dense<1.000000e-08> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %51 = stablehlo.add %48, %50 : tensor<16x4xf32>
    %52 = stablehlo.divide %39, %51 : tensor<16x4xf32>
    %53 = stablehlo.constant dense<1.000000e-04> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %55 = stablehlo.multiply %52, %54 : tensor<16x4xf32>
    %56 = stablehlo.subtract %arg0, %55 : tensor<16x4xf32>
    %57 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %59 = stablehlo.multiply %32, %58 : tensor<4xf32>
    %60 = stablehlo.constant dense<9.000000e-01> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %60, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %62 = stablehlo.multiply %arg3, %61 : tensor<4xf32>
    %63 = stablehlo.add %62, %59 : tensor<4xf32>
    %64 = stablehlo.multiply %32, %32 : tensor<4xf32>
    %65 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %67 = stablehlo.multiply %64, %66 : tensor<4xf32>
    %68 = stablehlo.constant dense<9.500000e-01> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %70 = stablehlo.multiply %arg5, %69 : tensor<4xf32>
    %71 = stablehlo.add %70, %67 : tensor<4xf32>
    %72 = stablehlo.sqrt %71 : tensor<4xf32>
    %73 = stablehlo.constant dense<1.000000e-08> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %75 = stablehlo.add %72, %74 : tensor<4xf32>
    %76 = stablehlo.divide %63, %75 : tensor<4xf32>
    %77 = stablehlo.constant dense<1.000000e-04> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %79 = stablehlo.multiply %76, %78 : tensor<4xf32>
    %80 = stablehlo.subtract %arg1, %79 : tensor<4xf32>
    return %56, %80, %39, %63, %47, %71, %23 : tensor<16x4xf32>, tensor<4xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<f32>
  }
}
