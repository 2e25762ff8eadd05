// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=DP
// RUN: autopart plan %s --mesh data=2,model=4 --tactics fsdp 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=FSDP
// RUN: autopart plan %s --mesh data=2,model=4 --tactics megatron 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=MEGATRON
// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,fsdp 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=DPFSDP
// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,megatron 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=DPMEGATRON

// Each named tactic on a transformer block (attention with 4 heads, an MLP
// of width 256): dp splits the batch; fsdp each weight on its largest
// dimension 2 divides; megatron the heads of q/k/v/o and the MLP's hidden
// dimension (w1's columns, w2's rows); composed, both.

// DP-LABEL: func.func public @main(
// DP-SAME{LITERAL}: %x: tensor<8x16x64xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}
// DP-SAME{LITERAL}: %wq: tensor<64x4x16xf32> {jax.arg_info = "params['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}
// DP-SAME{LITERAL}: %w1: tensor<64x256xf32> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}

// FSDP-LABEL: func.func public @main(
// FSDP-SAME{LITERAL}: %x: tensor<8x16x64xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}
// FSDP-SAME{LITERAL}: %wq: tensor<64x4x16xf32> {jax.arg_info = "params['wq']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}
// FSDP-SAME{LITERAL}: %wo: tensor<4x16x64xf32> {jax.arg_info = "params['wo']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"data"}]>}
// FSDP-SAME{LITERAL}: %w1: tensor<64x256xf32> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}
// FSDP-SAME{LITERAL}: %w2: tensor<256x64xf32> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}

// MEGATRON-LABEL: func.func public @main(
// MEGATRON-SAME{LITERAL}: %x: tensor<8x16x64xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}
// MEGATRON-SAME{LITERAL}: %wq: tensor<64x4x16xf32> {jax.arg_info = "params['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}
// MEGATRON-SAME{LITERAL}: %wk: tensor<64x4x16xf32> {jax.arg_info = "params['wk']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}
// MEGATRON-SAME{LITERAL}: %wv: tensor<64x4x16xf32> {jax.arg_info = "params['wv']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}
// MEGATRON-SAME{LITERAL}: %wo: tensor<4x16x64xf32> {jax.arg_info = "params['wo']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}
// MEGATRON-SAME{LITERAL}: %w1: tensor<64x256xf32> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}
// MEGATRON-SAME{LITERAL}: %w2: tensor<256x64xf32> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}

// DPFSDP-LABEL: func.func public @main(
// DPFSDP-SAME{LITERAL}: %x: tensor<8x16x64xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}
// DPFSDP-SAME{LITERAL}: %wq: tensor<64x4x16xf32> {jax.arg_info = "params['wq']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}
// DPFSDP-SAME{LITERAL}: %w2: tensor<256x64xf32> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}

// The attention scores q.k^T: batch on "data", heads on "model".
// DPMEGATRON-LABEL: func.func public @main(
// DPMEGATRON-SAME{LITERAL}: %x: tensor<8x16x64xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}
// DPMEGATRON-SAME{LITERAL}: %wq: tensor<64x4x16xf32> {jax.arg_info = "params['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}
// DPMEGATRON-SAME{LITERAL}: %w2: tensor<256x64xf32> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}
// DPMEGATRON: batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}, {}, {}]>]>}
func.func public @main(%x: tensor<8x16x64xf32> {jax.arg_info = "batch['x']"}, %wq: tensor<64x4x16xf32> {jax.arg_info = "params['wq']"}, %wk: tensor<64x4x16xf32> {jax.arg_info = "params['wk']"}, %wv: tensor<64x4x16xf32> {jax.arg_info = "params['wv']"}, %wo: tensor<4x16x64xf32> {jax.arg_info = "params['wo']"}, %w1: tensor<64x256xf32> {jax.arg_info = "params['w1']"}, %w2: tensor<256x64xf32> {jax.arg_info = "params['w2']"}) -> tensor<8x16x64xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %q = stablehlo.dot_general %x, %wq, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x4x16xf32>) -> tensor<8x16x4x16xf32>
  %k = stablehlo.dot_general %x, %wk, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x4x16xf32>) -> tensor<8x16x4x16xf32>
  %v = stablehlo.dot_general %x, %wv, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x4x16xf32>) -> tensor<8x16x4x16xf32>
  %s = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<8x16x4x16xf32>, tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
  %e = stablehlo.exponential %s : tensor<8x4x16x16xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<8x4x16x16xf32>, tensor<f32>) -> tensor<8x4x16xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<8x4x16xf32>) -> tensor<8x4x16x16xf32>
  %p = stablehlo.divide %e, %sb : tensor<8x4x16x16xf32>
  %a = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<8x4x16x16xf32>, tensor<8x16x4x16xf32>) -> tensor<8x4x16x16xf32>
  %o = stablehlo.dot_general %a, %wo, contracting_dims = [1, 3] x [0, 1] : (tensor<8x4x16x16xf32>, tensor<4x16x64xf32>) -> tensor<8x16x64xf32>
  %h = stablehlo.add %x, %o : tensor<8x16x64xf32>
  %m1 = stablehlo.dot_general %h, %w1, contracting_dims = [2] x [0] : (tensor<8x16x64xf32>, tensor<64x256xf32>) -> tensor<8x16x256xf32>
  %g = stablehlo.logistic %m1 : tensor<8x16x256xf32>
  %m2 = stablehlo.dot_general %g, %w2, contracting_dims = [2] x [0] : (tensor<8x16x256xf32>, tensor<256x64xf32>) -> tensor<8x16x64xf32>
  %y = stablehlo.add %h, %m2 : tensor<8x16x64xf32>
  return %y : tensor<8x16x64xf32>
}
