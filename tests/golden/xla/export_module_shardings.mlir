// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline | FileCheck %s --check-prefix=CHECK-V2
// RUN: autopart-opt %s -xla-sdy-stablehlo-export-pipeline='enable-hlo-sharding-v3=true' | FileCheck %s --check-prefix=CHECK-V3

// The entry computation's shardings kept on the module: one string per
// parameter, a tuple for several outputs.

// CHECK-V2-LABEL{LITERAL}: module @entry_shardings_on_module attributes {mhlo.spmd_output_sharding = "{{devices=[4,2]<=[8]}, {replicated}}", mhlo.spmd_parameters_shardings = ["{devices=[1,4,2]<=[8] last_tile_dim_replicate}"]}
// CHECK-V3-LABEL{LITERAL}: module @entry_shardings_on_module attributes {mhlo.spmd_output_sharding = "{{mesh['a'=4,'b'=2], [{'a'}, {'b'}]}, {mesh['a'=4,'b'=2], [{}]}}", mhlo.spmd_parameters_shardings = ["{mesh['a'=4,'b'=2], [{}, {'a'}]}"]}
// CHECK-V2-NOT: sdy.
// CHECK-V3-NOT: sdy.
module @entry_shardings_on_module attributes {
  sdy.output_shardings = #sdy.sharding_per_value<[<mesh<["a"=4, "b"=2]>, [{"a"}, {"b"}]>, <mesh<["a"=4, "b"=2]>, [{}]>]>,
  sdy.parameters_shardings = #sdy.sharding_per_value<[<mesh<["a"=4, "b"=2]>, [{}, {"a"}]>]>
} {
  func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
    %1 = stablehlo.slice %arg0 [0:1, 0:8] : (tensor<8x8xf32>) -> tensor<1x8xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x8xf32>) -> tensor<8xf32>
    return %arg0, %2 : tensor<8x8xf32>, tensor<8xf32>
  }
}
