// `autopart plan` completes the input as `-sdy-propagation-pipeline` does,
// import passes included. Shardy's -sdy-apply-sharding-constraints gives a
// constraint's input the constraint's sharding when the input has none and
// the constraint is closed (sdy_import_passes.md), so %0 and its other user
// %3 are [{}, {"model"}], not the argument's "data" propagated forward (what
// propagation alone gives: [{"data"}, {"model"}] on %0 and %3). The plan with
// no tactic is that completion, on the user's own text; XLA completes the
// written plan to the same shardings.
//
// RUN: autopart plan %s --tactics remat:none -o - | FileCheck %s --check-prefix=PLAN
// RUN: autopart-opt -sdy-propagation-pipeline %s | FileCheck %s --check-prefix=XLA
// RUN: autopart plan %s --tactics remat:none -o - | autopart-opt -sdy-propagation-pipeline | FileCheck %s --check-prefix=XLA

// PLAN:      func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
// PLAN-NEXT:   %0 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>
// PLAN-NEXT:   %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"model"}]> : tensor<8x16xf32>
// PLAN-NEXT:   %2 = stablehlo.tanh %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>
// PLAN-NEXT:   %3 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>

// XLA:      stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{}, {"model"}]>]>}
// XLA:      stablehlo.tanh %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{}, {"model"}]>]>}
// XLA:      stablehlo.exponential %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{}, {"model"}]>]>}

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %x : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"model"}]> : tensor<8x16xf32>
  %2 = stablehlo.tanh %1 : tensor<8x16xf32>
  %3 = stablehlo.exponential %0 : tensor<8x16xf32>
  return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
}
