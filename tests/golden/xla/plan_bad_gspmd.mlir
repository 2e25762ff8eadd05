// RUN: not autopart plan %s --tactics auto 2>&1 | FileCheck %s

// A tile assignment naming more devices than it has tiles stops the plan
// at the argument that carries it; nothing is written.

// CHECK-NOT: module
// CHECK: plan_bad_gspmd.mlir:[[@LINE+2]]:3: error: mhlo.sharding of argument 0: malformed sharding "{devices=[2,2]<=[8]}" at character 17: iota of 8 devices for a tile assignment of 4 tiles
module @jit_bad {
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[8]}"}) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
// CHECK-NOT: module
