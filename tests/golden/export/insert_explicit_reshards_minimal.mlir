// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=false' | FileCheck %s

// The minimal explicit reshards, which Shardy's export pipeline runs unless
// explicit collectives are asked for (so XLA's default pipeline ends with
// them). Conflicts stay implicit for the partitioner; only the cases below
// get explicit ops (Shardy's insert_explicit_reshards: "enable-full-version"
// off keeps reshards to calls, differing concatenates and the dot-result
// rewrite, while unreduced axes are always made explicit, since they mark
// where the user placed a reduction; sdy_dialect.md on unreduced axes).

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4]>

// An elementwise conflict and a returned value that differs from the result
// sharding stay as they are: the partitioner resolves them.
// CHECK-LABEL: func.func @elementwise_conflict_stays
// CHECK-NEXT:    %0 = stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT:    return %0
func.func @elementwise_conflict_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  %0 = stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A concatenate whose operand differs from its result gets the full
// treatment (Shardy avoids leaving such concatenates to the partitioner).
// CHECK-LABEL: func.func @concatenate_operand_differs
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]>
// CHECK-NEXT:    %1 = stablehlo.concatenate %0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT:    return %1
func.func @concatenate_operand_differs(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The result's row dimension is sharded over the contraction's axis "c":
// the dot computes rows over "b" as the lhs has them and the (equal-sized)
// result is resharded instead of an operand. No all-reduce: the result keeps
// no unreduced axes, so the partial sums stay implicit.
// CHECK-LABEL: func.func @dot_conflict_moves_to_result
// CHECK-NEXT:    %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>}
// CHECK-NEXT:    %1 = sdy.reshard %0 <@mesh, [{"c"}, {}]>
// CHECK-NEXT:    return %1
func.func @dot_conflict_moves_to_result(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"c"}]>}, %arg1: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>}) -> tensor<16x16xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {}]>]>} : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// Same conflict, but the result is bigger than the lhs it would follow:
// resharding the result would move more data, so nothing changes.
// CHECK-LABEL: func.func @dot_result_bigger_stays
// CHECK-NEXT:    %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {}]>]>}
// CHECK-NEXT:    return %0
func.func @dot_result_bigger_stays(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"c"}]>}, %arg1: tensor<4x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>}) -> tensor<16x64xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {}]>]>} : (tensor<16x4xf32>, tensor<4x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// Partial sums over "b" that the reader does not keep are reduced before it;
// "c" stays unreduced through the negate and is reduced at the return,
// whose result keeps no unreduced axes.
// CHECK-LABEL: func.func @unreduced_operand_reduced_for_reader
// CHECK-NEXT:    %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{"a"}, {}], unreduced={"c"}>
// CHECK-NEXT:    %1 = stablehlo.negate %0
// CHECK-NEXT:    %2 = sdy.all_reduce {"c"} %1 out_sharding=<@mesh, [{"a"}, {}]>
// CHECK-NEXT:    return %2
func.func @unreduced_operand_reduced_for_reader(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced={"b", "c"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}], unreduced={"c"}>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A reduction whose result keeps "c" unreduced: the other axis sharding the
// reduced dimension ("a") is all-reduced right after it.
// CHECK-LABEL: func.func @reduce_keeps_some_axes_unreduced
// CHECK:         %0 = stablehlo.reduce
// CHECK-NEXT:    %1 = sdy.all_reduce {"a"} %0 out_sharding=<@mesh, [{}], unreduced={"c"}>
// CHECK-NEXT:    return %1
func.func @reduce_keeps_some_axes_unreduced(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a", "c"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"c"}>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"c"}>]>} : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Without unreduced axes on the result, the reduction's all-reduce is left
// to the partitioner.
// CHECK-LABEL: func.func @reduce_without_unreduced_result_not_reduced
// CHECK:         %0 = stablehlo.reduce
// CHECK-NOT:     sdy.all_reduce
// CHECK:         return %0
func.func @reduce_without_unreduced_result_not_reduced(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A reshard that adds unreduced axes is spelled with the unreduced
// collectives: "a" (replicated) by replicated_to_unreduced, "c" (the minor
// axis of dimension 0) by sharded_to_unreduced.
// CHECK-LABEL: func.func @reshard_to_unreduced
// CHECK-NEXT:    %0 = sdy.replicated_to_unreduced {"a"} %arg0 out_sharding=<@mesh, [{"c"}, {"b"}], unreduced={"a"}>
// CHECK-NEXT:    %1 = sdy.sharded_to_unreduced [{"c"}, {}] %0 out_sharding=<@mesh, [{}, {"b"}], unreduced={"a", "c"}>
// CHECK-NEXT:    %2 = stablehlo.negate %1
// CHECK-NEXT:    %3 = sdy.all_reduce {"a", "c"} %2 out_sharding=<@mesh, [{}, {"b"}]>
// CHECK-NEXT:    return %3
func.func @reshard_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"b"}], unreduced={"a", "c"}> : tensor<8x8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}], unreduced={"a", "c"}>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// A function result that keeps "c" unreduced while the value is sharded
// over it: sharded_to_unreduced before the return.
// CHECK-LABEL: func.func @return_to_unreduced
// CHECK-NEXT:    %0 = sdy.sharded_to_unreduced [{"c"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}], unreduced={"c"}>
// CHECK-NEXT:    return %0
func.func @return_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced={"c"}>}) {
  return %arg0 : tensor<8x8xf32>
}

// Partial maxima are reduced with max; the remaining mismatch with the
// result sharding ("a" vs "c") stays for the partitioner.
// CHECK-LABEL: func.func @return_unreduced_reduced
// CHECK-NEXT:    %0 = sdy.all_reduce max {"b"} %arg0 out_sharding=<@mesh, [{"a"}, {}]>
// CHECK-NEXT:    return %0
func.func @return_unreduced_reduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced=max{"b"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>}) {
  return %arg0 : tensor<8x8xf32>
}

// A loop's init and yielded values that differ from the loop's sharding
// stay as they are.
// CHECK-LABEL: func.func @while_conflict_stays
// CHECK-NEXT:    %0 = stablehlo.while(%iterArg = %arg0)
// CHECK-NOT:     sdy.reshard
// CHECK:         return %0
func.func @while_conflict_stays(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>}
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}]>]>} : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
