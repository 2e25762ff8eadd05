// RUN: not autopart-opt %s -xla-sdy-import-shardings -split-input-file 2>&1 | FileCheck %s

// Bad GSPMD strings stop the import at the value that carries them; nothing
// is written.

// CHECK-NOT: sdy.mesh
// CHECK: import_errors.mlir:[[@LINE+1]]:1: error: mhlo.sharding of argument 0: malformed sharding "{devices=[2,2]<=[8]}" at character 17: iota of 8 devices for a tile assignment of 4 tiles
func.func @iota_size_differs_from_tiles(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[8]}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0: malformed sharding "{devices=[2,2]0,1,2}" at character 15: tile assignment [2 dims] has 4 tiles but lists 3 devices
func.func @device_list_shorter_than_tiles(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]0,1,2}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0: malformed sharding "{devices=[2]0,0}" at character 13: tile assignment lists a device twice
func.func @device_listed_twice(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]0,0}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of op: malformed sharding "{tiled}" at character 2: expected replicated, maximal, manual, unknown or devices=
func.func @unknown_sharding_kind(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {mhlo.sharding = "{tiled}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 1: tile assignment spans 8 devices where argument 0 spans 4
func.func @device_counts_disagree(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"},
                                  %arg1: tensor<8xf32> {mhlo.sharding = "{devices=[8]<=[8]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of result 0: tile assignment has 2 data dimension(s) for a rank-1 value
func.func @rank_differs(%arg0: tensor<8xf32>) -> (tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}) {
  return %arg0 : tensor<8xf32>
}

// -----

// 2x3 and 3x2 factorisations of 6 devices share no mesh.
// CHECK: error: mhlo.sharding of argument 1: its tile assignment shares no mesh with the other shardings of the module
func.func @no_common_mesh(%arg0: tensor<6x6xf32> {mhlo.sharding = "{devices=[2,3]<=[6]}"},
                          %arg1: tensor<6x6xf32> {mhlo.sharding = "{devices=[3,2]<=[6]}"}) -> tensor<6x6xf32> {
  return %arg0 : tensor<6x6xf32>
}
