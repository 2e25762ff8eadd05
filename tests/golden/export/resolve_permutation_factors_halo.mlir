// RUN: autopart-opt %s -sdy-resolve-permutation-factors | FileCheck %s

// Shardy's -sdy-resolve-permutation-factors with halo exchange (its
// default): instead of replicating a shifted dimension, each device fetches
// the neighbouring shards its window overlaps; a reversed dimension keeps its
// shards on a mesh whose device order runs backwards.

// CHECK-DAG: sdy.mesh @mesh_reversed = <["a"=2, "b"=2], device_ids=[2, 3, 0, 1]>
sdy.mesh @mesh = <["a"=2, "b"=2]>

// Device 1 of "a" needs elements [2, 4) of the 8, held by device 0: it gets
// device 0's shard (pairs 0->2, 1->3 along "a"), pads the buffer and slices
// its 2 elements at max(id * (2 - 4) + 6, 0), id = (partition / 2) % 2.
// CHECK-LABEL: func @slice_one_hop_left
// CHECK:      %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%arg0, %[[ZERO]]) in_shardings=[<@mesh, [{"a"}]>, <@mesh, []>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xi32>, %arg2: tensor<i32>) {
// CHECK-NEXT:   %[[CP:.*]] = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
// CHECK-SAME{LITERAL}: source_target_pairs = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}>
// CHECK-NEXT:   %[[CAT:.*]] = stablehlo.concatenate %[[CP]], %arg1, dim = 0
// CHECK-NEXT:   %[[BUF:.*]] = stablehlo.pad %[[CAT]], %arg2, low = [2], high = [2], interior = [0]
// CHECK-NEXT:   %[[PID:.*]] = stablehlo.partition_id
// CHECK-NEXT:   %[[ID:.*]] = stablehlo.convert %[[PID]]
// CHECK-NEXT:   %[[TWO:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:   %[[DIV:.*]] = stablehlo.divide %[[ID]], %[[TWO]]
// CHECK-NEXT:   %[[TWO2:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:   %[[IDX:.*]] = stablehlo.remainder %[[DIV]], %[[TWO2]]
// CHECK-NEXT:   %[[STEP:.*]] = stablehlo.constant dense<-2> : tensor<i64>
// CHECK-NEXT:   %[[BASE:.*]] = stablehlo.constant dense<6> : tensor<i64>
// CHECK-NEXT:   %[[MUL:.*]] = stablehlo.multiply %[[IDX]], %[[STEP]]
// CHECK-NEXT:   %[[ADD:.*]] = stablehlo.add %[[MUL]], %[[BASE]]
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:   %[[OFF:.*]] = stablehlo.maximum %[[ADD]], %[[Z]]
// CHECK-NEXT:   %[[WIN:.*]] = stablehlo.dynamic_slice %[[BUF]], %[[OFF]], sizes = [2]
// CHECK-NEXT:   sdy.return %[[WIN]] : tensor<2xi32>
// CHECK-NEXT: } : (tensor<8xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT: %[[RES:.*]] = stablehlo.slice %[[MC]] [0:3]
// CHECK-NEXT: return %[[RES]]
func.func @slice_one_hop_left(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<3xi32> {
  %0 = stablehlo.slice %arg0 [0:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// Reversed along "a": computed on @mesh_reversed, whose device order puts
// each reversed shard where it already is, then resharded back.
// CHECK-LABEL: func @reverse_on_reversed_mesh
// CHECK-NEXT: %[[REV:.*]] = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_reversed, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[BACK:.*]] = sdy.reshard %[[REV]] <@mesh, [{"a"}, {}]>
// CHECK-NEXT: return %[[BACK]]
func.func @reverse_on_reversed_mesh(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// A collective permute leaves zeros where no neighbour sends, which only
// reads as padding when padding is zero: a pad with another value is
// replicated instead.
// CHECK-LABEL: func @pad_nonzero_value_replicates
// CHECK:      %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}]>
// CHECK-NEXT: %[[P:.*]] = stablehlo.pad %[[IN]]
// CHECK-NEXT: sdy.reshard %[[P]] <@mesh, [{"a"}]>
func.func @pad_nonzero_value_replicates(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<7xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [3], high = [0], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xf32>, tensor<f32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// A split of 6 elements over 4 devices into 2x3: the input is padded to
// whole shards and each device fetches its output tile's elements from its
// left neighbour (tiles start at 0, 2, 3, 5: window starts 4, 4, 3, 3 in the
// buffer), then reshapes them locally.
// CHECK-LABEL: func @reshape_split_exchanges
// CHECK:      %[[PAD:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0], high = [2], interior = [0]
// CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%[[PAD]], %{{.*}}) in_shardings=[<@mesh, [{"a", "b"}]>, <@mesh, []>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a", "b"}
// CHECK:        stablehlo.constant dense<[4, 4, 3, 3]> : tensor<4xi64>
// CHECK:        %[[LOCAL:.*]] = stablehlo.reshape {{.*}} : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:   sdy.return %[[LOCAL]]
// CHECK:      stablehlo.slice %[[MC]] [0:2, 0:3]
func.func @reshape_split_exchanges(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> tensor<2x3xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : (tensor<6xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A merge (2x3 -> 6) cannot be exchanged this way: replicated.
// CHECK-LABEL: func @reshape_merge_replicates
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}, {}]>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %[[IN]]
// CHECK-NEXT: sdy.reshard %[[R]] <@mesh, [{"a", "b"}]>
func.func @reshape_merge_replicates(%arg0: tensor<2x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<6xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}]>]>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
