// A plan crosses calls as XLA does. Shardy's propagation pipeline turns
// each call into a named computation holding a copy of the callee
// (-sdy-import-func-calls), propagates through it, and turns it back into
// a call (-sdy-export-named-computations); the two copies of @f come out
// sharded alike, so -sdy-unflatten-call-graph merges them into one @f again.
// %a's sharding therefore reaches @f's body, both call results, the add,
// and through the second call %b. The plan writes that completion into @f
// too (its argument, result and ops), so that completing the written plan
// again changes nothing: what the plan priced is what XLA runs.
//
// RUN: autopart plan %s --tactics remat:none -o - | FileCheck %s --check-prefix=PLAN
// RUN: autopart-opt -sdy-propagation-pipeline %s 2>/dev/null | FileCheck %s --check-prefix=XLA
// RUN: autopart plan %s --tactics remat:none -o - | autopart-opt -sdy-propagation-pipeline 2>/dev/null | FileCheck %s --check-prefix=XLA

// PLAN:      func.func private @f(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {
// PLAN-NEXT:   %0 = stablehlo.tanh %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : tensor<8x16xf32>
// PLAN:      func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})
// PLAN-NEXT:   %0 = func.call @f(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}
// PLAN-NEXT:   %1 = func.call @f(%b) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}
// PLAN-NEXT:   %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}

// XLA:      func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["data"=2, "model"=4]>, [{"data"}, {"model"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["data"=2, "model"=4]>, [{"data"}, {"model"}]>})
// XLA-NEXT:   %[[C0:.*]] = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {"model"}]>]>}
// XLA-NEXT:   %[[C1:.*]] = call @f(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {"model"}]>]>}
// XLA-NEXT:   stablehlo.add %[[C0]], %[[C1]] {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {"model"}]>]>}
// XLA:      func.func private @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["data"=2, "model"=4]>, [{"data"}, {"model"}]>})
// XLA-NEXT:   stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["data"=2, "model"=4]>, [{"data"}, {"model"}]>]>}
// XLA-NOT:  func.func

sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func private @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.tanh %x : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = func.call @f(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = func.call @f(%b) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
