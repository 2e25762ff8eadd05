// RUN: not autopart plan %s --tactics auto 2>&1 | FileCheck %s

// A string alone whose tiles span more devices than the program's mesh
// has: it fits no mesh of the program, a located error, nothing written.

// CHECK-NOT: module
// CHECK: plan_mesh_strings_no_fit.mlir:[[@LINE+3]]:3: error: mhlo.sharding of argument 0: "{devices=[8,1]<=[8]}" cannot be placed on @mesh: tile assignment spans 8 devices, the mesh has 4
module @string_fits_no_mesh {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) -> tensor<8x8xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
// CHECK-NOT: module
