// RUN: not autopart-opt %s -xla-sdy-import-shardings -split-input-file 2>&1 | FileCheck %s

// Bad V3 strings stop the import at the value that carries them, at the
// character where the string goes wrong; nothing is written.

// CHECK-NOT: sdy.mesh
// CHECK: import_v3_errors.mlir:[[@LINE+1]]:1: error: mhlo.sharding of argument 0: malformed sharding "{mesh['x'=2], [{'z'}]}" at character 17: axis 'z' is not in the mesh
func.func @v3_axis_not_in_mesh(%arg0: tensor<8xf32> {mhlo.sharding = "{mesh['x'=2], [{'z'}]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0: malformed sharding "{mesh['x'=4], [{'x':(1)3}]}" at character 17: sub-axis 'x':(1)3 does not split an axis of size 4
func.func @v3_sub_axis_not_a_factor(%arg0: tensor<8xf32> {mhlo.sharding = "{mesh['x'=4], [{'x':(1)3}]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0: malformed sharding "{mesh['x'=2], device_ids=(0,0), [{'x'}]}" at character 26: device_ids is no permutation of the mesh's 2 devices
func.func @v3_device_ids_not_a_permutation(%arg0: tensor<8xf32> {mhlo.sharding = "{mesh['x'=2], device_ids=(0,0), [{'x'}]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0: malformed sharding "{mesh['x'=2,'x'=2], replicated}" at character 13: mesh axis 'x' named twice
func.func @v3_mesh_axis_named_twice(%arg0: tensor<8xf32> {mhlo.sharding = "{mesh['x'=2,'x'=2], replicated}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0: malformed sharding "{mesh['x'=2]}" at character 13: expected the dimension shardings, replicated or manual
func.func @v3_nothing_after_the_mesh(%arg0: tensor<8xf32> {mhlo.sharding = "{mesh['x'=2]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 1: its mesh <["y"=2]> is not the mesh <["x"=2]> of argument 0
func.func @v3_two_meshes(%arg0: tensor<8xf32> {mhlo.sharding = "{mesh['x'=2], [{'x'}]}"},
                         %arg1: tensor<8xf32> {mhlo.sharding = "{mesh['y'=2], [{'y'}]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0: 2 dimension sharding(s) for a rank-1 value
func.func @v3_rank_differs(%arg0: tensor<8xf32> {mhlo.sharding = "{mesh['x'=2], [{'x'}, {}]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: mhlo.sharding of argument 0:
// CHECK-SAME: "x"
func.func @v3_axis_used_twice(%arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=2], [{'x'}, {'x'}]}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
// CHECK-NOT: sdy.mesh
