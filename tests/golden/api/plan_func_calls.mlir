// Calls stay calls in the pipeline (import/ImportPipeline.h: neither
// -sdy-import-func-calls nor the inliner runs), and autopart's propagation
// does not yet cross a func.call (Shardy's non-flat call graph support is
// missing, docs/propagation.md): %a's sharding stops at the call. The plan
// reports exactly that completion, so it does not claim a sharded callee
// XLA (through this pipeline) would not produce. The export's explicit
// reshards bring every call operand to its callee's argument sharding (Shardy
// does so in the minimal version too); @f has none, so %a is resharded to
// replicated on its mesh before the first call.
//
// RUN: autopart plan %s --tactics remat:none -o - | FileCheck %s --check-prefix=PLAN
// RUN: autopart-opt -sdy-propagation-pipeline %s | FileCheck %s --check-prefix=XLA
// RUN: autopart plan %s --tactics remat:none -o - | autopart-opt -sdy-propagation-pipeline | FileCheck %s --check-prefix=XLA

// PLAN:      func.func private @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
// PLAN-NEXT:   %0 = stablehlo.tanh %x : tensor<8x16xf32>
// PLAN:        %0 = func.call @f(%a) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// PLAN-NEXT:   %1 = func.call @f(%b) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// PLAN-NEXT:   %2 = stablehlo.add %0, %1 : tensor<8x16xf32>

// XLA:      func.func private @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// XLA-NEXT:   %0 = stablehlo.tanh %arg0 : tensor<8x16xf32>
// XLA:        %[[A:.*]] = sdy.reshard %arg0 <mesh<["data"=2, "model"=4]>, [{}, {}]> : tensor<8x16xf32>
// XLA-NEXT:   %[[C0:.*]] = call @f(%[[A]]) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// XLA-NEXT:   %[[C1:.*]] = call @f(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// XLA-NEXT:   stablehlo.add %[[C0]], %[[C1]] : tensor<8x16xf32>

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
