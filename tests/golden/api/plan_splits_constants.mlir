// A constant with two users: Shardy's -sdy-constant-or-scalar-splitter gives
// each user its own copy, so %c is not a bridge between %a's "data" and
// %b's "model" (propagation alone completes %c, %0 and %1 to
// [{"data"}, {"model"}] through it, and prices resharding both results).
// The pipeline's copies end up with different shardings, which one value
// of the user's program cannot carry: the plan leaves %c open, so XLA
// splits it again and shards each copy from its user. The report counts the
// completion, and %c as the one value XLA shards per use.
//
// RUN: autopart plan %s --tactics remat:none -o - | FileCheck %s --check-prefix=PLAN
// RUN: autopart-opt -sdy-propagation-pipeline %s | FileCheck %s --check-prefix=XLA
// RUN: autopart plan %s --tactics remat:none -o - | autopart-opt -sdy-propagation-pipeline | FileCheck %s --check-prefix=XLA
// RUN: autopart simulate %s --json | FileCheck %s --check-prefix=SIM

// PLAN:      %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
// PLAN-NEXT: %0 = stablehlo.add %a, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : tensor<8x16xf32>
// PLAN-NEXT: %1 = stablehlo.multiply %b, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>

// XLA:      sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {}]>]>} dense<1.000000e+00>
// XLA-NEXT: sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{}, {"model"}]>]>} dense<1.000000e+00>
// XLA-NEXT: stablehlo.add %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {}]>]>}
// XLA-NEXT: stablehlo.multiply %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{}, {"model"}]>]>}

// SIM:      "input_shardings": {
// SIM-NEXT:   "per_use_values": 1,
// SIM-NEXT:   "propagated": true,
// SIM-NEXT:   "updates": {{[1-9][0-9]*}},
// SIM-NEXT:   "user": 2

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %0 = stablehlo.add %a, %c : tensor<8x16xf32>
  %1 = stablehlo.multiply %b, %c : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
