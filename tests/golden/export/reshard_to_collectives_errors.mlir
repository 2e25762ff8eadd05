// RUN: not autopart-opt %s -sdy-reshard-to-collectives 2>&1 | FileCheck %s
// RUN: not autopart-opt %s -sdy-reshard-to-collectives='no-such-option=true' 2>&1 | FileCheck %s --check-prefix=OPTION

// Partial sums must be reduced before a reshard drops them (Shardy's
// -sdy-insert-explicit-reshards puts an sdy.all_reduce there); a reshard that
// drops unreduced axes is an error naming them, never a silent wrong sum.
// CHECK: reshard_to_collectives_errors.mlir:[[@LINE+7]]:8: error: sdy.reshard: unreduced axes {"b"} are not kept in {}; an sdy.all_reduce must come first

// OPTION: error: sdy-reshard-to-collectives: unknown option 'no-such-option'

sdy.mesh @cube = <["a"=2, "b"=2, "c"=2]>

func.func @unreduced_axis_dropped(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@cube, [{"a"}, {}], unreduced={"b"}>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@cube, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
