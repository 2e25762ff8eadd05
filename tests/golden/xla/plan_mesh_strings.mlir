// RUN: autopart plan %s --tactics auto 2>/dev/null | FileCheck %s

// A Shardy program (it has an sdy.mesh) whose argument carries only a GSPMD
// string: the string is read onto the program's mesh, as XLA's import reads
// it onto the common mesh, and pins the plan; it is written back in step
// with the plan. The result's string agrees with its sdy.sharding and stays.

// CHECK-LABEL: module @string_beside_mesh {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-NEXT: -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
module @string_beside_mesh {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"})
      -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
