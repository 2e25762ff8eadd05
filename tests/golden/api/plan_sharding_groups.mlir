// Values in one sharding group get one sharding (-sdy-sharding-group-import,
// then propagation keeps the group together): %1 and, backwards, %b take
// %a's "data" through group 0, though no op connects them. The plan is
// that completion; the groups stay in the user's text.
//
// RUN: autopart plan %s --tactics remat:none -o - | FileCheck %s --check-prefix=PLAN
// RUN: autopart-opt -sdy-propagation-pipeline %s | FileCheck %s --check-prefix=XLA
// RUN: autopart plan %s --tactics remat:none -o - | autopart-opt -sdy-propagation-pipeline | FileCheck %s --check-prefix=XLA

// PLAN:      %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// PLAN:      %0 = stablehlo.tanh %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// PLAN-NEXT: %1 = stablehlo.exponential %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// PLAN-NEXT: sdy.sharding_group %0 group_id=0
// PLAN-NEXT: sdy.sharding_group %1 group_id=0

// XLA:      %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["data"=2, "model"=4]>, [{"data"}, {}]>}
// XLA:      stablehlo.tanh %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {}]>]>}
// XLA-NEXT: stablehlo.exponential %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {}]>]>}
// XLA-NOT:  sdy.sharding_group

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.tanh %a : tensor<8x16xf32>
  %1 = stablehlo.exponential %b : tensor<8x16xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x16xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
