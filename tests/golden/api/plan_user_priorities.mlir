// User priorities: the p0 round runs first, so %c's "model" on dimension 0
// reaches %0, %1 and %b before %a's p1 shardings are seen; in the p1 round
// %a's dimension 0 conflicts and dimension 1 has nothing to add to (the
// "model" axis is taken), so %a needs a reshard (left implicit by the
// minimal explicit-reshard export Shardy's propagation pipeline runs; the
// SPMD partitioner inserts it). The priorities are gone from the plan, as
// from the pipeline's output.
//
// RUN: autopart plan %s --tactics remat:none -o - | FileCheck %s --check-prefix=PLAN
// RUN: autopart-opt -sdy-propagation-pipeline %s | FileCheck %s --check-prefix=XLA
// RUN: autopart plan %s --tactics remat:none -o - | autopart-opt -sdy-propagation-pipeline | FileCheck %s --check-prefix=XLA

// PLAN:      %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}
// PLAN:      %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"model"}, {}]>]>}
// PLAN-NEXT: %1 = stablehlo.divide %0, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"model"}, {}]>]>}

// XLA:      %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["data"=2, "model"=4]>, [{"model"}, {}]>}
// XLA:      stablehlo.add %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"model"}, {}]>]>}
// XLA-NEXT: stablehlo.divide %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"model"}, {}]>]>}

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}p1, {"model"}p1]>}, %b: tensor<8x16xf32>, %c: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}p0, {?}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  %1 = stablehlo.divide %0, %c : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
