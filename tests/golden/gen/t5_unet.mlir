// RUN: autopart gen t5 --layers 1 --d-model 32 --heads 2 --head-dim 16 --ffn 64 --enc-seq 16 --dec-seq 8 --batch 8 --vocab 64 --dtype f32 | FileCheck %s --check-prefix=T5
// RUN: autopart gen t5 --layers 1 --d-model 32 --heads 2 --head-dim 16 --ffn 64 --enc-seq 16 --dec-seq 8 --batch 8 --vocab 64 --dtype f32 | autopart analyze - --mesh data=4 | FileCheck %s --check-prefix=T5-ANALYZE
// RUN: autopart gen t5 --layers 1 --d-model 32 --heads 2 --head-dim 16 --ffn 64 --enc-seq 16 --dec-seq 8 --batch 8 --vocab 64 --dtype f32 | autopart plan - --mesh data=4 --tactics dp,fsdp 2>/dev/null | FileCheck %s --check-prefix=T5-PLAN
// RUN: autopart gen unet --batch 4 --height 16 --width 16 --base-width 8 --levels 2 | FileCheck %s --check-prefix=UNET
// RUN: autopart gen unet --batch 4 --height 16 --width 16 --base-width 8 --levels 2 | autopart analyze - --mesh data=4 | FileCheck %s --check-prefix=UNET-ANALYZE
// RUN: autopart gen unet --batch 4 --height 16 --width 16 --base-width 8 --levels 2 | autopart plan - --mesh data=4 --tactics dp,fsdp 2>/dev/null | FileCheck %s --check-prefix=UNET-PLAN
// RUN: not autopart gen t5 --preset t5-xl 2>&1 | FileCheck %s --check-prefix=BADPRESET
// RUN: not autopart gen unet --height 60 2>&1 | FileCheck %s --check-prefix=BADSIZE

// The T5 and U-Net training steps go through the analysis and the dp,fsdp
// schedule: dp shards the batch arguments, fsdp the parameters.

// T5: func.func public @main(%arg0: tensor<64x32xf32> {jax.arg_info = "params['embedding']"}
// T5-SAME: {jax.arg_info = "params['decoder']['layers'][0]['cross_attn']['wq']"}
// T5-SAME: %arg72: tensor<8x16xi32> {jax.arg_info = "batch['inputs']"}, %arg73: tensor<8x8xi32> {jax.arg_info = "batch['targets']"}
// Decoder inputs: the targets shifted right.
// T5: stablehlo.slice %arg73 [0:8, 0:7]
// Cross-attention scores [batch, heads, target, input].
// T5: stablehlo.dot_general {{.*}} -> tensor<8x2x8x16xf32>
// T5: return

// T5-ANALYZE: 0 ops without a rule

// T5-PLAN: sdy.mesh @mesh = <["data"=4]>
// T5-PLAN: %arg0: tensor<64x32xf32> {jax.arg_info = "params['embedding']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// T5-PLAN-SAME: %arg72: tensor<8x16xi32> {jax.arg_info = "batch['inputs']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}

// UNET: func.func public @main(%arg0: tensor<3x3x3x8xf32> {jax.arg_info = "params['encoder'][0]['conv1']['kernel']"}
// UNET-SAME: %arg78: tensor<4x16x16x3xf32> {jax.arg_info = "batch['image']"}, %arg79: tensor<4x16x16x3xf32> {jax.arg_info = "batch['target']"}
// UNET: stablehlo.convolution(%arg78, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = {{\[\[1, 1\], \[1, 1\]\]}}}
// UNET: stablehlo.convolution({{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[1, 1\], \[1, 1\]\]}}}
// Upsampling repeats pixels; the skip connection joins on channels.
// UNET: stablehlo.broadcast_in_dim {{.*}} dims = [0, 1, 3, 5] : (tensor<4x4x4x32xf32>) -> tensor<4x4x2x4x2x32xf32>
// UNET: stablehlo.concatenate {{.*}}, dim = 3 : (tensor<4x8x8x32xf32>, tensor<4x8x8x16xf32>) -> tensor<4x8x8x48xf32>
// Backward of the stride-2 convolution: kernel and input gradients.
// UNET: dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = {{\[\[1, 0\], \[1, 0\]\]}}, rhs_dilate = [2, 2]}
// UNET: stablehlo.reverse
// UNET: dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {pad = {{\[\[1, 2\], \[1, 2\]\]}}, lhs_dilate = [2, 2]}
// UNET: return

// UNET-ANALYZE: 0 conflicts, 0 ops without a rule

// UNET-PLAN: sdy.mesh @mesh = <["data"=4]>
// UNET-PLAN: %arg78: tensor<4x16x16x3xf32> {jax.arg_info = "batch['image']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}

// BADPRESET: error: unknown preset 't5-xl'
// BADSIZE: error: unet: height and width must be divisible by 2^levels
