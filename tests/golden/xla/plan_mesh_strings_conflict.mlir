// RUN: not autopart plan %s --tactics auto 2>&1 | FileCheck %s

// A string that says another layout than the sdy.sharding beside it: one
// of the two user shardings would be lost, so the plan stops there and
// writes nothing.

// CHECK-NOT: module
// CHECK: plan_mesh_strings_conflict.mlir:[[@LINE+3]]:3: error: mhlo.sharding of argument 0: "{devices=[1,2,2]<=[4] last_tile_dim_replicate}" disagrees with its sdy.sharding ("{devices=[2,1,2]<=[4] last_tile_dim_replicate}")
module @string_disagrees {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
// CHECK-NOT: module
