// RUN: autopart-opt %s -sdy-export-pipeline='enable-insert-explicit-collectives=true' | FileCheck %s

// -sdy-reshard-to-collectives inside Shardy's export pipeline, which
// canonicalizes with the reshard patterns before it and the collective
// patterns after it, and with no others (export_pipeline.cc).

sdy.mesh @cube = <["a"=2, "b"=2, "c"=2]>

// Merging equal reshards of one value is not a reshard-labelled pattern:
// each reshard gets its own gather.
// CHECK-LABEL: func.func @equal_reshards_are_not_merged
// CHECK-NEXT:    %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<mesh<["a"=2, "b"=2, "c"=2]>, [{}, {}]>
// CHECK-NEXT:    %1 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<mesh<["a"=2, "b"=2, "c"=2]>, [{}, {}]>
// CHECK-NEXT:    %2 = stablehlo.add %0, %1
func.func @equal_reshards_are_not_merged(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{}, {}]>}) {
  %0 = sdy.reshard %arg0 <@cube, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %arg0 <@cube, [{}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@cube, [{}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// A reshard of a reshard merges before the conversion: there and back again
// is no reshard at all, so no collective.
// CHECK-LABEL: func.func @reshard_back_and_forth_is_nothing
// CHECK-NEXT:    return %arg0
func.func @reshard_back_and_forth_is_nothing(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) {
  %0 = sdy.reshard %arg0 <@cube, [{}, {"a"}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@cube, [{"a"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// The all-slice the conversion makes fuses with the all-reduce before it.
// CHECK-LABEL: func.func @all_reduce_then_slice_is_reduce_scatter
// CHECK-NEXT:    %0 = sdy.reduce_scatter [{"a"}, {}] %arg0 out_sharding=<mesh<["a"=2, "b"=2, "c"=2]>, [{"a"}, {}]>
// CHECK-NEXT:    return %0
func.func @all_reduce_then_slice_is_reduce_scatter(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{}, {}], unreduced={"a"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}]>}) {
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@cube, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@cube, [{"a"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
