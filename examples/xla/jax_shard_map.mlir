module @jit_layer attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<32x64xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<64x32xf32>) -> (tensor<16x32xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{manual}"} : (tensor<16x64xf32>) -> tensor<4x64xf32>
    %4 = call @shmap_body(%3) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{manual}"} : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<4x64xf32>) -> tensor<16x64xf32>
    %7 = stablehlo.dot_general %6, %arg2, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %8 = stablehlo.custom_call @Sharding(%7) {mhlo.sharding = "{devices=[4,2]<=[8]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %8 : tensor<16x32xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4x64xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<4x64xf32>
    return %1 : tensor<4x64xf32>
  }
}
