// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=false' | FileCheck %s

// Without enable-full-version Shardy reshards neither function results nor
// data-flow edges, but unreduced axes are still reduced where they become
// replicated (sdy_export_passes.md).

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @result_not_resharded
func.func @result_not_resharded(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
  // CHECK-NEXT: return %arg0
  return %arg0 : tensor<16xf32>
}

// CHECK-LABEL: func @unreduced_result_still_reduced
func.func @unreduced_result_still_reduced(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced={"b"}>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{"a"}]>
  // CHECK-NEXT: return %[[AR]]
  return %arg0 : tensor<16xf32>
}

// CHECK-LABEL: func @barrier_operand_not_resharded
func.func @barrier_operand_not_resharded(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
  // CHECK-NEXT: stablehlo.optimization_barrier {{.*}} %arg0
  %0 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} %arg0 : tensor<16xf32>
  return %0 : tensor<16xf32>
}
