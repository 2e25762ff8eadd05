// RUN: autopart-opt %s -canonicalize | FileCheck %s

// One function per reshard pattern of -canonicalize: merging a reshard of a
// reshard, and reusing an earlier reshard that lays the same data out the
// same way (through reshapes and transposes), or not.

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @mesh_4 = <["a"=4]>

// A reshard read by a second reshard and by nothing else disappears.
// CHECK-LABEL: func @reshard_of_reshard_keeps_outer_target
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"b"}, {}]>
// CHECK-NEXT: %1 = stablehlo.negate %0
// CHECK-NEXT: return %1
func.func @reshard_of_reshard_keeps_outer_target(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// An identical reshard of the same value later in the block is reused.
// CHECK-LABEL: func @identical_reshards_are_shared
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]>
// CHECK-NEXT: %1 = stablehlo.add %0, %0
func.func @identical_reshards_are_shared(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  %1 = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// Sharding the leading dimension of a reshaped value puts the same elements
// on the same devices as sharding it before the reshape: the earlier reshard
// is reused and the reshape redone on it.
// CHECK-LABEL: func @reshard_after_reshape_reuses_earlier_reshard
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %0, %1
func.func @reshard_after_reshape_reuses_earlier_reshard(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>) {
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<4x8xf32>
  %1 = stablehlo.reshape %arg0 : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = sdy.reshard %1 <@mesh, [{"a"}]> : tensor<32xf32>
  return %0, %2 : tensor<4x8xf32>, tensor<32xf32>
}

// Splitting "a"=4 over two dimensions as its major and minor halves lays the
// data out as "a" does on the flattened tensor (device 2*row + col/4 either
// way).
// CHECK-LABEL: func @sub_axes_over_two_dims_match_the_whole_axis
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh_4, [{"a":(1)2}, {"a":(2)2}]>
// CHECK-NEXT: %1 = stablehlo.reshape %0 : (tensor<2x8xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %0, %1
func.func @sub_axes_over_two_dims_match_the_whole_axis(%arg0: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<16xf32>) {
  %0 = sdy.reshard %arg0 <@mesh_4, [{"a":(1)2}, {"a":(2)2}]> : tensor<2x8xf32>
  %1 = stablehlo.reshape %arg0 : (tensor<2x8xf32>) -> tensor<16xf32>
  %2 = sdy.reshard %1 <@mesh_4, [{"a"}]> : tensor<16xf32>
  return %0, %2 : tensor<2x8xf32>, tensor<16xf32>
}

// On 4x4 the same split is not "a" on the flattened tensor (device row vs
// 2*(row/2) + col/2): nothing is reused.
// CHECK-LABEL: func @sub_axes_with_another_layout_are_not_reused
// CHECK: %[[R:.*]] = sdy.reshard %{{.*}} <@mesh_4, [{"a"}]> : tensor<16xf32>
// CHECK: return %0, %[[R]]
func.func @sub_axes_with_another_layout_are_not_reused(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<16xf32>) {
  %0 = sdy.reshard %arg0 <@mesh_4, [{"a":(1)2}, {"a":(2)2}]> : tensor<4x4xf32>
  %1 = stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<16xf32>
  %2 = sdy.reshard %1 <@mesh_4, [{"a"}]> : tensor<16xf32>
  return %0, %2 : tensor<4x4xf32>, tensor<16xf32>
}

// A reshard of the root itself reuses an earlier reshard of its reshape,
// reshaped back.
// CHECK-LABEL: func @reshard_of_root_reuses_reshard_of_its_reshape
// CHECK-NEXT: %0 = stablehlo.reshape %arg0
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"a"}]>
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %1, %2
func.func @reshard_of_root_reuses_reshard_of_its_reshape(%arg0: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<4x8xf32>) -> tensor<32xf32>
  %1 = sdy.reshard %0 <@mesh, [{"a"}]> : tensor<32xf32>
  %2 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<4x8xf32>
  return %1, %2 : tensor<32xf32>, tensor<4x8xf32>
}

// A transpose between the root and the earlier reshard blocks the reuse,
// even though the layouts agree.
// CHECK-LABEL: func @transpose_before_earlier_reshard_blocks_reuse
// CHECK-NEXT: %0 = stablehlo.transpose %arg0
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {"a"}]>
// CHECK-NEXT: %2 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]>
func.func @transpose_before_earlier_reshard_blocks_reuse(%arg0: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"a"}]> : tensor<8x4xf32>
  %2 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<4x8xf32>
  return %1, %2 : tensor<8x4xf32>, tensor<4x8xf32>
}
