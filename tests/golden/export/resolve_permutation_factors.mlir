// RUN: autopart-opt %s -sdy-resolve-permutation-factors=enable-halo-exchange=false | FileCheck %s

// Shardy's -sdy-resolve-permutation-factors without halo exchange: a
// dimension on a permutation factor of the op's sharding rule (padded,
// sliced, reversed, windowed) is replicated around the op, since a shard of
// the result needs input elements other devices hold; dimensions that need
// no data from other devices are left alone.

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @mesh_a4 = <["a"=4]>

// The shifted dimension 0 is replicated for the op only; dimension 1 keeps "b".
// CHECK-LABEL: func @reverse_replicates_reversed_dim
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"b"}]> : tensor<4x8xf32>
// CHECK-NEXT: %[[REV:.*]] = stablehlo.reverse %[[IN]], dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
// CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[REV]] <@mesh, [{"a"}, {"b"}]> : tensor<4x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @reverse_replicates_reversed_dim(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Slicing [0:3] of 4 elements on 2 devices keeps 2 per device: device 0 keeps
// its shard, device 1 a prefix of its own. Nothing moves.
// CHECK-LABEL: func @slice_prefix_is_local
// CHECK-NEXT: stablehlo.slice %arg0 [0:3]
// CHECK-NOT: sdy.reshard
func.func @slice_prefix_is_local(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<3xf32> {
  %0 = stablehlo.slice %arg0 [0:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// Slicing [1:3] shifts every element: replicated around the slice.
// CHECK-LABEL: func @slice_shift_replicates
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}]>
// CHECK-NEXT: %[[S:.*]] = stablehlo.slice %[[IN]] [1:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
// CHECK-NEXT: sdy.reshard %[[S]] <@mesh, [{"a"}]>
func.func @slice_shift_replicates(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2xf32> {
  %0 = stablehlo.slice %arg0 [1:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Padding 4 zeros on each side of 8 elements on 2 devices: each output shard
// of 8 is 4 zeros and the device's own 4 elements. Nothing moves.
// CHECK-LABEL: func @pad_aligned_is_local
// CHECK-NOT: sdy.reshard
// CHECK: stablehlo.pad %arg0
func.func @pad_aligned_is_local(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<16xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [4], high = [4], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// Interior padding spreads the elements over the shards: replicated.
// CHECK-LABEL: func @pad_interior_replicates
// CHECK: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}]>
// CHECK-NEXT: %[[P:.*]] = stablehlo.pad %[[IN]]
// CHECK-NEXT: sdy.reshard %[[P]] <@mesh, [{"a"}]>
func.func @pad_interior_replicates(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<7xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [0], high = [0], interior = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xf32>, tensor<f32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// 6x2 -> 3x2x2 on 4 devices: each device's 2x2 input tile is its output row
// (the padded tiles line up), so nothing moves although 6 and 3 do not divide.
// CHECK-LABEL: func @reshape_padded_tiles_line_up
// CHECK-NEXT: stablehlo.reshape %arg0
// CHECK-NEXT: return
func.func @reshape_padded_tiles_line_up(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh_a4, [{"a"}, {}]>}) -> tensor<3x2x2xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a4, [{"a"}, {}, {}]>]>} : (tensor<6x2xf32>) -> tensor<3x2x2xf32>
  return %0 : tensor<3x2x2xf32>
}

// 6x2 -> 4x3: tiles of 4 elements become rows of 3; the group's axes are
// replicated around the reshape.
// CHECK-LABEL: func @reshape_misaligned_group_replicates
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh_a4, [{}, {}]>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %[[IN]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a4, [{}, {}]>]>}
// CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[R]] <@mesh_a4, [{"a"}, {}]>
// CHECK-NEXT: return %[[OUT]]
func.func @reshape_misaligned_group_replicates(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh_a4, [{"a"}, {}]>}) -> tensor<4x3xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a4, [{"a"}, {}]>]>} : (tensor<6x2xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
