// RUN: autopart-opt %s -sdy-pad-for-divisibility | FileCheck %s

// -sdy-pad-for-divisibility "pads tensors with non-divisible shardings to
// divisible shapes" (sdy_export_passes.md): every tensor whose sharding does
// not split a dimension evenly grows to the next multiple of the shard count,
// so the partitioner after it only sees even splits. Collectives pad their
// inputs with zeros and trim gathered dimensions; ops that sum over a grown
// dimension see the reduction's identity in the padding.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Every dimension already divides: nothing to pad, the function is unchanged.
// CHECK-LABEL: func.func @divisible_untouched
// CHECK-NEXT:    %[[ABS:.*]] = stablehlo.abs %arg0 {{.*}} : tensor<8x4xf32>
// CHECK-NEXT:    return %[[ABS]] : tensor<8x4xf32>
func.func @divisible_untouched(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// 6 rows cannot split four ways: the all_slice input grows to 8 rows with
// zeros, and the unchanged return reads a slice back to 6 rows.
// CHECK-LABEL: func.func @all_slice_pads_input_with_zeros
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[PAD:.*]] = stablehlo.pad %arg0, %[[ZERO]], low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[AS:.*]] = sdy.all_slice [{"x"}, {}] %[[PAD]] out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x4xf32>
// CHECK-NEXT:    %[[BACK:.*]] = stablehlo.slice %[[AS]] [0:6, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:    return %[[BACK]] : tensor<6x4xf32>
func.func @all_slice_pads_input_with_zeros(%arg0: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// The slice widens to the divisible 8 rows; the all_gather keeps them and a
// slice after it trims the gathered dimension back to 5.
// CHECK-LABEL: func.func @all_gather_trims_gathered_dim
// CHECK-NEXT:    %[[WIDE:.*]] = stablehlo.slice %arg0 [0:8, 0:4] {{.*}} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[AG:.*]] = sdy.all_gather [{"x"}, {}] %[[WIDE]] out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
// CHECK-NEXT:    %[[TRIM:.*]] = stablehlo.slice %[[AG]] [0:5, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x4xf32>) -> tensor<5x4xf32>
// CHECK-NEXT:    return %[[TRIM]]
func.func @all_gather_trims_gathered_dim(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<5x4xf32> {
  %0 = stablehlo.slice %arg0 [0:5, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<5x4xf32>
  %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<5x4xf32>
  return %1 : tensor<5x4xf32>
}

// A strided slice widens by whole strides: 6 -> 8 elements of stride 2 end
// at index 15.
// CHECK-LABEL: func.func @strided_slice_widens_window
// CHECK-NEXT:    stablehlo.slice %arg0 [0:15:2, 0:4] {{.*}} : (tensor<16x4xf32>) -> tensor<8x4xf32>
func.func @strided_slice_widens_window(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<6x4xf32> {
  %0 = stablehlo.slice %arg0 [0:11:2, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x4xf32>) -> tensor<6x4xf32>
  %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}

// With interior padding the grown input alone reaches past the divisible
// size, so the high edge shrinks (to -3) and the input's own padded rows
// become pad elements: they are first set to the pad value (1.0).
// CHECK-LABEL: func.func @pad_with_interior_masks_grown_input
// CHECK:         %[[ONE:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[AS:.*]] = sdy.all_slice [{"x"}, {}] %{{.*}} : tensor<8x4xf32>
// CHECK-NEXT:    %[[IOTA:.*]] = stablehlo.iota dim = 0 {{.*}} : tensor<8x4xi32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.constant dense<6> : tensor<i32>
// CHECK-NEXT:    %[[NS:.*]] = stablehlo.broadcast_in_dim %[[N]], dims = []
// CHECK-NEXT:    %[[IN:.*]] = stablehlo.compare  LT, %[[IOTA]], %[[NS]]
// CHECK-NEXT:    %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[ONE]], dims = []
// CHECK-NEXT:    %[[SEL:.*]] = stablehlo.select %[[IN]], %[[AS]], %[[FILL]]
// CHECK-NEXT:    %[[PAD:.*]] = stablehlo.pad %[[SEL]], %[[ONE]], low = [0, 0], high = [-3, 0], interior = [1, 0] {{.*}} -> tensor<12x4xf32>
// CHECK-NEXT:    %[[AG:.*]] = sdy.all_gather [{"x"}, {}] %[[PAD]] {{.*}} : tensor<12x4xf32>
// CHECK-NEXT:    stablehlo.slice %[[AG]] [0:11, 0:4]
func.func @pad_with_interior_masks_grown_input(%arg0: tensor<6x4xf32>) -> tensor<11x4xf32> {
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
  %1 = stablehlo.pad %0, %cst, low = [0, 0], high = [0, 0], interior = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<6x4xf32>, tensor<f32>) -> tensor<11x4xf32>
  %2 = sdy.all_gather [{"x"}, {}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<11x4xf32>
  return %2 : tensor<11x4xf32>
}

// The contracting dimension is summed over. The lhs went through an
// exponential, so its padding is no longer known to be zero: it is zeroed
// again. The rhs padding comes straight from an all_slice's zero pad.
// CHECK-LABEL: func.func @dot_general_masks_unknown_contracting_padding
// CHECK:         %[[EXP:.*]] = stablehlo.exponential %{{.*}} : tensor<4x8xf32>
// CHECK:         %[[RHS:.*]] = sdy.all_slice [{"x"}, {}] %{{.*}} : tensor<8x8xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[IOTA:.*]] = stablehlo.iota dim = 1
// CHECK-NEXT:    stablehlo.constant dense<6> : tensor<i32>
// CHECK-NEXT:    stablehlo.broadcast_in_dim
// CHECK-NEXT:    %[[IN:.*]] = stablehlo.compare  LT, %[[IOTA]]
// CHECK-NEXT:    %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[ZERO]]
// CHECK-NEXT:    %[[LHS:.*]] = stablehlo.select %[[IN]], %[[EXP]], %[[FILL]]
// CHECK-NEXT:    stablehlo.dot_general %[[LHS]], %[[RHS]], contracting_dims = [1] x [0] {{.*}} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
func.func @dot_general_masks_unknown_contracting_padding(%arg0: tensor<4x6xf32>, %arg1: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %0 = sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x6xf32>
  %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<4x6xf32>
  %2 = sdy.all_slice [{"x"}, {}] %arg1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x8xf32>
  %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// The transpose has no sharding of its own, yet its operand grew: the
// sharding rule ties result dimension 1 to operand dimension 0, so the
// result grows with it, and the return reads a slice back.
// CHECK-LABEL: func.func @transpose_follows_grown_operand
// CHECK:         %[[T:.*]] = stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[BACK:.*]] = stablehlo.slice %[[T]] [0:4, 0:6] : (tensor<4x8xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    return %[[BACK]]
func.func @transpose_follows_grown_operand(%arg0: tensor<6x4xf32>) -> tensor<4x6xf32> {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// The windowed input dimension grows from 6 to 8, so the output's grows
// from 4 to 6 by the window arithmetic; it is trimmed back to 4. The input
// padding comes from an all_slice's zero pad, so no mask is needed.
// CHECK-LABEL: func.func @convolution_trims_window_dim
// CHECK-NOT:     stablehlo.select
// CHECK:         %[[CONV:.*]] = stablehlo.convolution(%{{.*}}, %arg1) {{.*}} : (tensor<1x8x2xf32>, tensor<3x2x2xf32>) -> tensor<1x6x2xf32>
// CHECK-NEXT:    %[[TRIM:.*]] = stablehlo.slice %[[CONV]] [0:1, 0:4, 0:2] {{.*}} -> tensor<1x4x2xf32>
// CHECK-NEXT:    return %[[TRIM]]
func.func @convolution_trims_window_dim(%arg0: tensor<1x6x2xf32>, %arg1: tensor<3x2x2xf32>) -> tensor<1x4x2xf32> {
  %0 = sdy.all_slice [{}, {"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"x"}, {}]> : tensor<1x6x2xf32>
  %1 = stablehlo.convolution(%0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<1x6x2xf32>, tensor<3x2x2xf32>) -> tensor<1x4x2xf32>
  return %1 : tensor<1x4x2xf32>
}

// The all_to_all moves the split to the 6-wide dimension: its input pads
// that dimension to 8; the source dimension (8 rows) needs no trim.
// CHECK-LABEL: func.func @all_to_all_trims_source_dim
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00>
// CHECK-NEXT:    %[[PAD:.*]] = stablehlo.pad %arg0, %[[ZERO]], low = [0, 0], high = [0, 2], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:    %[[A2A:.*]] = sdy.all_to_all [{"x"}: 0->1] %[[PAD]] out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
// CHECK-NEXT:    %[[AG:.*]] = sdy.all_gather [{}, {"x"}] %[[A2A]]
// CHECK-NEXT:    stablehlo.slice %[[AG]] [0:8, 0:6]
func.func @all_to_all_trims_source_dim(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x6xf32>
  %1 = sdy.all_gather [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}

// reduce_scatter splits its result like all_slice: the input is padded.
// CHECK-LABEL: func.func @reduce_scatter_pads_input
// CHECK:         %[[PAD:.*]] = stablehlo.pad %arg0, %{{.*}} high = [2, 0]
// CHECK-NEXT:    sdy.reduce_scatter [{"x"}, {}] %[[PAD]] out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x4xf32>
func.func @reduce_scatter_pads_input(%arg0: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = sdy.reduce_scatter [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
  %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}

// A max over a padded dimension: the zero padding is not max's identity,
// so the padded columns are set to the lowest i32 first.
// CHECK-LABEL: func.func @reduce_max_masks_with_lowest
// CHECK:         %[[INIT:.*]] = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:    %[[LOW:.*]] = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:    stablehlo.iota dim = 1
// CHECK:         %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[LOW]]
// CHECK-NEXT:    %[[SEL:.*]] = stablehlo.select %{{.*}}, %{{.*}}, %[[FILL]]
// CHECK-NEXT:    stablehlo.reduce(%[[SEL]] init: %[[INIT]]) applies stablehlo.maximum across dimensions = [1] {{.*}} : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
func.func @reduce_max_masks_with_lowest(%arg0: tensor<4x6xi32>) -> tensor<4xi32> {
  %0 = sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x6xi32>
  %c = stablehlo.constant dense<-2147483648> : tensor<i32>
  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4x6xi32>, tensor<i32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// A sum over a padded dimension whose padding is known zeros (an
// all_slice's pad) needs no mask.
// CHECK-LABEL: func.func @reduce_add_reuses_zero_padding
// CHECK:         %[[AS:.*]] = sdy.all_slice [{}, {"x"}]
// CHECK-NOT:     stablehlo.select
// CHECK:         stablehlo.reduce(%[[AS]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] {{.*}} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
func.func @reduce_add_reuses_zero_padding(%arg0: tensor<4x6xf32>) -> tensor<4xf32> {
  %0 = sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x6xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A sharded constant keeps its value and is padded after it: a wider
// constant would need elements the program never had.
// CHECK-LABEL: func.func @constant_grows_by_pad
// CHECK-NEXT:    %[[C:.*]] = stablehlo.constant {{.*}} : tensor<6xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[PAD:.*]] = stablehlo.pad %[[C]], %[[ZERO]], low = [0], high = [2], interior = [0] {{.*}} -> tensor<8xf32>
// CHECK-NEXT:    sdy.all_gather [{"x"}] %[[PAD]]
func.func @constant_grows_by_pad(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %cst = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %0 = sdy.all_gather [{"x"}] %cst out_sharding=<@mesh, [{}]> : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// A non-entry function's signature may grow (only the program calls it):
// the callee takes and returns 8 rows and the call passes the padded value.
// CHECK-LABEL: func.func @caller_pads_for_grown_callee
// CHECK:         %[[AS:.*]] = sdy.all_slice [{"x"}, {}] %{{.*}} : tensor<8x4xf32>
// CHECK-NEXT:    %[[CALL:.*]] = call @grown_callee(%[[AS]]) {{.*}} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    sdy.all_gather [{"x"}, {}] %[[CALL]]
func.func @caller_pads_for_grown_callee(%arg0: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
  %1 = call @grown_callee(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<6x4xf32>) -> tensor<6x4xf32>
  %2 = sdy.all_gather [{"x"}, {}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<6x4xf32>
  return %2 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func private @grown_callee
// CHECK-SAME:    (%arg0: tensor<8x4xf32> {{.*}}) -> (tensor<8x4xf32> {{.*}})
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg0 {{.*}} : tensor<8x4xf32>
// CHECK-NEXT:    return %[[NEG]] : tensor<8x4xf32>
func.func private @grown_callee(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// A loop carries its values at their divisible shapes: the loop's results,
// its condition's and body's arguments grow together, and what the body
// yields is grown to match.
// CHECK-LABEL: func.func @loop_carries_grown_values
// CHECK:         %[[AS:.*]] = sdy.all_slice [{"x"}, {}] %{{.*}} : tensor<8x4xf32>
// CHECK:         stablehlo.while(%[[IT:.*]] = %[[AS]], %{{.*}} = %{{.*}}) : tensor<8x4xf32>, tensor<i32>
// CHECK:         } do {
// CHECK:           %[[AG:.*]] = sdy.all_gather [{"x"}, {}] %[[IT]] out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
// CHECK-NEXT:      %[[TRIM:.*]] = stablehlo.slice %[[AG]] [0:6, 0:4]
// CHECK-NEXT:      %[[NEG:.*]] = stablehlo.negate %[[TRIM]] : tensor<6x4xf32>
// CHECK-NEXT:      %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[PAD:.*]] = stablehlo.pad %[[NEG]], %[[ZERO]], low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<8x4xf32>
// CHECK-NEXT:      %[[BACK:.*]] = sdy.all_slice [{"x"}, {}] %[[PAD]] {{.*}} : tensor<8x4xf32>
// CHECK-NEXT:      stablehlo.return %[[BACK]], %{{.*}} : tensor<8x4xf32>, tensor<i32>
func.func @loop_carries_grown_values(%arg0: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %1:2 = stablehlo.while(%it = %0, %i = %c0) : tensor<6x4xf32>, tensor<i32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, []>]>}
    cond {
      %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %next = stablehlo.add %i, %c1 : tensor<i32>
      %g = sdy.all_gather [{"x"}, {}] %it out_sharding=<@mesh, [{}, {}]> : tensor<6x4xf32>
      %n = stablehlo.negate %g : tensor<6x4xf32>
      %s = sdy.all_slice [{"x"}, {}] %n out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
      stablehlo.return %s, %next : tensor<6x4xf32>, tensor<i32>
    }
  %2 = sdy.all_gather [{"x"}, {}] %1#0 out_sharding=<@mesh, [{}, {}]> : tensor<6x4xf32>
  return %2 : tensor<6x4xf32>
}

// A grown dimension an op cannot carry comes back to its original size
// first: the concatenated dimension (the padding would land between the
// pieces) and a reshape's merged dimensions (as in the sharding rule).
// CHECK-LABEL: func.func @uncarried_dims_trimmed_before_op
// CHECK:         %[[AS:.*]] = sdy.all_slice [{"x"}, {}] %{{.*}} : tensor<8x4xf32>
// CHECK-NEXT:    %[[BACK:.*]] = stablehlo.slice %[[AS]] [0:6, 0:4] {{.*}} : (tensor<8x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:    %[[CAT:.*]] = stablehlo.concatenate %[[BACK]], %arg1, dim = 0 : (tensor<6x4xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK:         %[[BACK2:.*]] = stablehlo.slice %[[AS]] [0:6, 0:4]
// CHECK-NEXT:    stablehlo.reshape %[[BACK2]] : (tensor<6x4xf32>) -> tensor<24xf32>
func.func @uncarried_dims_trimmed_before_op(%arg0: tensor<6x4xf32>, %arg1: tensor<2x4xf32>) -> (tensor<8x4xf32>, tensor<24xf32>) {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x4xf32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 0 : (tensor<6x4xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.reshape %0 : (tensor<6x4xf32>) -> tensor<24xf32>
  return %1, %2 : tensor<8x4xf32>, tensor<24xf32>
}
