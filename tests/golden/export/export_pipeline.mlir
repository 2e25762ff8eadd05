// RUN: autopart-opt %s -sdy-export-pipeline | FileCheck %s
// RUN: autopart-opt %s -sdy-export-pipeline='update-non-divisible-input-output-shardings=false' | FileCheck %s --check-prefix=NODIV
// RUN: not autopart-opt %s -sdy-export-pipeline='no-such-option=true' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: autopart-opt %s -sdy-export-pipeline='enable-insert-explicit-collectives=true' | FileCheck %s --check-prefix=COLL

// Shardy's export pipeline as one flag, on what propagation across calls
// leaves behind: func data-flow edges, a flattened copy @foo_0 of @foo that
// propagation gave the same shardings, a sharding constraint and open
// dimensions.
//
// - the edges' shardings land on @foo's argument and on the calls;
// - @foo_0 has @foo's shardings, so its call goes to @foo and the
//   symbol DCE erases it;
// - the constraint becomes a reshard;
// - "y"=4 does not divide 6: main's argument keeps the sub-axis "y":(1)2,
//   which the main function's open dimension then drops entirely;
// - every sharding is closed and carries its mesh inline (the sdy.mesh
//   op is gone), as in Shardy's export_pipeline tests.

// CHECK-NOT:   sdy.mesh
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>})
// CHECK-NEXT:    %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>]>}
// CHECK-NEXT:    %1 = call @foo(%0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>]>}
// CHECK-NEXT:    %2 = sdy.reshard %1 <mesh<["x"=2, "y"=4]>, [{}, {"x"}]>
// CHECK-LABEL: func.func private @foo(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>})
// CHECK-NEXT:    stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>]>}
// CHECK-NOT:   @foo_0
// CHECK-NOT:   func_data_flow_edge
// CHECK-NOT:   sharding_constraint
// CHECK-NOT:   ?

// Without the boundary update the argument keeps "y" on the dimension of 6.
// NODIV-LABEL: func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}, {"y"}]>})

// UNKNOWN: error: sdy-export-pipeline: unknown option 'no-such-option'

// With explicit collectives no reshard is left: the constraint's reshard and
// the one to main's closed result merge (the reshard canonicalization runs
// first), and what remains becomes one all-gather of "x".
// COLL-LABEL: func.func @main(
// COLL:         %2 = sdy.all_gather [{"x"}, {}] %1 out_sharding=<mesh<["x"=2, "y"=4]>, [{}, {}]>
// COLL-NOT:     sdy.reshard

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>}) -> tensor<8x6xf32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x6xf32>
  %2 = call @foo_0(%1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %3 = sdy.func_data_flow_edge %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x6xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{}, {"x"}]> : tensor<8x6xf32>
  return %4 : tensor<8x6xf32>
}

func.func private @foo(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x6xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}

func.func private @foo_0(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo"} {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x6xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}
