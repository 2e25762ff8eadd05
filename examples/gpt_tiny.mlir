module @jit_train_step attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x256xbf16> {jax.arg_info = "params['wte']"}, %arg1: tensor<128x256xbf16> {jax.arg_info = "params['wpe']"}, %arg2: tensor<256xbf16> {jax.arg_info = "params['layers'][0]['ln1']['scale']"}, %arg3: tensor<256xbf16> {jax.arg_info = "params['layers'][0]['ln1']['bias']"}, %arg4: tensor<256x4x64xbf16> {jax.arg_info = "params['layers'][0]['attn']['wq']"}, %arg5: tensor<256x4x64xbf16> {jax.arg_info = "params['layers'][0]['attn']['wk']"}, %arg6: tensor<256x4x64xbf16> {jax.arg_info = "params['layers'][0]['attn']['wv']"}, %arg7: tensor<4x64x256xbf16> {jax.arg_info = "params['layers'][0]['attn']['wo']"}, %arg8: tensor<256xbf16> {jax.arg_info = "params['layers'][0]['ln2']['scale']"}, %arg9: tensor<256xbf16> {jax.arg_info = "params['layers'][0]['ln2']['bias']"}, %arg10: tensor<256x1024xbf16> {jax.arg_info = "params['layers'][0]['mlp']['w1']"}, %arg11: tensor<1024xbf16> {jax.arg_info = "params['layers'][0]['mlp']['b1']"}, %arg12: tensor<1024x256xbf16> {jax.arg_info = "params['layers'][0]['mlp']['w2']"}, %arg13: tensor<256xbf16> {jax.arg_info = "params['layers'][0]['mlp']['b2']"}, %arg14: tensor<256xbf16> {jax.arg_info = "params['layers'][1]['ln1']['scale']"}, %arg15: tensor<256xbf16> {jax.arg_info = "params['layers'][1]['ln1']['bias']"}, %arg16: tensor<256x4x64xbf16> {jax.arg_info = "params['layers'][1]['attn']['wq']"}, %arg17: tensor<256x4x64xbf16> {jax.arg_info = "params['layers'][1]['attn']['wk']"}, %arg18: tensor<256x4x64xbf16> {jax.arg_info = "params['layers'][1]['attn']['wv']"}, %arg19: tensor<4x64x256xbf16> {jax.arg_info = "params['layers'][1]['attn']['wo']"}, %arg20: tensor<256xbf16> {jax.arg_info = "params['layers'][1]['ln2']['scale']"}, %arg21: tensor<256xbf16> {jax.arg_info = "params['layers'][1]['ln2']['bias']"}, %arg22: tensor<256x1024xbf16> {jax.arg_info = "params['layers'][1]['mlp']['w1']"}, %arg23: tensor<1024xbf16> {jax.arg_info = "params['layers'][1]['mlp']['b1']"}, %arg24: tensor<1024x256xbf16> {jax.arg_info = "params['layers'][1]['mlp']['w2']"}, %arg25: tensor<256xbf16> {jax.arg_info = "params['layers'][1]['mlp']['b2']"}, %arg26: tensor<256xbf16> {jax.arg_info = "params['ln_f']['scale']"}, %arg27: tensor<256xbf16> {jax.arg_info = "params['ln_f']['bias']"}, %arg28: tensor<1024x256xbf16> {jax.arg_info = "opt_state['mu']['wte']"}, %arg29: tensor<128x256xbf16> {jax.arg_info = "opt_state['mu']['wpe']"}, %arg30: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['ln1']['scale']"}, %arg31: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['ln1']['bias']"}, %arg32: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['attn']['wq']"}, %arg33: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['attn']['wk']"}, %arg34: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['attn']['wv']"}, %arg35: tensor<4x64x256xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['attn']['wo']"}, %arg36: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['ln2']['scale']"}, %arg37: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['ln2']['bias']"}, %arg38: tensor<256x1024xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['mlp']['w1']"}, %arg39: tensor<1024xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['mlp']['b1']"}, %arg40: tensor<1024x256xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['mlp']['w2']"}, %arg41: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][0]['mlp']['b2']"}, %arg42: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['ln1']['scale']"}, %arg43: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['ln1']['bias']"}, %arg44: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['attn']['wq']"}, %arg45: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['attn']['wk']"}, %arg46: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['attn']['wv']"}, %arg47: tensor<4x64x256xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['attn']['wo']"}, %arg48: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['ln2']['scale']"}, %arg49: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['ln2']['bias']"}, %arg50: tensor<256x1024xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['mlp']['w1']"}, %arg51: tensor<1024xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['mlp']['b1']"}, %arg52: tensor<1024x256xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['mlp']['w2']"}, %arg53: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['layers'][1]['mlp']['b2']"}, %arg54: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['ln_f']['scale']"}, %arg55: tensor<256xbf16> {jax.arg_info = "opt_state['mu']['ln_f']['bias']"}, %arg56: tensor<1024x256xbf16> {jax.arg_info = "opt_state['nu']['wte']"}, %arg57: tensor<128x256xbf16> {jax.arg_info = "opt_state['nu']['wpe']"}, %arg58: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['ln1']['scale']"}, %arg59: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['ln1']['bias']"}, %arg60: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['attn']['wq']"}, %arg61: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['attn']['wk']"}, %arg62: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['attn']['wv']"}, %arg63: tensor<4x64x256xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['attn']['wo']"}, %arg64: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['ln2']['scale']"}, %arg65: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['ln2']['bias']"}, %arg66: tensor<256x1024xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['mlp']['w1']"}, %arg67: tensor<1024xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['mlp']['b1']"}, %arg68: tensor<1024x256xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['mlp']['w2']"}, %arg69: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][0]['mlp']['b2']"}, %arg70: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['ln1']['scale']"}, %arg71: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['ln1']['bias']"}, %arg72: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['attn']['wq']"}, %arg73: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['attn']['wk']"}, %arg74: tensor<256x4x64xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['attn']['wv']"}, %arg75: tensor<4x64x256xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['attn']['wo']"}, %arg76: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['ln2']['scale']"}, %arg77: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['ln2']['bias']"}, %arg78: tensor<256x1024xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['mlp']['w1']"}, %arg79: tensor<1024xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['mlp']['b1']"}, %arg80: tensor<1024x256xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['mlp']['w2']"}, %arg81: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['layers'][1]['mlp']['b2']"}, %arg82: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['ln_f']['scale']"}, %arg83: tensor<256xbf16> {jax.arg_info = "opt_state['nu']['ln_f']['bias']"}, %arg84: tensor<16x128xi32> {jax.arg_info = "batch['tokens']"}, %arg85: tensor<16x128xi32> {jax.arg_info = "batch['targets']"}) -> (tensor<1024x256xbf16> {jax.result_info = "['params']['wte']"}, tensor<128x256xbf16> {jax.result_info = "['params']['wpe']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][0]['ln1']['scale']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][0]['ln1']['bias']"}, tensor<256x4x64xbf16> {jax.result_info = "['params']['layers'][0]['attn']['wq']"}, tensor<256x4x64xbf16> {jax.result_info = "['params']['layers'][0]['attn']['wk']"}, tensor<256x4x64xbf16> {jax.result_info = "['params']['layers'][0]['attn']['wv']"}, tensor<4x64x256xbf16> {jax.result_info = "['params']['layers'][0]['attn']['wo']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][0]['ln2']['scale']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][0]['ln2']['bias']"}, tensor<256x1024xbf16> {jax.result_info = "['params']['layers'][0]['mlp']['w1']"}, tensor<1024xbf16> {jax.result_info = "['params']['layers'][0]['mlp']['b1']"}, tensor<1024x256xbf16> {jax.result_info = "['params']['layers'][0]['mlp']['w2']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][0]['mlp']['b2']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][1]['ln1']['scale']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][1]['ln1']['bias']"}, tensor<256x4x64xbf16> {jax.result_info = "['params']['layers'][1]['attn']['wq']"}, tensor<256x4x64xbf16> {jax.result_info = "['params']['layers'][1]['attn']['wk']"}, tensor<256x4x64xbf16> {jax.result_info = "['params']['layers'][1]['attn']['wv']"}, tensor<4x64x256xbf16> {jax.result_info = "['params']['layers'][1]['attn']['wo']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][1]['ln2']['scale']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][1]['ln2']['bias']"}, tensor<256x1024xbf16> {jax.result_info = "['params']['layers'][1]['mlp']['w1']"}, tensor<1024xbf16> {jax.result_info = "['params']['layers'][1]['mlp']['b1']"}, tensor<1024x256xbf16> {jax.result_info = "['params']['layers'][1]['mlp']['w2']"}, tensor<256xbf16> {jax.result_info = "['params']['layers'][1]['mlp']['b2']"}, tensor<256xbf16> {jax.result_info = "['params']['ln_f']['scale']"}, tensor<256xbf16> {jax.result_info = "['params']['ln_f']['bias']"}, tensor<1024x256xbf16> {jax.result_info = "['opt_state']['mu']['wte']"}, tensor<128x256xbf16> {jax.result_info = "['opt_state']['mu']['wpe']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['ln1']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['ln1']['bias']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['attn']['wq']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['attn']['wk']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['attn']['wv']"}, tensor<4x64x256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['attn']['wo']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['ln2']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['ln2']['bias']"}, tensor<256x1024xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['mlp']['w1']"}, tensor<1024xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['mlp']['b1']"}, tensor<1024x256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['mlp']['w2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][0]['mlp']['b2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['ln1']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['ln1']['bias']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['attn']['wq']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['attn']['wk']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['attn']['wv']"}, tensor<4x64x256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['attn']['wo']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['ln2']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['ln2']['bias']"}, tensor<256x1024xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['mlp']['w1']"}, tensor<1024xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['mlp']['b1']"}, tensor<1024x256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['mlp']['w2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['layers'][1]['mlp']['b2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['ln_f']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['mu']['ln_f']['bias']"}, tensor<1024x256xbf16> {jax.result_info = "['opt_state']['nu']['wte']"}, tensor<128x256xbf16> {jax.result_info = "['opt_state']['nu']['wpe']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['ln1']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['ln1']['bias']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['attn']['wq']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['attn']['wk']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['attn']['wv']"}, tensor<4x64x256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['attn']['wo']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['ln2']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['ln2']['bias']"}, tensor<256x1024xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['mlp']['w1']"}, tensor<1024xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['mlp']['b1']"}, tensor<1024x256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['mlp']['w2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][0]['mlp']['b2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['ln1']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['ln1']['bias']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['attn']['wq']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['attn']['wk']"}, tensor<256x4x64xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['attn']['wv']"}, tensor<4x64x256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['attn']['wo']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['ln2']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['ln2']['bias']"}, tensor<256x1024xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['mlp']['w1']"}, tensor<1024xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['mlp']['b1']"}, tensor<1024x256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['mlp']['w2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['layers'][1]['mlp']['b2']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['ln_f']['scale']"}, tensor<256xbf16> {jax.result_info = "['opt_state']['nu']['ln_f']['bias']"}, tensor<bf16> {jax.result_info = "['loss']"}) {
    %0 = stablehlo.reshape %arg84 : (tensor<16x128xi32>) -> tensor<16x128x1xi32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<128x256xbf16>) -> tensor<16x128x256xbf16>
    %2 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 256>}> : (tensor<1024x256xbf16>, tensor<16x128x1xi32>) -> tensor<16x128x256xbf16>
    %3 = stablehlo.add %2, %1 : tensor<16x128x256xbf16>
    %4 = stablehlo.iota dim = 3 : tensor<16x4x128x128xi32>
    %5 = stablehlo.iota dim = 2 : tensor<16x4x128x128xi32>
    %6 = stablehlo.compare  GE, %5, %4,  SIGNED : (tensor<16x4x128x128xi32>, tensor<16x4x128x128xi32>) -> tensor<16x4x128x128xi1>
    %7 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %8 = stablehlo.reduce(%3 init: %7) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %9 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %11 = stablehlo.multiply %8, %10 : tensor<16x128xbf16>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %13 = stablehlo.subtract %3, %12 : tensor<16x128x256xbf16>
    %14 = stablehlo.multiply %13, %13 : tensor<16x128x256xbf16>
    %15 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %16 = stablehlo.reduce(%14 init: %15) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %17 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %18 = stablehlo.broadcast_in_dim %17, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %19 = stablehlo.multiply %16, %18 : tensor<16x128xbf16>
    %20 = stablehlo.constant dense<1.000000e-05> : tensor<bf16>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %22 = stablehlo.add %19, %21 : tensor<16x128xbf16>
    %23 = stablehlo.rsqrt %22 : tensor<16x128xbf16>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %25 = stablehlo.multiply %13, %24 : tensor<16x128x256xbf16>
    %26 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %27 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %28 = stablehlo.multiply %25, %27 : tensor<16x128x256xbf16>
    %29 = stablehlo.add %28, %26 : tensor<16x128x256xbf16>
    %30 = stablehlo.dot_general %29, %arg4, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x4x64xbf16>
    %31 = stablehlo.dot_general %29, %arg5, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x4x64xbf16>
    %32 = stablehlo.dot_general %29, %arg6, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x4x64xbf16>
    %33 = stablehlo.dot_general %30, %31, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<16x128x4x64xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x128xbf16>
    %34 = stablehlo.constant dense<1.250000e-01> : tensor<bf16>
    %35 = stablehlo.broadcast_in_dim %34, dims = [] : (tensor<bf16>) -> tensor<16x4x128x128xbf16>
    %36 = stablehlo.multiply %33, %35 : tensor<16x4x128x128xbf16>
    %37 = stablehlo.constant dense<-1.000000e+09> : tensor<bf16>
    %38 = stablehlo.broadcast_in_dim %37, dims = [] : (tensor<bf16>) -> tensor<16x4x128x128xbf16>
    %39 = stablehlo.select %6, %36, %38 : tensor<16x4x128x128xi1>, tensor<16x4x128x128xbf16>
    %40 = stablehlo.constant dense<-3.000000e+38> : tensor<bf16>
    %41 = stablehlo.reduce(%39 init: %40) applies stablehlo.maximum across dimensions = [3] : (tensor<16x4x128x128xbf16>, tensor<bf16>) -> tensor<16x4x128xbf16>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2] : (tensor<16x4x128xbf16>) -> tensor<16x4x128x128xbf16>
    %43 = stablehlo.subtract %39, %42 : tensor<16x4x128x128xbf16>
    %44 = stablehlo.exponential %43 : tensor<16x4x128x128xbf16>
    %45 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %46 = stablehlo.reduce(%44 init: %45) applies stablehlo.add across dimensions = [3] : (tensor<16x4x128x128xbf16>, tensor<bf16>) -> tensor<16x4x128xbf16>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<16x4x128xbf16>) -> tensor<16x4x128x128xbf16>
    %48 = stablehlo.divide %44, %47 : tensor<16x4x128x128xbf16>
    %49 = stablehlo.dot_general %48, %32, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<16x4x128x128xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %50 = stablehlo.dot_general %49, %arg7, contracting_dims = [1, 3] x [0, 1] : (tensor<16x4x128x64xbf16>, tensor<4x64x256xbf16>) -> tensor<16x128x256xbf16>
    %51 = stablehlo.add %3, %50 : tensor<16x128x256xbf16>
    %52 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %53 = stablehlo.reduce(%51 init: %52) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %54 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %55 = stablehlo.broadcast_in_dim %54, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %56 = stablehlo.multiply %53, %55 : tensor<16x128xbf16>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %58 = stablehlo.subtract %51, %57 : tensor<16x128x256xbf16>
    %59 = stablehlo.multiply %58, %58 : tensor<16x128x256xbf16>
    %60 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %61 = stablehlo.reduce(%59 init: %60) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %62 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %63 = stablehlo.broadcast_in_dim %62, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %64 = stablehlo.multiply %61, %63 : tensor<16x128xbf16>
    %65 = stablehlo.constant dense<1.000000e-05> : tensor<bf16>
    %66 = stablehlo.broadcast_in_dim %65, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %67 = stablehlo.add %64, %66 : tensor<16x128xbf16>
    %68 = stablehlo.rsqrt %67 : tensor<16x128xbf16>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %70 = stablehlo.multiply %58, %69 : tensor<16x128x256xbf16>
    %71 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %72 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %73 = stablehlo.multiply %70, %72 : tensor<16x128x256xbf16>
    %74 = stablehlo.add %73, %71 : tensor<16x128x256xbf16>
    %75 = stablehlo.dot_general %74, %arg10, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x1024xbf16>) -> tensor<16x128x1024xbf16>
    %76 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<1024xbf16>) -> tensor<16x128x1024xbf16>
    %77 = stablehlo.add %75, %76 : tensor<16x128x1024xbf16>
    %78 = stablehlo.multiply %77, %77 : tensor<16x128x1024xbf16>
    %79 = stablehlo.multiply %78, %77 : tensor<16x128x1024xbf16>
    %80 = stablehlo.constant dense<4.471500e-02> : tensor<bf16>
    %81 = stablehlo.broadcast_in_dim %80, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %82 = stablehlo.multiply %79, %81 : tensor<16x128x1024xbf16>
    %83 = stablehlo.add %77, %82 : tensor<16x128x1024xbf16>
    %84 = stablehlo.constant dense<7.978846e-01> : tensor<bf16>
    %85 = stablehlo.broadcast_in_dim %84, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %86 = stablehlo.multiply %83, %85 : tensor<16x128x1024xbf16>
    %87 = stablehlo.tanh %86 : tensor<16x128x1024xbf16>
    %88 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %89 = stablehlo.broadcast_in_dim %88, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %90 = stablehlo.add %87, %89 : tensor<16x128x1024xbf16>
    %91 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %92 = stablehlo.broadcast_in_dim %91, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %93 = stablehlo.multiply %77, %92 : tensor<16x128x1024xbf16>
    %94 = stablehlo.multiply %93, %90 : tensor<16x128x1024xbf16>
    %95 = stablehlo.dot_general %94, %arg12, contracting_dims = [2] x [0] : (tensor<16x128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x128x256xbf16>
    %96 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %97 = stablehlo.add %95, %96 : tensor<16x128x256xbf16>
    %98 = stablehlo.add %51, %97 : tensor<16x128x256xbf16>
    %99 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %100 = stablehlo.reduce(%98 init: %99) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %101 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %102 = stablehlo.broadcast_in_dim %101, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %103 = stablehlo.multiply %100, %102 : tensor<16x128xbf16>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %105 = stablehlo.subtract %98, %104 : tensor<16x128x256xbf16>
    %106 = stablehlo.multiply %105, %105 : tensor<16x128x256xbf16>
    %107 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %108 = stablehlo.reduce(%106 init: %107) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %109 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %110 = stablehlo.broadcast_in_dim %109, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %111 = stablehlo.multiply %108, %110 : tensor<16x128xbf16>
    %112 = stablehlo.constant dense<1.000000e-05> : tensor<bf16>
    %113 = stablehlo.broadcast_in_dim %112, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %114 = stablehlo.add %111, %113 : tensor<16x128xbf16>
    %115 = stablehlo.rsqrt %114 : tensor<16x128xbf16>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %117 = stablehlo.multiply %105, %116 : tensor<16x128x256xbf16>
    %118 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %119 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %120 = stablehlo.multiply %117, %119 : tensor<16x128x256xbf16>
    %121 = stablehlo.add %120, %118 : tensor<16x128x256xbf16>
    %122 = stablehlo.dot_general %121, %arg16, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x4x64xbf16>
    %123 = stablehlo.dot_general %121, %arg17, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x4x64xbf16>
    %124 = stablehlo.dot_general %121, %arg18, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x4x64xbf16>
    %125 = stablehlo.dot_general %122, %123, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<16x128x4x64xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x128xbf16>
    %126 = stablehlo.constant dense<1.250000e-01> : tensor<bf16>
    %127 = stablehlo.broadcast_in_dim %126, dims = [] : (tensor<bf16>) -> tensor<16x4x128x128xbf16>
    %128 = stablehlo.multiply %125, %127 : tensor<16x4x128x128xbf16>
    %129 = stablehlo.constant dense<-1.000000e+09> : tensor<bf16>
    %130 = stablehlo.broadcast_in_dim %129, dims = [] : (tensor<bf16>) -> tensor<16x4x128x128xbf16>
    %131 = stablehlo.select %6, %128, %130 : tensor<16x4x128x128xi1>, tensor<16x4x128x128xbf16>
    %132 = stablehlo.constant dense<-3.000000e+38> : tensor<bf16>
    %133 = stablehlo.reduce(%131 init: %132) applies stablehlo.maximum across dimensions = [3] : (tensor<16x4x128x128xbf16>, tensor<bf16>) -> tensor<16x4x128xbf16>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 2] : (tensor<16x4x128xbf16>) -> tensor<16x4x128x128xbf16>
    %135 = stablehlo.subtract %131, %134 : tensor<16x4x128x128xbf16>
    %136 = stablehlo.exponential %135 : tensor<16x4x128x128xbf16>
    %137 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %138 = stablehlo.reduce(%136 init: %137) applies stablehlo.add across dimensions = [3] : (tensor<16x4x128x128xbf16>, tensor<bf16>) -> tensor<16x4x128xbf16>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<16x4x128xbf16>) -> tensor<16x4x128x128xbf16>
    %140 = stablehlo.divide %136, %139 : tensor<16x4x128x128xbf16>
    %141 = stablehlo.dot_general %140, %124, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<16x4x128x128xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %142 = stablehlo.dot_general %141, %arg19, contracting_dims = [1, 3] x [0, 1] : (tensor<16x4x128x64xbf16>, tensor<4x64x256xbf16>) -> tensor<16x128x256xbf16>
    %143 = stablehlo.add %98, %142 : tensor<16x128x256xbf16>
    %144 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %145 = stablehlo.reduce(%143 init: %144) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %146 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %147 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %148 = stablehlo.multiply %145, %147 : tensor<16x128xbf16>
    %149 = stablehlo.broadcast_in_dim %148, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %150 = stablehlo.subtract %143, %149 : tensor<16x128x256xbf16>
    %151 = stablehlo.multiply %150, %150 : tensor<16x128x256xbf16>
    %152 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %153 = stablehlo.reduce(%151 init: %152) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %154 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %155 = stablehlo.broadcast_in_dim %154, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %156 = stablehlo.multiply %153, %155 : tensor<16x128xbf16>
    %157 = stablehlo.constant dense<1.000000e-05> : tensor<bf16>
    %158 = stablehlo.broadcast_in_dim %157, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %159 = stablehlo.add %156, %158 : tensor<16x128xbf16>
    %160 = stablehlo.rsqrt %159 : tensor<16x128xbf16>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %162 = stablehlo.multiply %150, %161 : tensor<16x128x256xbf16>
    %163 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %164 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %165 = stablehlo.multiply %162, %164 : tensor<16x128x256xbf16>
    %166 = stablehlo.add %165, %163 : tensor<16x128x256xbf16>
    %167 = stablehlo.dot_general %166, %arg22, contracting_dims = [2] x [0] : (tensor<16x128x256xbf16>, tensor<256x1024xbf16>) -> tensor<16x128x1024xbf16>
    %168 = stablehlo.broadcast_in_dim %arg23, dims = [2] : (tensor<1024xbf16>) -> tensor<16x128x1024xbf16>
    %169 = stablehlo.add %167, %168 : tensor<16x128x1024xbf16>
    %170 = stablehlo.multiply %169, %169 : tensor<16x128x1024xbf16>
    %171 = stablehlo.multiply %170, %169 : tensor<16x128x1024xbf16>
    %172 = stablehlo.constant dense<4.471500e-02> : tensor<bf16>
    %173 = stablehlo.broadcast_in_dim %172, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %174 = stablehlo.multiply %171, %173 : tensor<16x128x1024xbf16>
    %175 = stablehlo.add %169, %174 : tensor<16x128x1024xbf16>
    %176 = stablehlo.constant dense<7.978846e-01> : tensor<bf16>
    %177 = stablehlo.broadcast_in_dim %176, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %178 = stablehlo.multiply %175, %177 : tensor<16x128x1024xbf16>
    %179 = stablehlo.tanh %178 : tensor<16x128x1024xbf16>
    %180 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %181 = stablehlo.broadcast_in_dim %180, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %182 = stablehlo.add %179, %181 : tensor<16x128x1024xbf16>
    %183 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %184 = stablehlo.broadcast_in_dim %183, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %185 = stablehlo.multiply %169, %184 : tensor<16x128x1024xbf16>
    %186 = stablehlo.multiply %185, %182 : tensor<16x128x1024xbf16>
    %187 = stablehlo.dot_general %186, %arg24, contracting_dims = [2] x [0] : (tensor<16x128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x128x256xbf16>
    %188 = stablehlo.broadcast_in_dim %arg25, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %189 = stablehlo.add %187, %188 : tensor<16x128x256xbf16>
    %190 = stablehlo.add %143, %189 : tensor<16x128x256xbf16>
    %191 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %192 = stablehlo.reduce(%190 init: %191) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %193 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %194 = stablehlo.broadcast_in_dim %193, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %195 = stablehlo.multiply %192, %194 : tensor<16x128xbf16>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %197 = stablehlo.subtract %190, %196 : tensor<16x128x256xbf16>
    %198 = stablehlo.multiply %197, %197 : tensor<16x128x256xbf16>
    %199 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %200 = stablehlo.reduce(%198 init: %199) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %201 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %202 = stablehlo.broadcast_in_dim %201, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %203 = stablehlo.multiply %200, %202 : tensor<16x128xbf16>
    %204 = stablehlo.constant dense<1.000000e-05> : tensor<bf16>
    %205 = stablehlo.broadcast_in_dim %204, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %206 = stablehlo.add %203, %205 : tensor<16x128xbf16>
    %207 = stablehlo.rsqrt %206 : tensor<16x128xbf16>
    %208 = stablehlo.broadcast_in_dim %207, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %209 = stablehlo.multiply %197, %208 : tensor<16x128x256xbf16>
    %210 = stablehlo.broadcast_in_dim %arg27, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %211 = stablehlo.broadcast_in_dim %arg26, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %212 = stablehlo.multiply %209, %211 : tensor<16x128x256xbf16>
    %213 = stablehlo.add %212, %210 : tensor<16x128x256xbf16>
    %214 = stablehlo.dot_general %213, %arg0, contracting_dims = [2] x [1] : (tensor<16x128x256xbf16>, tensor<1024x256xbf16>) -> tensor<16x128x1024xbf16>
    %215 = stablehlo.constant dense<-3.000000e+38> : tensor<bf16>
    %216 = stablehlo.reduce(%214 init: %215) applies stablehlo.maximum across dimensions = [2] : (tensor<16x128x1024xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %217 = stablehlo.broadcast_in_dim %216, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x1024xbf16>
    %218 = stablehlo.subtract %214, %217 : tensor<16x128x1024xbf16>
    %219 = stablehlo.exponential %218 : tensor<16x128x1024xbf16>
    %220 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %221 = stablehlo.reduce(%219 init: %220) applies stablehlo.add across dimensions = [2] : (tensor<16x128x1024xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %222 = stablehlo.log %221 : tensor<16x128xbf16>
    %223 = stablehlo.iota dim = 2 : tensor<16x128x1024xi32>
    %224 = stablehlo.broadcast_in_dim %arg85, dims = [0, 1] : (tensor<16x128xi32>) -> tensor<16x128x1024xi32>
    %225 = stablehlo.compare  EQ, %223, %224,  SIGNED : (tensor<16x128x1024xi32>, tensor<16x128x1024xi32>) -> tensor<16x128x1024xi1>
    %226 = stablehlo.convert %225 : (tensor<16x128x1024xi1>) -> tensor<16x128x1024xbf16>
    %227 = stablehlo.multiply %218, %226 : tensor<16x128x1024xbf16>
    %228 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %229 = stablehlo.reduce(%227 init: %228) applies stablehlo.add across dimensions = [2] : (tensor<16x128x1024xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %230 = stablehlo.subtract %222, %229 : tensor<16x128xbf16>
    %231 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %232 = stablehlo.reduce(%230 init: %231) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128xbf16>, tensor<bf16>) -> tensor<bf16>
    %233 = stablehlo.constant dense<4.882812e-04> : tensor<bf16>
    %234 = stablehlo.broadcast_in_dim %233, dims = [] : (tensor<bf16>) -> tensor<bf16>
    %235 = stablehlo.multiply %232, %234 : tensor<bf16>
    %236 = stablehlo.broadcast_in_dim %221, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x1024xbf16>
    %237 = stablehlo.divide %219, %236 : tensor<16x128x1024xbf16>
    %238 = stablehlo.subtract %237, %226 : tensor<16x128x1024xbf16>
    %239 = stablehlo.constant dense<4.882812e-04> : tensor<bf16>
    %240 = stablehlo.broadcast_in_dim %239, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %241 = stablehlo.multiply %238, %240 : tensor<16x128x1024xbf16>
    %242 = stablehlo.dot_general %241, %213, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x1024xbf16>, tensor<16x128x256xbf16>) -> tensor<1024x256xbf16>
    %243 = stablehlo.dot_general %241, %arg0, contracting_dims = [2] x [0] : (tensor<16x128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x128x256xbf16>
    %244 = stablehlo.multiply %243, %209 : tensor<16x128x256xbf16>
    %245 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %246 = stablehlo.reduce(%244 init: %245) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %247 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %248 = stablehlo.reduce(%243 init: %247) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %249 = stablehlo.broadcast_in_dim %arg26, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %250 = stablehlo.multiply %243, %249 : tensor<16x128x256xbf16>
    %251 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %252 = stablehlo.reduce(%250 init: %251) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %253 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %254 = stablehlo.broadcast_in_dim %253, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %255 = stablehlo.multiply %252, %254 : tensor<16x128xbf16>
    %256 = stablehlo.multiply %250, %209 : tensor<16x128x256xbf16>
    %257 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %258 = stablehlo.reduce(%256 init: %257) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %259 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %260 = stablehlo.broadcast_in_dim %259, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %261 = stablehlo.multiply %258, %260 : tensor<16x128xbf16>
    %262 = stablehlo.broadcast_in_dim %261, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %263 = stablehlo.multiply %209, %262 : tensor<16x128x256xbf16>
    %264 = stablehlo.broadcast_in_dim %255, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %265 = stablehlo.subtract %250, %264 : tensor<16x128x256xbf16>
    %266 = stablehlo.subtract %265, %263 : tensor<16x128x256xbf16>
    %267 = stablehlo.broadcast_in_dim %207, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %268 = stablehlo.multiply %267, %266 : tensor<16x128x256xbf16>
    %269 = stablehlo.dot_general %186, %268, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x1024xbf16>, tensor<16x128x256xbf16>) -> tensor<1024x256xbf16>
    %270 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %271 = stablehlo.reduce(%268 init: %270) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %272 = stablehlo.dot_general %268, %arg24, contracting_dims = [2] x [1] : (tensor<16x128x256xbf16>, tensor<1024x256xbf16>) -> tensor<16x128x1024xbf16>
    %273 = stablehlo.multiply %169, %169 : tensor<16x128x1024xbf16>
    %274 = stablehlo.multiply %273, %169 : tensor<16x128x1024xbf16>
    %275 = stablehlo.constant dense<4.471500e-02> : tensor<bf16>
    %276 = stablehlo.broadcast_in_dim %275, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %277 = stablehlo.multiply %274, %276 : tensor<16x128x1024xbf16>
    %278 = stablehlo.add %169, %277 : tensor<16x128x1024xbf16>
    %279 = stablehlo.constant dense<7.978846e-01> : tensor<bf16>
    %280 = stablehlo.broadcast_in_dim %279, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %281 = stablehlo.multiply %278, %280 : tensor<16x128x1024xbf16>
    %282 = stablehlo.tanh %281 : tensor<16x128x1024xbf16>
    %283 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %284 = stablehlo.broadcast_in_dim %283, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %285 = stablehlo.add %282, %284 : tensor<16x128x1024xbf16>
    %286 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %287 = stablehlo.broadcast_in_dim %286, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %288 = stablehlo.multiply %285, %287 : tensor<16x128x1024xbf16>
    %289 = stablehlo.multiply %282, %282 : tensor<16x128x1024xbf16>
    %290 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %291 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %292 = stablehlo.subtract %291, %289 : tensor<16x128x1024xbf16>
    %293 = stablehlo.constant dense<1.341450e-01> : tensor<bf16>
    %294 = stablehlo.broadcast_in_dim %293, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %295 = stablehlo.multiply %273, %294 : tensor<16x128x1024xbf16>
    %296 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %297 = stablehlo.broadcast_in_dim %296, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %298 = stablehlo.add %295, %297 : tensor<16x128x1024xbf16>
    %299 = stablehlo.constant dense<7.978846e-01> : tensor<bf16>
    %300 = stablehlo.broadcast_in_dim %299, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %301 = stablehlo.multiply %298, %300 : tensor<16x128x1024xbf16>
    %302 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %303 = stablehlo.broadcast_in_dim %302, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %304 = stablehlo.multiply %169, %303 : tensor<16x128x1024xbf16>
    %305 = stablehlo.multiply %304, %292 : tensor<16x128x1024xbf16>
    %306 = stablehlo.multiply %305, %301 : tensor<16x128x1024xbf16>
    %307 = stablehlo.add %288, %306 : tensor<16x128x1024xbf16>
    %308 = stablehlo.multiply %272, %307 : tensor<16x128x1024xbf16>
    %309 = stablehlo.dot_general %166, %308, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x1024xbf16>) -> tensor<256x1024xbf16>
    %310 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %311 = stablehlo.reduce(%308 init: %310) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x1024xbf16>, tensor<bf16>) -> tensor<1024xbf16>
    %312 = stablehlo.dot_general %308, %arg22, contracting_dims = [2] x [1] : (tensor<16x128x1024xbf16>, tensor<256x1024xbf16>) -> tensor<16x128x256xbf16>
    %313 = stablehlo.multiply %312, %162 : tensor<16x128x256xbf16>
    %314 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %315 = stablehlo.reduce(%313 init: %314) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %316 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %317 = stablehlo.reduce(%312 init: %316) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %318 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %319 = stablehlo.multiply %312, %318 : tensor<16x128x256xbf16>
    %320 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %321 = stablehlo.reduce(%319 init: %320) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %322 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %323 = stablehlo.broadcast_in_dim %322, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %324 = stablehlo.multiply %321, %323 : tensor<16x128xbf16>
    %325 = stablehlo.multiply %319, %162 : tensor<16x128x256xbf16>
    %326 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %327 = stablehlo.reduce(%325 init: %326) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %328 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %329 = stablehlo.broadcast_in_dim %328, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %330 = stablehlo.multiply %327, %329 : tensor<16x128xbf16>
    %331 = stablehlo.broadcast_in_dim %330, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %332 = stablehlo.multiply %162, %331 : tensor<16x128x256xbf16>
    %333 = stablehlo.broadcast_in_dim %324, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %334 = stablehlo.subtract %319, %333 : tensor<16x128x256xbf16>
    %335 = stablehlo.subtract %334, %332 : tensor<16x128x256xbf16>
    %336 = stablehlo.broadcast_in_dim %160, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %337 = stablehlo.multiply %336, %335 : tensor<16x128x256xbf16>
    %338 = stablehlo.add %268, %337 : tensor<16x128x256xbf16>
    %339 = stablehlo.dot_general %141, %338, contracting_dims = [0, 2] x [0, 1] : (tensor<16x4x128x64xbf16>, tensor<16x128x256xbf16>) -> tensor<4x64x256xbf16>
    %340 = stablehlo.dot_general %338, %arg19, contracting_dims = [2] x [2] : (tensor<16x128x256xbf16>, tensor<4x64x256xbf16>) -> tensor<16x128x4x64xbf16>
    %341 = stablehlo.transpose %340, dims = [0, 2, 1, 3] : (tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %342 = stablehlo.dot_general %341, %124, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [3] : (tensor<16x4x128x64xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x128xbf16>
    %343 = stablehlo.dot_general %140, %341, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2] : (tensor<16x4x128x128xbf16>, tensor<16x4x128x64xbf16>) -> tensor<16x4x128x64xbf16>
    %344 = stablehlo.transpose %343, dims = [0, 2, 1, 3] : (tensor<16x4x128x64xbf16>) -> tensor<16x128x4x64xbf16>
    %345 = stablehlo.multiply %342, %140 : tensor<16x4x128x128xbf16>
    %346 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %347 = stablehlo.reduce(%345 init: %346) applies stablehlo.add across dimensions = [3] : (tensor<16x4x128x128xbf16>, tensor<bf16>) -> tensor<16x4x128xbf16>
    %348 = stablehlo.broadcast_in_dim %347, dims = [0, 1, 2] : (tensor<16x4x128xbf16>) -> tensor<16x4x128x128xbf16>
    %349 = stablehlo.subtract %342, %348 : tensor<16x4x128x128xbf16>
    %350 = stablehlo.multiply %140, %349 : tensor<16x4x128x128xbf16>
    %351 = stablehlo.constant dense<1.250000e-01> : tensor<bf16>
    %352 = stablehlo.broadcast_in_dim %351, dims = [] : (tensor<bf16>) -> tensor<16x4x128x128xbf16>
    %353 = stablehlo.multiply %350, %352 : tensor<16x4x128x128xbf16>
    %354 = stablehlo.dot_general %353, %123, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<16x4x128x128xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %355 = stablehlo.transpose %354, dims = [0, 2, 1, 3] : (tensor<16x4x128x64xbf16>) -> tensor<16x128x4x64xbf16>
    %356 = stablehlo.dot_general %353, %122, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1] : (tensor<16x4x128x128xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %357 = stablehlo.transpose %356, dims = [0, 2, 1, 3] : (tensor<16x4x128x64xbf16>) -> tensor<16x128x4x64xbf16>
    %358 = stablehlo.dot_general %121, %355, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x4x64xbf16>) -> tensor<256x4x64xbf16>
    %359 = stablehlo.dot_general %355, %arg16, contracting_dims = [2, 3] x [1, 2] : (tensor<16x128x4x64xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x256xbf16>
    %360 = stablehlo.dot_general %121, %357, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x4x64xbf16>) -> tensor<256x4x64xbf16>
    %361 = stablehlo.dot_general %357, %arg17, contracting_dims = [2, 3] x [1, 2] : (tensor<16x128x4x64xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x256xbf16>
    %362 = stablehlo.add %359, %361 : tensor<16x128x256xbf16>
    %363 = stablehlo.dot_general %121, %344, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x4x64xbf16>) -> tensor<256x4x64xbf16>
    %364 = stablehlo.dot_general %344, %arg18, contracting_dims = [2, 3] x [1, 2] : (tensor<16x128x4x64xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x256xbf16>
    %365 = stablehlo.add %362, %364 : tensor<16x128x256xbf16>
    %366 = stablehlo.multiply %365, %117 : tensor<16x128x256xbf16>
    %367 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %368 = stablehlo.reduce(%366 init: %367) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %369 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %370 = stablehlo.reduce(%365 init: %369) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %371 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %372 = stablehlo.multiply %365, %371 : tensor<16x128x256xbf16>
    %373 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %374 = stablehlo.reduce(%372 init: %373) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %375 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %376 = stablehlo.broadcast_in_dim %375, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %377 = stablehlo.multiply %374, %376 : tensor<16x128xbf16>
    %378 = stablehlo.multiply %372, %117 : tensor<16x128x256xbf16>
    %379 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %380 = stablehlo.reduce(%378 init: %379) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %381 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %382 = stablehlo.broadcast_in_dim %381, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %383 = stablehlo.multiply %380, %382 : tensor<16x128xbf16>
    %384 = stablehlo.broadcast_in_dim %383, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %385 = stablehlo.multiply %117, %384 : tensor<16x128x256xbf16>
    %386 = stablehlo.broadcast_in_dim %377, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %387 = stablehlo.subtract %372, %386 : tensor<16x128x256xbf16>
    %388 = stablehlo.subtract %387, %385 : tensor<16x128x256xbf16>
    %389 = stablehlo.broadcast_in_dim %115, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %390 = stablehlo.multiply %389, %388 : tensor<16x128x256xbf16>
    %391 = stablehlo.add %338, %390 : tensor<16x128x256xbf16>
    %392 = stablehlo.dot_general %94, %391, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x1024xbf16>, tensor<16x128x256xbf16>) -> tensor<1024x256xbf16>
    %393 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %394 = stablehlo.reduce(%391 init: %393) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %395 = stablehlo.dot_general %391, %arg12, contracting_dims = [2] x [1] : (tensor<16x128x256xbf16>, tensor<1024x256xbf16>) -> tensor<16x128x1024xbf16>
    %396 = stablehlo.multiply %77, %77 : tensor<16x128x1024xbf16>
    %397 = stablehlo.multiply %396, %77 : tensor<16x128x1024xbf16>
    %398 = stablehlo.constant dense<4.471500e-02> : tensor<bf16>
    %399 = stablehlo.broadcast_in_dim %398, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %400 = stablehlo.multiply %397, %399 : tensor<16x128x1024xbf16>
    %401 = stablehlo.add %77, %400 : tensor<16x128x1024xbf16>
    %402 = stablehlo.constant dense<7.978846e-01> : tensor<bf16>
    %403 = stablehlo.broadcast_in_dim %402, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %404 = stablehlo.multiply %401, %403 : tensor<16x128x1024xbf16>
    %405 = stablehlo.tanh %404 : tensor<16x128x1024xbf16>
    %406 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %407 = stablehlo.broadcast_in_dim %406, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %408 = stablehlo.add %405, %407 : tensor<16x128x1024xbf16>
    %409 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %410 = stablehlo.broadcast_in_dim %409, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %411 = stablehlo.multiply %408, %410 : tensor<16x128x1024xbf16>
    %412 = stablehlo.multiply %405, %405 : tensor<16x128x1024xbf16>
    %413 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %414 = stablehlo.broadcast_in_dim %413, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %415 = stablehlo.subtract %414, %412 : tensor<16x128x1024xbf16>
    %416 = stablehlo.constant dense<1.341450e-01> : tensor<bf16>
    %417 = stablehlo.broadcast_in_dim %416, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %418 = stablehlo.multiply %396, %417 : tensor<16x128x1024xbf16>
    %419 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %420 = stablehlo.broadcast_in_dim %419, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %421 = stablehlo.add %418, %420 : tensor<16x128x1024xbf16>
    %422 = stablehlo.constant dense<7.978846e-01> : tensor<bf16>
    %423 = stablehlo.broadcast_in_dim %422, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %424 = stablehlo.multiply %421, %423 : tensor<16x128x1024xbf16>
    %425 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %426 = stablehlo.broadcast_in_dim %425, dims = [] : (tensor<bf16>) -> tensor<16x128x1024xbf16>
    %427 = stablehlo.multiply %77, %426 : tensor<16x128x1024xbf16>
    %428 = stablehlo.multiply %427, %415 : tensor<16x128x1024xbf16>
    %429 = stablehlo.multiply %428, %424 : tensor<16x128x1024xbf16>
    %430 = stablehlo.add %411, %429 : tensor<16x128x1024xbf16>
    %431 = stablehlo.multiply %395, %430 : tensor<16x128x1024xbf16>
    %432 = stablehlo.dot_general %74, %431, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x1024xbf16>) -> tensor<256x1024xbf16>
    %433 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %434 = stablehlo.reduce(%431 init: %433) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x1024xbf16>, tensor<bf16>) -> tensor<1024xbf16>
    %435 = stablehlo.dot_general %431, %arg10, contracting_dims = [2] x [1] : (tensor<16x128x1024xbf16>, tensor<256x1024xbf16>) -> tensor<16x128x256xbf16>
    %436 = stablehlo.multiply %435, %70 : tensor<16x128x256xbf16>
    %437 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %438 = stablehlo.reduce(%436 init: %437) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %439 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %440 = stablehlo.reduce(%435 init: %439) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %441 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %442 = stablehlo.multiply %435, %441 : tensor<16x128x256xbf16>
    %443 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %444 = stablehlo.reduce(%442 init: %443) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %445 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %446 = stablehlo.broadcast_in_dim %445, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %447 = stablehlo.multiply %444, %446 : tensor<16x128xbf16>
    %448 = stablehlo.multiply %442, %70 : tensor<16x128x256xbf16>
    %449 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %450 = stablehlo.reduce(%448 init: %449) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %451 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %452 = stablehlo.broadcast_in_dim %451, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %453 = stablehlo.multiply %450, %452 : tensor<16x128xbf16>
    %454 = stablehlo.broadcast_in_dim %453, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %455 = stablehlo.multiply %70, %454 : tensor<16x128x256xbf16>
    %456 = stablehlo.broadcast_in_dim %447, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %457 = stablehlo.subtract %442, %456 : tensor<16x128x256xbf16>
    %458 = stablehlo.subtract %457, %455 : tensor<16x128x256xbf16>
    %459 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %460 = stablehlo.multiply %459, %458 : tensor<16x128x256xbf16>
    %461 = stablehlo.add %391, %460 : tensor<16x128x256xbf16>
    %462 = stablehlo.dot_general %49, %461, contracting_dims = [0, 2] x [0, 1] : (tensor<16x4x128x64xbf16>, tensor<16x128x256xbf16>) -> tensor<4x64x256xbf16>
    %463 = stablehlo.dot_general %461, %arg7, contracting_dims = [2] x [2] : (tensor<16x128x256xbf16>, tensor<4x64x256xbf16>) -> tensor<16x128x4x64xbf16>
    %464 = stablehlo.transpose %463, dims = [0, 2, 1, 3] : (tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %465 = stablehlo.dot_general %464, %32, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [3] : (tensor<16x4x128x64xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x128xbf16>
    %466 = stablehlo.dot_general %48, %464, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2] : (tensor<16x4x128x128xbf16>, tensor<16x4x128x64xbf16>) -> tensor<16x4x128x64xbf16>
    %467 = stablehlo.transpose %466, dims = [0, 2, 1, 3] : (tensor<16x4x128x64xbf16>) -> tensor<16x128x4x64xbf16>
    %468 = stablehlo.multiply %465, %48 : tensor<16x4x128x128xbf16>
    %469 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %470 = stablehlo.reduce(%468 init: %469) applies stablehlo.add across dimensions = [3] : (tensor<16x4x128x128xbf16>, tensor<bf16>) -> tensor<16x4x128xbf16>
    %471 = stablehlo.broadcast_in_dim %470, dims = [0, 1, 2] : (tensor<16x4x128xbf16>) -> tensor<16x4x128x128xbf16>
    %472 = stablehlo.subtract %465, %471 : tensor<16x4x128x128xbf16>
    %473 = stablehlo.multiply %48, %472 : tensor<16x4x128x128xbf16>
    %474 = stablehlo.constant dense<1.250000e-01> : tensor<bf16>
    %475 = stablehlo.broadcast_in_dim %474, dims = [] : (tensor<bf16>) -> tensor<16x4x128x128xbf16>
    %476 = stablehlo.multiply %473, %475 : tensor<16x4x128x128xbf16>
    %477 = stablehlo.dot_general %476, %31, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<16x4x128x128xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %478 = stablehlo.transpose %477, dims = [0, 2, 1, 3] : (tensor<16x4x128x64xbf16>) -> tensor<16x128x4x64xbf16>
    %479 = stablehlo.dot_general %476, %30, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1] : (tensor<16x4x128x128xbf16>, tensor<16x128x4x64xbf16>) -> tensor<16x4x128x64xbf16>
    %480 = stablehlo.transpose %479, dims = [0, 2, 1, 3] : (tensor<16x4x128x64xbf16>) -> tensor<16x128x4x64xbf16>
    %481 = stablehlo.dot_general %29, %478, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x4x64xbf16>) -> tensor<256x4x64xbf16>
    %482 = stablehlo.dot_general %478, %arg4, contracting_dims = [2, 3] x [1, 2] : (tensor<16x128x4x64xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x256xbf16>
    %483 = stablehlo.dot_general %29, %480, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x4x64xbf16>) -> tensor<256x4x64xbf16>
    %484 = stablehlo.dot_general %480, %arg5, contracting_dims = [2, 3] x [1, 2] : (tensor<16x128x4x64xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x256xbf16>
    %485 = stablehlo.add %482, %484 : tensor<16x128x256xbf16>
    %486 = stablehlo.dot_general %29, %467, contracting_dims = [0, 1] x [0, 1] : (tensor<16x128x256xbf16>, tensor<16x128x4x64xbf16>) -> tensor<256x4x64xbf16>
    %487 = stablehlo.dot_general %467, %arg6, contracting_dims = [2, 3] x [1, 2] : (tensor<16x128x4x64xbf16>, tensor<256x4x64xbf16>) -> tensor<16x128x256xbf16>
    %488 = stablehlo.add %485, %487 : tensor<16x128x256xbf16>
    %489 = stablehlo.multiply %488, %25 : tensor<16x128x256xbf16>
    %490 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %491 = stablehlo.reduce(%489 init: %490) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %492 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %493 = stablehlo.reduce(%488 init: %492) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<256xbf16>
    %494 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<256xbf16>) -> tensor<16x128x256xbf16>
    %495 = stablehlo.multiply %488, %494 : tensor<16x128x256xbf16>
    %496 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %497 = stablehlo.reduce(%495 init: %496) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %498 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %499 = stablehlo.broadcast_in_dim %498, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %500 = stablehlo.multiply %497, %499 : tensor<16x128xbf16>
    %501 = stablehlo.multiply %495, %25 : tensor<16x128x256xbf16>
    %502 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %503 = stablehlo.reduce(%501 init: %502) applies stablehlo.add across dimensions = [2] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<16x128xbf16>
    %504 = stablehlo.constant dense<3.906250e-03> : tensor<bf16>
    %505 = stablehlo.broadcast_in_dim %504, dims = [] : (tensor<bf16>) -> tensor<16x128xbf16>
    %506 = stablehlo.multiply %503, %505 : tensor<16x128xbf16>
    %507 = stablehlo.broadcast_in_dim %506, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %508 = stablehlo.multiply %25, %507 : tensor<16x128x256xbf16>
    %509 = stablehlo.broadcast_in_dim %500, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %510 = stablehlo.subtract %495, %509 : tensor<16x128x256xbf16>
    %511 = stablehlo.subtract %510, %508 : tensor<16x128x256xbf16>
    %512 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<16x128xbf16>) -> tensor<16x128x256xbf16>
    %513 = stablehlo.multiply %512, %511 : tensor<16x128x256xbf16>
    %514 = stablehlo.add %461, %513 : tensor<16x128x256xbf16>
    %515 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %516 = stablehlo.broadcast_in_dim %515, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %517 = "stablehlo.scatter"(%516, %0, %514) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>}> ({
    ^bb0(%scatter_lhs518: tensor<bf16>, %scatter_rhs518: tensor<bf16>):
      %scatter_sum518 = stablehlo.add %scatter_lhs518, %scatter_rhs518 : tensor<bf16>
      stablehlo.return %scatter_sum518 : tensor<bf16>
    }) : (tensor<1024x256xbf16>, tensor<16x128x1xi32>, tensor<16x128x256xbf16>) -> tensor<1024x256xbf16>
    %518 = stablehlo.add %242, %517 : tensor<1024x256xbf16>
    %519 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %520 = stablehlo.reduce(%514 init: %519) applies stablehlo.add across dimensions = [0] : (tensor<16x128x256xbf16>, tensor<bf16>) -> tensor<128x256xbf16>
    %521 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %522 = stablehlo.broadcast_in_dim %521, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %523 = stablehlo.multiply %518, %522 : tensor<1024x256xbf16>
    %524 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %525 = stablehlo.broadcast_in_dim %524, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %526 = stablehlo.multiply %arg28, %525 : tensor<1024x256xbf16>
    %527 = stablehlo.add %526, %523 : tensor<1024x256xbf16>
    %528 = stablehlo.multiply %518, %518 : tensor<1024x256xbf16>
    %529 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %530 = stablehlo.broadcast_in_dim %529, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %531 = stablehlo.multiply %528, %530 : tensor<1024x256xbf16>
    %532 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %533 = stablehlo.broadcast_in_dim %532, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %534 = stablehlo.multiply %arg56, %533 : tensor<1024x256xbf16>
    %535 = stablehlo.add %534, %531 : tensor<1024x256xbf16>
    %536 = stablehlo.sqrt %535 : tensor<1024x256xbf16>
    %537 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %538 = stablehlo.broadcast_in_dim %537, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %539 = stablehlo.add %536, %538 : tensor<1024x256xbf16>
    %540 = stablehlo.divide %527, %539 : tensor<1024x256xbf16>
    %541 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %542 = stablehlo.broadcast_in_dim %541, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %543 = stablehlo.multiply %540, %542 : tensor<1024x256xbf16>
    %544 = stablehlo.subtract %arg0, %543 : tensor<1024x256xbf16>
    %545 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %546 = stablehlo.broadcast_in_dim %545, dims = [] : (tensor<bf16>) -> tensor<128x256xbf16>
    %547 = stablehlo.multiply %520, %546 : tensor<128x256xbf16>
    %548 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %549 = stablehlo.broadcast_in_dim %548, dims = [] : (tensor<bf16>) -> tensor<128x256xbf16>
    %550 = stablehlo.multiply %arg29, %549 : tensor<128x256xbf16>
    %551 = stablehlo.add %550, %547 : tensor<128x256xbf16>
    %552 = stablehlo.multiply %520, %520 : tensor<128x256xbf16>
    %553 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %554 = stablehlo.broadcast_in_dim %553, dims = [] : (tensor<bf16>) -> tensor<128x256xbf16>
    %555 = stablehlo.multiply %552, %554 : tensor<128x256xbf16>
    %556 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %557 = stablehlo.broadcast_in_dim %556, dims = [] : (tensor<bf16>) -> tensor<128x256xbf16>
    %558 = stablehlo.multiply %arg57, %557 : tensor<128x256xbf16>
    %559 = stablehlo.add %558, %555 : tensor<128x256xbf16>
    %560 = stablehlo.sqrt %559 : tensor<128x256xbf16>
    %561 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %562 = stablehlo.broadcast_in_dim %561, dims = [] : (tensor<bf16>) -> tensor<128x256xbf16>
    %563 = stablehlo.add %560, %562 : tensor<128x256xbf16>
    %564 = stablehlo.divide %551, %563 : tensor<128x256xbf16>
    %565 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %566 = stablehlo.broadcast_in_dim %565, dims = [] : (tensor<bf16>) -> tensor<128x256xbf16>
    %567 = stablehlo.multiply %564, %566 : tensor<128x256xbf16>
    %568 = stablehlo.subtract %arg1, %567 : tensor<128x256xbf16>
    %569 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %570 = stablehlo.broadcast_in_dim %569, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %571 = stablehlo.multiply %491, %570 : tensor<256xbf16>
    %572 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %573 = stablehlo.broadcast_in_dim %572, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %574 = stablehlo.multiply %arg30, %573 : tensor<256xbf16>
    %575 = stablehlo.add %574, %571 : tensor<256xbf16>
    %576 = stablehlo.multiply %491, %491 : tensor<256xbf16>
    %577 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %578 = stablehlo.broadcast_in_dim %577, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %579 = stablehlo.multiply %576, %578 : tensor<256xbf16>
    %580 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %581 = stablehlo.broadcast_in_dim %580, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %582 = stablehlo.multiply %arg58, %581 : tensor<256xbf16>
    %583 = stablehlo.add %582, %579 : tensor<256xbf16>
    %584 = stablehlo.sqrt %583 : tensor<256xbf16>
    %585 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %586 = stablehlo.broadcast_in_dim %585, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %587 = stablehlo.add %584, %586 : tensor<256xbf16>
    %588 = stablehlo.divide %575, %587 : tensor<256xbf16>
    %589 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %590 = stablehlo.broadcast_in_dim %589, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %591 = stablehlo.multiply %588, %590 : tensor<256xbf16>
    %592 = stablehlo.subtract %arg2, %591 : tensor<256xbf16>
    %593 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %594 = stablehlo.broadcast_in_dim %593, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %595 = stablehlo.multiply %493, %594 : tensor<256xbf16>
    %596 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %597 = stablehlo.broadcast_in_dim %596, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %598 = stablehlo.multiply %arg31, %597 : tensor<256xbf16>
    %599 = stablehlo.add %598, %595 : tensor<256xbf16>
    %600 = stablehlo.multiply %493, %493 : tensor<256xbf16>
    %601 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %602 = stablehlo.broadcast_in_dim %601, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %603 = stablehlo.multiply %600, %602 : tensor<256xbf16>
    %604 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %605 = stablehlo.broadcast_in_dim %604, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %606 = stablehlo.multiply %arg59, %605 : tensor<256xbf16>
    %607 = stablehlo.add %606, %603 : tensor<256xbf16>
    %608 = stablehlo.sqrt %607 : tensor<256xbf16>
    %609 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %610 = stablehlo.broadcast_in_dim %609, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %611 = stablehlo.add %608, %610 : tensor<256xbf16>
    %612 = stablehlo.divide %599, %611 : tensor<256xbf16>
    %613 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %614 = stablehlo.broadcast_in_dim %613, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %615 = stablehlo.multiply %612, %614 : tensor<256xbf16>
    %616 = stablehlo.subtract %arg3, %615 : tensor<256xbf16>
    %617 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %618 = stablehlo.broadcast_in_dim %617, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %619 = stablehlo.multiply %481, %618 : tensor<256x4x64xbf16>
    %620 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %621 = stablehlo.broadcast_in_dim %620, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %622 = stablehlo.multiply %arg32, %621 : tensor<256x4x64xbf16>
    %623 = stablehlo.add %622, %619 : tensor<256x4x64xbf16>
    %624 = stablehlo.multiply %481, %481 : tensor<256x4x64xbf16>
    %625 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %626 = stablehlo.broadcast_in_dim %625, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %627 = stablehlo.multiply %624, %626 : tensor<256x4x64xbf16>
    %628 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %629 = stablehlo.broadcast_in_dim %628, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %630 = stablehlo.multiply %arg60, %629 : tensor<256x4x64xbf16>
    %631 = stablehlo.add %630, %627 : tensor<256x4x64xbf16>
    %632 = stablehlo.sqrt %631 : tensor<256x4x64xbf16>
    %633 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %634 = stablehlo.broadcast_in_dim %633, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %635 = stablehlo.add %632, %634 : tensor<256x4x64xbf16>
    %636 = stablehlo.divide %623, %635 : tensor<256x4x64xbf16>
    %637 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %638 = stablehlo.broadcast_in_dim %637, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %639 = stablehlo.multiply %636, %638 : tensor<256x4x64xbf16>
    %640 = stablehlo.subtract %arg4, %639 : tensor<256x4x64xbf16>
    %641 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %642 = stablehlo.broadcast_in_dim %641, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %643 = stablehlo.multiply %483, %642 : tensor<256x4x64xbf16>
    %644 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %645 = stablehlo.broadcast_in_dim %644, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %646 = stablehlo.multiply %arg33, %645 : tensor<256x4x64xbf16>
    %647 = stablehlo.add %646, %643 : tensor<256x4x64xbf16>
    %648 = stablehlo.multiply %483, %483 : tensor<256x4x64xbf16>
    %649 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %650 = stablehlo.broadcast_in_dim %649, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %651 = stablehlo.multiply %648, %650 : tensor<256x4x64xbf16>
    %652 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %653 = stablehlo.broadcast_in_dim %652, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %654 = stablehlo.multiply %arg61, %653 : tensor<256x4x64xbf16>
    %655 = stablehlo.add %654, %651 : tensor<256x4x64xbf16>
    %656 = stablehlo.sqrt %655 : tensor<256x4x64xbf16>
    %657 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %658 = stablehlo.broadcast_in_dim %657, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %659 = stablehlo.add %656, %658 : tensor<256x4x64xbf16>
    %660 = stablehlo.divide %647, %659 : tensor<256x4x64xbf16>
    %661 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %662 = stablehlo.broadcast_in_dim %661, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %663 = stablehlo.multiply %660, %662 : tensor<256x4x64xbf16>
    %664 = stablehlo.subtract %arg5, %663 : tensor<256x4x64xbf16>
    %665 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %666 = stablehlo.broadcast_in_dim %665, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %667 = stablehlo.multiply %486, %666 : tensor<256x4x64xbf16>
    %668 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %669 = stablehlo.broadcast_in_dim %668, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %670 = stablehlo.multiply %arg34, %669 : tensor<256x4x64xbf16>
    %671 = stablehlo.add %670, %667 : tensor<256x4x64xbf16>
    %672 = stablehlo.multiply %486, %486 : tensor<256x4x64xbf16>
    %673 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %674 = stablehlo.broadcast_in_dim %673, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %675 = stablehlo.multiply %672, %674 : tensor<256x4x64xbf16>
    %676 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %677 = stablehlo.broadcast_in_dim %676, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %678 = stablehlo.multiply %arg62, %677 : tensor<256x4x64xbf16>
    %679 = stablehlo.add %678, %675 : tensor<256x4x64xbf16>
    %680 = stablehlo.sqrt %679 : tensor<256x4x64xbf16>
    %681 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %682 = stablehlo.broadcast_in_dim %681, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %683 = stablehlo.add %680, %682 : tensor<256x4x64xbf16>
    %684 = stablehlo.divide %671, %683 : tensor<256x4x64xbf16>
    %685 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %686 = stablehlo.broadcast_in_dim %685, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %687 = stablehlo.multiply %684, %686 : tensor<256x4x64xbf16>
    %688 = stablehlo.subtract %arg6, %687 : tensor<256x4x64xbf16>
    %689 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %690 = stablehlo.broadcast_in_dim %689, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %691 = stablehlo.multiply %462, %690 : tensor<4x64x256xbf16>
    %692 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %693 = stablehlo.broadcast_in_dim %692, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %694 = stablehlo.multiply %arg35, %693 : tensor<4x64x256xbf16>
    %695 = stablehlo.add %694, %691 : tensor<4x64x256xbf16>
    %696 = stablehlo.multiply %462, %462 : tensor<4x64x256xbf16>
    %697 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %698 = stablehlo.broadcast_in_dim %697, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %699 = stablehlo.multiply %696, %698 : tensor<4x64x256xbf16>
    %700 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %701 = stablehlo.broadcast_in_dim %700, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %702 = stablehlo.multiply %arg63, %701 : tensor<4x64x256xbf16>
    %703 = stablehlo.add %702, %699 : tensor<4x64x256xbf16>
    %704 = stablehlo.sqrt %703 : tensor<4x64x256xbf16>
    %705 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %706 = stablehlo.broadcast_in_dim %705, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %707 = stablehlo.add %704, %706 : tensor<4x64x256xbf16>
    %708 = stablehlo.divide %695, %707 : tensor<4x64x256xbf16>
    %709 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %710 = stablehlo.broadcast_in_dim %709, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %711 = stablehlo.multiply %708, %710 : tensor<4x64x256xbf16>
    %712 = stablehlo.subtract %arg7, %711 : tensor<4x64x256xbf16>
    %713 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %714 = stablehlo.broadcast_in_dim %713, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %715 = stablehlo.multiply %438, %714 : tensor<256xbf16>
    %716 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %717 = stablehlo.broadcast_in_dim %716, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %718 = stablehlo.multiply %arg36, %717 : tensor<256xbf16>
    %719 = stablehlo.add %718, %715 : tensor<256xbf16>
    %720 = stablehlo.multiply %438, %438 : tensor<256xbf16>
    %721 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %722 = stablehlo.broadcast_in_dim %721, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %723 = stablehlo.multiply %720, %722 : tensor<256xbf16>
    %724 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %725 = stablehlo.broadcast_in_dim %724, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %726 = stablehlo.multiply %arg64, %725 : tensor<256xbf16>
    %727 = stablehlo.add %726, %723 : tensor<256xbf16>
    %728 = stablehlo.sqrt %727 : tensor<256xbf16>
    %729 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %730 = stablehlo.broadcast_in_dim %729, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %731 = stablehlo.add %728, %730 : tensor<256xbf16>
    %732 = stablehlo.divide %719, %731 : tensor<256xbf16>
    %733 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %734 = stablehlo.broadcast_in_dim %733, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %735 = stablehlo.multiply %732, %734 : tensor<256xbf16>
    %736 = stablehlo.subtract %arg8, %735 : tensor<256xbf16>
    %737 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %738 = stablehlo.broadcast_in_dim %737, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %739 = stablehlo.multiply %440, %738 : tensor<256xbf16>
    %740 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %741 = stablehlo.broadcast_in_dim %740, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %742 = stablehlo.multiply %arg37, %741 : tensor<256xbf16>
    %743 = stablehlo.add %742, %739 : tensor<256xbf16>
    %744 = stablehlo.multiply %440, %440 : tensor<256xbf16>
    %745 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %746 = stablehlo.broadcast_in_dim %745, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %747 = stablehlo.multiply %744, %746 : tensor<256xbf16>
    %748 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %749 = stablehlo.broadcast_in_dim %748, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %750 = stablehlo.multiply %arg65, %749 : tensor<256xbf16>
    %751 = stablehlo.add %750, %747 : tensor<256xbf16>
    %752 = stablehlo.sqrt %751 : tensor<256xbf16>
    %753 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %754 = stablehlo.broadcast_in_dim %753, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %755 = stablehlo.add %752, %754 : tensor<256xbf16>
    %756 = stablehlo.divide %743, %755 : tensor<256xbf16>
    %757 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %758 = stablehlo.broadcast_in_dim %757, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %759 = stablehlo.multiply %756, %758 : tensor<256xbf16>
    %760 = stablehlo.subtract %arg9, %759 : tensor<256xbf16>
    %761 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %762 = stablehlo.broadcast_in_dim %761, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %763 = stablehlo.multiply %432, %762 : tensor<256x1024xbf16>
    %764 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %765 = stablehlo.broadcast_in_dim %764, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %766 = stablehlo.multiply %arg38, %765 : tensor<256x1024xbf16>
    %767 = stablehlo.add %766, %763 : tensor<256x1024xbf16>
    %768 = stablehlo.multiply %432, %432 : tensor<256x1024xbf16>
    %769 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %770 = stablehlo.broadcast_in_dim %769, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %771 = stablehlo.multiply %768, %770 : tensor<256x1024xbf16>
    %772 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %773 = stablehlo.broadcast_in_dim %772, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %774 = stablehlo.multiply %arg66, %773 : tensor<256x1024xbf16>
    %775 = stablehlo.add %774, %771 : tensor<256x1024xbf16>
    %776 = stablehlo.sqrt %775 : tensor<256x1024xbf16>
    %777 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %778 = stablehlo.broadcast_in_dim %777, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %779 = stablehlo.add %776, %778 : tensor<256x1024xbf16>
    %780 = stablehlo.divide %767, %779 : tensor<256x1024xbf16>
    %781 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %782 = stablehlo.broadcast_in_dim %781, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %783 = stablehlo.multiply %780, %782 : tensor<256x1024xbf16>
    %784 = stablehlo.subtract %arg10, %783 : tensor<256x1024xbf16>
    %785 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %786 = stablehlo.broadcast_in_dim %785, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %787 = stablehlo.multiply %434, %786 : tensor<1024xbf16>
    %788 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %789 = stablehlo.broadcast_in_dim %788, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %790 = stablehlo.multiply %arg39, %789 : tensor<1024xbf16>
    %791 = stablehlo.add %790, %787 : tensor<1024xbf16>
    %792 = stablehlo.multiply %434, %434 : tensor<1024xbf16>
    %793 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %794 = stablehlo.broadcast_in_dim %793, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %795 = stablehlo.multiply %792, %794 : tensor<1024xbf16>
    %796 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %797 = stablehlo.broadcast_in_dim %796, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %798 = stablehlo.multiply %arg67, %797 : tensor<1024xbf16>
    %799 = stablehlo.add %798, %795 : tensor<1024xbf16>
    %800 = stablehlo.sqrt %799 : tensor<1024xbf16>
    %801 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %802 = stablehlo.broadcast_in_dim %801, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %803 = stablehlo.add %800, %802 : tensor<1024xbf16>
    %804 = stablehlo.divide %791, %803 : tensor<1024xbf16>
    %805 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %806 = stablehlo.broadcast_in_dim %805, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %807 = stablehlo.multiply %804, %806 : tensor<1024xbf16>
    %808 = stablehlo.subtract %arg11, %807 : tensor<1024xbf16>
    %809 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %810 = stablehlo.broadcast_in_dim %809, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %811 = stablehlo.multiply %392, %810 : tensor<1024x256xbf16>
    %812 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %813 = stablehlo.broadcast_in_dim %812, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %814 = stablehlo.multiply %arg40, %813 : tensor<1024x256xbf16>
    %815 = stablehlo.add %814, %811 : tensor<1024x256xbf16>
    %816 = stablehlo.multiply %392, %392 : tensor<1024x256xbf16>
    %817 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %818 = stablehlo.broadcast_in_dim %817, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %819 = stablehlo.multiply %816, %818 : tensor<1024x256xbf16>
    %820 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %821 = stablehlo.broadcast_in_dim %820, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %822 = stablehlo.multiply %arg68, %821 : tensor<1024x256xbf16>
    %823 = stablehlo.add %822, %819 : tensor<1024x256xbf16>
    %824 = stablehlo.sqrt %823 : tensor<1024x256xbf16>
    %825 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %826 = stablehlo.broadcast_in_dim %825, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %827 = stablehlo.add %824, %826 : tensor<1024x256xbf16>
    %828 = stablehlo.divide %815, %827 : tensor<1024x256xbf16>
    %829 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %830 = stablehlo.broadcast_in_dim %829, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %831 = stablehlo.multiply %828, %830 : tensor<1024x256xbf16>
    %832 = stablehlo.subtract %arg12, %831 : tensor<1024x256xbf16>
    %833 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %834 = stablehlo.broadcast_in_dim %833, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %835 = stablehlo.multiply %394, %834 : tensor<256xbf16>
    %836 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %837 = stablehlo.broadcast_in_dim %836, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %838 = stablehlo.multiply %arg41, %837 : tensor<256xbf16>
    %839 = stablehlo.add %838, %835 : tensor<256xbf16>
    %840 = stablehlo.multiply %394, %394 : tensor<256xbf16>
    %841 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %842 = stablehlo.broadcast_in_dim %841, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %843 = stablehlo.multiply %840, %842 : tensor<256xbf16>
    %844 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %845 = stablehlo.broadcast_in_dim %844, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %846 = stablehlo.multiply %arg69, %845 : tensor<256xbf16>
    %847 = stablehlo.add %846, %843 : tensor<256xbf16>
    %848 = stablehlo.sqrt %847 : tensor<256xbf16>
    %849 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %850 = stablehlo.broadcast_in_dim %849, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %851 = stablehlo.add %848, %850 : tensor<256xbf16>
    %852 = stablehlo.divide %839, %851 : tensor<256xbf16>
    %853 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %854 = stablehlo.broadcast_in_dim %853, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %855 = stablehlo.multiply %852, %854 : tensor<256xbf16>
    %856 = stablehlo.subtract %arg13, %855 : tensor<256xbf16>
    %857 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %858 = stablehlo.broadcast_in_dim %857, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %859 = stablehlo.multiply %368, %858 : tensor<256xbf16>
    %860 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %861 = stablehlo.broadcast_in_dim %860, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %862 = stablehlo.multiply %arg42, %861 : tensor<256xbf16>
    %863 = stablehlo.add %862, %859 : tensor<256xbf16>
    %864 = stablehlo.multiply %368, %368 : tensor<256xbf16>
    %865 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %866 = stablehlo.broadcast_in_dim %865, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %867 = stablehlo.multiply %864, %866 : tensor<256xbf16>
    %868 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %869 = stablehlo.broadcast_in_dim %868, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %870 = stablehlo.multiply %arg70, %869 : tensor<256xbf16>
    %871 = stablehlo.add %870, %867 : tensor<256xbf16>
    %872 = stablehlo.sqrt %871 : tensor<256xbf16>
    %873 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %874 = stablehlo.broadcast_in_dim %873, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %875 = stablehlo.add %872, %874 : tensor<256xbf16>
    %876 = stablehlo.divide %863, %875 : tensor<256xbf16>
    %877 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %878 = stablehlo.broadcast_in_dim %877, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %879 = stablehlo.multiply %876, %878 : tensor<256xbf16>
    %880 = stablehlo.subtract %arg14, %879 : tensor<256xbf16>
    %881 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %882 = stablehlo.broadcast_in_dim %881, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %883 = stablehlo.multiply %370, %882 : tensor<256xbf16>
    %884 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %885 = stablehlo.broadcast_in_dim %884, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %886 = stablehlo.multiply %arg43, %885 : tensor<256xbf16>
    %887 = stablehlo.add %886, %883 : tensor<256xbf16>
    %888 = stablehlo.multiply %370, %370 : tensor<256xbf16>
    %889 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %890 = stablehlo.broadcast_in_dim %889, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %891 = stablehlo.multiply %888, %890 : tensor<256xbf16>
    %892 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %893 = stablehlo.broadcast_in_dim %892, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %894 = stablehlo.multiply %arg71, %893 : tensor<256xbf16>
    %895 = stablehlo.add %894, %891 : tensor<256xbf16>
    %896 = stablehlo.sqrt %895 : tensor<256xbf16>
    %897 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %898 = stablehlo.broadcast_in_dim %897, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %899 = stablehlo.add %896, %898 : tensor<256xbf16>
    %900 = stablehlo.divide %887, %899 : tensor<256xbf16>
    %901 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %902 = stablehlo.broadcast_in_dim %901, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %903 = stablehlo.multiply %900, %902 : tensor<256xbf16>
    %904 = stablehlo.subtract %arg15, %903 : tensor<256xbf16>
    %905 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %906 = stablehlo.broadcast_in_dim %905, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %907 = stablehlo.multiply %358, %906 : tensor<256x4x64xbf16>
    %908 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %909 = stablehlo.broadcast_in_dim %908, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %910 = stablehlo.multiply %arg44, %909 : tensor<256x4x64xbf16>
    %911 = stablehlo.add %910, %907 : tensor<256x4x64xbf16>
    %912 = stablehlo.multiply %358, %358 : tensor<256x4x64xbf16>
    %913 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %914 = stablehlo.broadcast_in_dim %913, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %915 = stablehlo.multiply %912, %914 : tensor<256x4x64xbf16>
    %916 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %917 = stablehlo.broadcast_in_dim %916, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %918 = stablehlo.multiply %arg72, %917 : tensor<256x4x64xbf16>
    %919 = stablehlo.add %918, %915 : tensor<256x4x64xbf16>
    %920 = stablehlo.sqrt %919 : tensor<256x4x64xbf16>
    %921 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %922 = stablehlo.broadcast_in_dim %921, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %923 = stablehlo.add %920, %922 : tensor<256x4x64xbf16>
    %924 = stablehlo.divide %911, %923 : tensor<256x4x64xbf16>
    %925 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %926 = stablehlo.broadcast_in_dim %925, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %927 = stablehlo.multiply %924, %926 : tensor<256x4x64xbf16>
    %928 = stablehlo.subtract %arg16, %927 : tensor<256x4x64xbf16>
    %929 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %930 = stablehlo.broadcast_in_dim %929, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %931 = stablehlo.multiply %360, %930 : tensor<256x4x64xbf16>
    %932 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %933 = stablehlo.broadcast_in_dim %932, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %934 = stablehlo.multiply %arg45, %933 : tensor<256x4x64xbf16>
    %935 = stablehlo.add %934, %931 : tensor<256x4x64xbf16>
    %936 = stablehlo.multiply %360, %360 : tensor<256x4x64xbf16>
    %937 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %938 = stablehlo.broadcast_in_dim %937, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %939 = stablehlo.multiply %936, %938 : tensor<256x4x64xbf16>
    %940 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %941 = stablehlo.broadcast_in_dim %940, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %942 = stablehlo.multiply %arg73, %941 : tensor<256x4x64xbf16>
    %943 = stablehlo.add %942, %939 : tensor<256x4x64xbf16>
    %944 = stablehlo.sqrt %943 : tensor<256x4x64xbf16>
    %945 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %946 = stablehlo.broadcast_in_dim %945, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %947 = stablehlo.add %944, %946 : tensor<256x4x64xbf16>
    %948 = stablehlo.divide %935, %947 : tensor<256x4x64xbf16>
    %949 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %950 = stablehlo.broadcast_in_dim %949, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %951 = stablehlo.multiply %948, %950 : tensor<256x4x64xbf16>
    %952 = stablehlo.subtract %arg17, %951 : tensor<256x4x64xbf16>
    %953 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %954 = stablehlo.broadcast_in_dim %953, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %955 = stablehlo.multiply %363, %954 : tensor<256x4x64xbf16>
    %956 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %957 = stablehlo.broadcast_in_dim %956, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %958 = stablehlo.multiply %arg46, %957 : tensor<256x4x64xbf16>
    %959 = stablehlo.add %958, %955 : tensor<256x4x64xbf16>
    %960 = stablehlo.multiply %363, %363 : tensor<256x4x64xbf16>
    %961 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %962 = stablehlo.broadcast_in_dim %961, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %963 = stablehlo.multiply %960, %962 : tensor<256x4x64xbf16>
    %964 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %965 = stablehlo.broadcast_in_dim %964, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %966 = stablehlo.multiply %arg74, %965 : tensor<256x4x64xbf16>
    %967 = stablehlo.add %966, %963 : tensor<256x4x64xbf16>
    %968 = stablehlo.sqrt %967 : tensor<256x4x64xbf16>
    %969 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %970 = stablehlo.broadcast_in_dim %969, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %971 = stablehlo.add %968, %970 : tensor<256x4x64xbf16>
    %972 = stablehlo.divide %959, %971 : tensor<256x4x64xbf16>
    %973 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %974 = stablehlo.broadcast_in_dim %973, dims = [] : (tensor<bf16>) -> tensor<256x4x64xbf16>
    %975 = stablehlo.multiply %972, %974 : tensor<256x4x64xbf16>
    %976 = stablehlo.subtract %arg18, %975 : tensor<256x4x64xbf16>
    %977 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %978 = stablehlo.broadcast_in_dim %977, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %979 = stablehlo.multiply %339, %978 : tensor<4x64x256xbf16>
    %980 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %981 = stablehlo.broadcast_in_dim %980, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %982 = stablehlo.multiply %arg47, %981 : tensor<4x64x256xbf16>
    %983 = stablehlo.add %982, %979 : tensor<4x64x256xbf16>
    %984 = stablehlo.multiply %339, %339 : tensor<4x64x256xbf16>
    %985 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %986 = stablehlo.broadcast_in_dim %985, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %987 = stablehlo.multiply %984, %986 : tensor<4x64x256xbf16>
    %988 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %989 = stablehlo.broadcast_in_dim %988, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %990 = stablehlo.multiply %arg75, %989 : tensor<4x64x256xbf16>
    %991 = stablehlo.add %990, %987 : tensor<4x64x256xbf16>
    %992 = stablehlo.sqrt %991 : tensor<4x64x256xbf16>
    %993 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %994 = stablehlo.broadcast_in_dim %993, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %995 = stablehlo.add %992, %994 : tensor<4x64x256xbf16>
    %996 = stablehlo.divide %983, %995 : tensor<4x64x256xbf16>
    %997 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %998 = stablehlo.broadcast_in_dim %997, dims = [] : (tensor<bf16>) -> tensor<4x64x256xbf16>
    %999 = stablehlo.multiply %996, %998 : tensor<4x64x256xbf16>
    %1000 = stablehlo.subtract %arg19, %999 : tensor<4x64x256xbf16>
    %1001 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1002 = stablehlo.broadcast_in_dim %1001, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1003 = stablehlo.multiply %315, %1002 : tensor<256xbf16>
    %1004 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1005 = stablehlo.broadcast_in_dim %1004, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1006 = stablehlo.multiply %arg48, %1005 : tensor<256xbf16>
    %1007 = stablehlo.add %1006, %1003 : tensor<256xbf16>
    %1008 = stablehlo.multiply %315, %315 : tensor<256xbf16>
    %1009 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1010 = stablehlo.broadcast_in_dim %1009, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1011 = stablehlo.multiply %1008, %1010 : tensor<256xbf16>
    %1012 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1013 = stablehlo.broadcast_in_dim %1012, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1014 = stablehlo.multiply %arg76, %1013 : tensor<256xbf16>
    %1015 = stablehlo.add %1014, %1011 : tensor<256xbf16>
    %1016 = stablehlo.sqrt %1015 : tensor<256xbf16>
    %1017 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1018 = stablehlo.broadcast_in_dim %1017, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1019 = stablehlo.add %1016, %1018 : tensor<256xbf16>
    %1020 = stablehlo.divide %1007, %1019 : tensor<256xbf16>
    %1021 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1022 = stablehlo.broadcast_in_dim %1021, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1023 = stablehlo.multiply %1020, %1022 : tensor<256xbf16>
    %1024 = stablehlo.subtract %arg20, %1023 : tensor<256xbf16>
    %1025 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1026 = stablehlo.broadcast_in_dim %1025, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1027 = stablehlo.multiply %317, %1026 : tensor<256xbf16>
    %1028 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1029 = stablehlo.broadcast_in_dim %1028, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1030 = stablehlo.multiply %arg49, %1029 : tensor<256xbf16>
    %1031 = stablehlo.add %1030, %1027 : tensor<256xbf16>
    %1032 = stablehlo.multiply %317, %317 : tensor<256xbf16>
    %1033 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1034 = stablehlo.broadcast_in_dim %1033, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1035 = stablehlo.multiply %1032, %1034 : tensor<256xbf16>
    %1036 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1037 = stablehlo.broadcast_in_dim %1036, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1038 = stablehlo.multiply %arg77, %1037 : tensor<256xbf16>
    %1039 = stablehlo.add %1038, %1035 : tensor<256xbf16>
    %1040 = stablehlo.sqrt %1039 : tensor<256xbf16>
    %1041 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1042 = stablehlo.broadcast_in_dim %1041, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1043 = stablehlo.add %1040, %1042 : tensor<256xbf16>
    %1044 = stablehlo.divide %1031, %1043 : tensor<256xbf16>
    %1045 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1046 = stablehlo.broadcast_in_dim %1045, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1047 = stablehlo.multiply %1044, %1046 : tensor<256xbf16>
    %1048 = stablehlo.subtract %arg21, %1047 : tensor<256xbf16>
    %1049 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1050 = stablehlo.broadcast_in_dim %1049, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %1051 = stablehlo.multiply %309, %1050 : tensor<256x1024xbf16>
    %1052 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1053 = stablehlo.broadcast_in_dim %1052, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %1054 = stablehlo.multiply %arg50, %1053 : tensor<256x1024xbf16>
    %1055 = stablehlo.add %1054, %1051 : tensor<256x1024xbf16>
    %1056 = stablehlo.multiply %309, %309 : tensor<256x1024xbf16>
    %1057 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1058 = stablehlo.broadcast_in_dim %1057, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %1059 = stablehlo.multiply %1056, %1058 : tensor<256x1024xbf16>
    %1060 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1061 = stablehlo.broadcast_in_dim %1060, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %1062 = stablehlo.multiply %arg78, %1061 : tensor<256x1024xbf16>
    %1063 = stablehlo.add %1062, %1059 : tensor<256x1024xbf16>
    %1064 = stablehlo.sqrt %1063 : tensor<256x1024xbf16>
    %1065 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1066 = stablehlo.broadcast_in_dim %1065, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %1067 = stablehlo.add %1064, %1066 : tensor<256x1024xbf16>
    %1068 = stablehlo.divide %1055, %1067 : tensor<256x1024xbf16>
    %1069 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1070 = stablehlo.broadcast_in_dim %1069, dims = [] : (tensor<bf16>) -> tensor<256x1024xbf16>
    %1071 = stablehlo.multiply %1068, %1070 : tensor<256x1024xbf16>
    %1072 = stablehlo.subtract %arg22, %1071 : tensor<256x1024xbf16>
    %1073 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1074 = stablehlo.broadcast_in_dim %1073, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %1075 = stablehlo.multiply %311, %1074 : tensor<1024xbf16>
    %1076 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1077 = stablehlo.broadcast_in_dim %1076, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %1078 = stablehlo.multiply %arg51, %1077 : tensor<1024xbf16>
    %1079 = stablehlo.add %1078, %1075 : tensor<1024xbf16>
    %1080 = stablehlo.multiply %311, %311 : tensor<1024xbf16>
    %1081 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1082 = stablehlo.broadcast_in_dim %1081, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %1083 = stablehlo.multiply %1080, %1082 : tensor<1024xbf16>
    %1084 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1085 = stablehlo.broadcast_in_dim %1084, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %1086 = stablehlo.multiply %arg79, %1085 : tensor<1024xbf16>
    %1087 = stablehlo.add %1086, %1083 : tensor<1024xbf16>
    %1088 = stablehlo.sqrt %1087 : tensor<1024xbf16>
    %1089 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1090 = stablehlo.broadcast_in_dim %1089, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %1091 = stablehlo.add %1088, %1090 : tensor<1024xbf16>
    %1092 = stablehlo.divide %1079, %1091 : tensor<1024xbf16>
    %1093 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1094 = stablehlo.broadcast_in_dim %1093, dims = [] : (tensor<bf16>) -> tensor<1024xbf16>
    %1095 = stablehlo.multiply %1092, %1094 : tensor<1024xbf16>
    %1096 = stablehlo.subtract %arg23, %1095 : tensor<1024xbf16>
    %1097 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1098 = stablehlo.broadcast_in_dim %1097, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %1099 = stablehlo.multiply %269, %1098 : tensor<1024x256xbf16>
    %1100 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1101 = stablehlo.broadcast_in_dim %1100, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %1102 = stablehlo.multiply %arg52, %1101 : tensor<1024x256xbf16>
    %1103 = stablehlo.add %1102, %1099 : tensor<1024x256xbf16>
    %1104 = stablehlo.multiply %269, %269 : tensor<1024x256xbf16>
    %1105 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1106 = stablehlo.broadcast_in_dim %1105, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %1107 = stablehlo.multiply %1104, %1106 : tensor<1024x256xbf16>
    %1108 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1109 = stablehlo.broadcast_in_dim %1108, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %1110 = stablehlo.multiply %arg80, %1109 : tensor<1024x256xbf16>
    %1111 = stablehlo.add %1110, %1107 : tensor<1024x256xbf16>
    %1112 = stablehlo.sqrt %1111 : tensor<1024x256xbf16>
    %1113 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1114 = stablehlo.broadcast_in_dim %1113, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %1115 = stablehlo.add %1112, %1114 : tensor<1024x256xbf16>
    %1116 = stablehlo.divide %1103, %1115 : tensor<1024x256xbf16>
    %1117 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1118 = stablehlo.broadcast_in_dim %1117, dims = [] : (tensor<bf16>) -> tensor<1024x256xbf16>
    %1119 = stablehlo.multiply %1116, %1118 : tensor<1024x256xbf16>
    %1120 = stablehlo.subtract %arg24, %1119 : tensor<1024x256xbf16>
    %1121 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1122 = stablehlo.broadcast_in_dim %1121, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1123 = stablehlo.multiply %271, %1122 : tensor<256xbf16>
    %1124 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1125 = stablehlo.broadcast_in_dim %1124, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1126 = stablehlo.multiply %arg53, %1125 : tensor<256xbf16>
    %1127 = stablehlo.add %1126, %1123 : tensor<256xbf16>
    %1128 = stablehlo.multiply %271, %271 : tensor<256xbf16>
    %1129 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1130 = stablehlo.broadcast_in_dim %1129, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1131 = stablehlo.multiply %1128, %1130 : tensor<256xbf16>
    %1132 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1133 = stablehlo.broadcast_in_dim %1132, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1134 = stablehlo.multiply %arg81, %1133 : tensor<256xbf16>
    %1135 = stablehlo.add %1134, %1131 : tensor<256xbf16>
    %1136 = stablehlo.sqrt %1135 : tensor<256xbf16>
    %1137 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1138 = stablehlo.broadcast_in_dim %1137, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1139 = stablehlo.add %1136, %1138 : tensor<256xbf16>
    %1140 = stablehlo.divide %1127, %1139 : tensor<256xbf16>
    %1141 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1142 = stablehlo.broadcast_in_dim %1141, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1143 = stablehlo.multiply %1140, %1142 : tensor<256xbf16>
    %1144 = stablehlo.subtract %arg25, %1143 : tensor<256xbf16>
    %1145 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1146 = stablehlo.broadcast_in_dim %1145, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1147 = stablehlo.multiply %246, %1146 : tensor<256xbf16>
    %1148 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1149 = stablehlo.broadcast_in_dim %1148, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1150 = stablehlo.multiply %arg54, %1149 : tensor<256xbf16>
    %1151 = stablehlo.add %1150, %1147 : tensor<256xbf16>
    %1152 = stablehlo.multiply %246, %246 : tensor<256xbf16>
    %1153 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1154 = stablehlo.broadcast_in_dim %1153, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1155 = stablehlo.multiply %1152, %1154 : tensor<256xbf16>
    %1156 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1157 = stablehlo.broadcast_in_dim %1156, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1158 = stablehlo.multiply %arg82, %1157 : tensor<256xbf16>
    %1159 = stablehlo.add %1158, %1155 : tensor<256xbf16>
    %1160 = stablehlo.sqrt %1159 : tensor<256xbf16>
    %1161 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1162 = stablehlo.broadcast_in_dim %1161, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1163 = stablehlo.add %1160, %1162 : tensor<256xbf16>
    %1164 = stablehlo.divide %1151, %1163 : tensor<256xbf16>
    %1165 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1166 = stablehlo.broadcast_in_dim %1165, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1167 = stablehlo.multiply %1164, %1166 : tensor<256xbf16>
    %1168 = stablehlo.subtract %arg26, %1167 : tensor<256xbf16>
    %1169 = stablehlo.constant dense<1.000000e-01> : tensor<bf16>
    %1170 = stablehlo.broadcast_in_dim %1169, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1171 = stablehlo.multiply %248, %1170 : tensor<256xbf16>
    %1172 = stablehlo.constant dense<9.000000e-01> : tensor<bf16>
    %1173 = stablehlo.broadcast_in_dim %1172, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1174 = stablehlo.multiply %arg55, %1173 : tensor<256xbf16>
    %1175 = stablehlo.add %1174, %1171 : tensor<256xbf16>
    %1176 = stablehlo.multiply %248, %248 : tensor<256xbf16>
    %1177 = stablehlo.constant dense<5.000000e-02> : tensor<bf16>
    %1178 = stablehlo.broadcast_in_dim %1177, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1179 = stablehlo.multiply %1176, %1178 : tensor<256xbf16>
    %1180 = stablehlo.constant dense<9.500000e-01> : tensor<bf16>
    %1181 = stablehlo.broadcast_in_dim %1180, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1182 = stablehlo.multiply %arg83, %1181 : tensor<256xbf16>
    %1183 = stablehlo.add %1182, %1179 : tensor<256xbf16>
    %1184 = stablehlo.sqrt %1183 : tensor<256xbf16>
    %1185 = stablehlo.constant dense<1.000000e-08> : tensor<bf16>
    %1186 = stablehlo.broadcast_in_dim %1185, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1187 = stablehlo.add %1184, %1186 : tensor<256xbf16>
    %1188 = stablehlo.divide %1175, %1187 : tensor<256xbf16>
    %1189 = stablehlo.constant dense<1.000000e-04> : tensor<bf16>
    %1190 = stablehlo.broadcast_in_dim %1189, dims = [] : (tensor<bf16>) -> tensor<256xbf16>
    %1191 = stablehlo.multiply %1188, %1190 : tensor<256xbf16>
    %1192 = stablehlo.subtract %arg27, %1191 : tensor<256xbf16>
    return %544, %568, %592, %616, %640, %664, %688, %712, %736, %760, %784, %808, %832, %856, %880, %904, %928, %952, %976, %1000, %1024, %1048, %1072, %1096, %1120, %1144, %1168, %1192, %527, %551, %575, %599, %623, %647, %671, %695, %719, %743, %767, %791, %815, %839, %863, %887, %911, %935, %959, %983, %1007, %1031, %1055, %1079, %1103, %1127, %1151, %1175, %535, %559, %583, %607, %631, %655, %679, %703, %727, %751, %775, %799, %823, %847, %871, %895, %919, %943, %967, %991, %1015, %1039, %1063, %1087, %1111, %1135, %1159, %1183, %235 : tensor<1024x256xbf16>, tensor<128x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<4x64x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x1024xbf16>, tensor<1024xbf16>, tensor<1024x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<4x64x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x1024xbf16>, tensor<1024xbf16>, tensor<1024x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<1024x256xbf16>, tensor<128x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<4x64x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x1024xbf16>, tensor<1024xbf16>, tensor<1024x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<4x64x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x1024xbf16>, tensor<1024xbf16>, tensor<1024x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<1024x256xbf16>, tensor<128x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<4x64x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x1024xbf16>, tensor<1024xbf16>, tensor<1024x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<256x4x64xbf16>, tensor<4x64x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256x1024xbf16>, tensor<1024xbf16>, tensor<1024x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<bf16>
  }
}
