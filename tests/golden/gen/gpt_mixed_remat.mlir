// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full | FileCheck %s
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full | autopart-opt - | FileCheck %s --check-prefix=PARSE
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full | autopart plan - --mesh data=2 --tactics dp,fsdp 2>/dev/null | FileCheck %s --check-prefix=PLAN
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full --dropout 0.1 | FileCheck %s --check-prefix=DROP
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 --master-dtype f32 --remat full --dropout 0.1 | autopart plan - --mesh data=2,model=2 --tactics dp,megatron 2>/dev/null | FileCheck %s --check-prefix=DROPPLAN
// RUN: not autopart gen gpt --dropout 1 2>&1 | FileCheck %s --check-prefix=BADDROP
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

// The rng state comes after the batch, its next value after the loss.
// DROP: %arg86: tensor<2xui64> {jax.arg_info = "rng"}
// DROP-SAME: tensor<2xui64> {jax.result_info = "['rng']"}
// Attention dropout on the probabilities: u32 bits, a uniform f32 in [0, 1)
// as jax.random.uniform makes it, kept below 1 - P, scaled by 1 / (1 - P).
// DROP: %[[P:[0-9]+]] = stablehlo.divide {{.*}} : tensor<2x2x4x4xbf16>
// DROP-NEXT: %[[G:[0-9]+]]:2 = stablehlo.rng_bit_generator %arg86, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2x4x4xui32>)
// DROP: stablehlo.shift_right_logical %[[G]]#1
// DROP: stablehlo.constant dense<1065353216> : tensor<ui32>
// DROP: stablehlo.or
// DROP-NEXT: stablehlo.bitcast_convert {{.*}} : (tensor<2x2x4x4xui32>) -> tensor<2x2x4x4xf32>
// DROP: %[[KEEP:[0-9]+]] = stablehlo.compare LT, {{.*}}, FLOAT : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xi1>
// DROP: stablehlo.constant dense<9.000000e-01> : tensor<bf16>
// DROP: %[[SCALED:[0-9]+]] = stablehlo.divide %[[P]]
// DROP: %[[PD:[0-9]+]] = stablehlo.select %[[KEEP]], %[[SCALED]]
// DROP-NEXT: stablehlo.dot_general %[[PD]]
// Then the attention output's and the MLP output's masks, each from the
// state the last one left; layer 1 goes on from layer 0's.
// DROP: %[[G2:[0-9]+]]:2 = stablehlo.rng_bit_generator %[[G]]#0, {{.*}} tensor<2x4x8xui32>
// DROP: %[[G3:[0-9]+]]:2 = stablehlo.rng_bit_generator %[[G2]]#0, {{.*}} tensor<2x4x8xui32>
// DROP: %[[G4:[0-9]+]]:2 = stablehlo.rng_bit_generator %[[G3]]#0, {{.*}} tensor<2x2x4x4xui32>
// DROP: %[[G5:[0-9]+]]:2 = stablehlo.rng_bit_generator %[[G4]]#0
// DROP: %[[G6:[0-9]+]]:2 = stablehlo.rng_bit_generator %[[G5]]#0
// The recomputation of layer 1 takes the state its forward began with
// through the barrier and draws its three masks again from it.
// DROP: %[[B1:[0-9]+]]:13 = stablehlo.optimization_barrier {{.*}}, %arg24, %[[G3]]#0 : tensor<2x4x8xbf16>, {{.*}}, tensor<2xui64>
// DROP: %[[R1:[0-9]+]]:2 = stablehlo.rng_bit_generator %[[B1]]#12
// DROP: %[[R2:[0-9]+]]:2 = stablehlo.rng_bit_generator %[[R1]]#0
// DROP: stablehlo.rng_bit_generator %[[R2]]#0
// DROP: %[[B0:[0-9]+]]:13 = stablehlo.optimization_barrier {{.*}}, %arg12, %arg86 :
// DROP: stablehlo.rng_bit_generator %[[B0]]#12
// DROP: return {{.*}}, %[[G6]]#0 :

// DROPPLAN: sdy.mesh @mesh = <["data"=2, "model"=2]>
// The state stays replicated, the bits are sharded as the masked values.
// DROPPLAN: stablehlo.rng_bit_generator %arg86, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"data"}, {"model"}, {}, {}]>]>}

// BADDROP: autopart gen gpt: error: gpt: dropout must be in [0, 1)
