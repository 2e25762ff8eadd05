// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full | FileCheck %s
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full | autopart-opt - | FileCheck %s --check-prefix=PARSE
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full | autopart plan - --mesh data=2 --tactics dp,fsdp 2>/dev/null | FileCheck %s --check-prefix=PLAN
// RUN: not autopart gen gpt --remat partial 2>&1 | FileCheck %s --check-prefix=BADREMAT
// RUN: not autopart gen gpt --dtype f32 --master-dtype bf16 2>&1 | FileCheck %s --check-prefix=BADMASTER

// A GPT step in mixed precision with full activation recomputation, as
// Megatron-LM and JAX train large models: f32 parameters and Adam state, one
// cast to bf16 where the forward first uses a parameter, bf16 forward and
// backward, per layer a recomputation behind an optimization_barrier, the
// gradients cast back to f32 for Adam.

// CHECK: func.func public @main(%arg0: tensor<16x8xf32> {jax.arg_info = "params['wte']"}
// CHECK-SAME: %arg28: tensor<16x8xf32> {jax.arg_info = "opt_state['mu']['wte']"}
// CHECK-SAME: -> (tensor<16x8xf32> {jax.result_info = "['params']['wte']"}
// CHECK: stablehlo.convert %arg0 : (tensor<16x8xf32>) -> tensor<16x8xbf16>
// The forward's first layer casts its parameters at its start.
// CHECK: stablehlo.convert %arg2 : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK: stablehlo.dot_general {{.*}} -> tensor<2x4x2x4xbf16>
// The backward runs the layers last to first; each recomputes from its
// saved input and the f32 parameters it reads (not the MLP output bias),
// all through one barrier, then casts them again.
// CHECK: %[[L1:[0-9]+]]:12 = stablehlo.optimization_barrier %{{[0-9]+}}, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24 : tensor<2x4x8xbf16>, tensor<8xf32>,
// CHECK-NEXT: stablehlo.convert %[[L1]]#1 : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK: %[[L0:[0-9]+]]:12 = stablehlo.optimization_barrier %{{[0-9]+}}, %arg2, %arg3,
// CHECK-NEXT: stablehlo.convert %[[L0]]#1 : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK-NOT: stablehlo.optimization_barrier
// The tied embedding's two gradients are summed in bf16 and cast once.
// CHECK: stablehlo.convert %{{[0-9]+}} : (tensor<16x8xbf16>) -> tensor<16x8xf32>
// CHECK: stablehlo.sqrt %{{[0-9]+}} : tensor<16x8xf32>
// CHECK: return

// PARSE: stablehlo.optimization_barrier
// PARSE: return

// PLAN: sdy.mesh @mesh = <["data"=2]>
// PLAN: stablehlo.optimization_barrier

// BADREMAT: --remat: partial not in {none,full}

// BADMASTER: autopart gen gpt: error: gpt: master type bf16 with compute type f32: masters must be f32
