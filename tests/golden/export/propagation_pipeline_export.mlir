// RUN: autopart-opt %s -sdy-propagation-pipeline | FileCheck %s
// RUN: autopart-opt %s -sdy-propagation-pipeline='keep-sharding-rules=true' | FileCheck %s --check-prefix=RULES

// The export end of the pipeline: the two constant copies the import made
// merge back into one, the group is gone, the constraint became a reshard,
// "x"=4 does not divide 6 so the boundary shardings fall back to the sub-axis
// "x":(1)2, which the main function's open dimensions then drop; every
// sharding is closed and the sharding rules are dropped unless kept.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4, "y"=2]>, [{}, {"y"}]>})
// CHECK-SAME:    -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4, "y"=2]>, [{}, {"y"}]>})
// CHECK-NEXT:  %[[C:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=4, "y"=2]>, [{"x"}, {"y"}]>]>} dense<1.000000e+00>
// CHECK-NOT:   sdy.constant
// CHECK:       %[[ADD:.*]] = stablehlo.add %{{.*}}, %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=4, "y"=2]>, [{"x"}, {"y"}]>]>}
// CHECK-NEXT:  %[[MUL:.*]] = stablehlo.multiply %[[ADD]], %[[C]]
// CHECK-NEXT:  sdy.reshard %[[MUL]] <mesh<["x"=4, "y"=2]>, [{"x"}, {"y"}]>
// CHECK-NOT:   sharding_group
// CHECK-NOT:   sharding_constraint
// CHECK-NOT:   sharding_rule
// CHECK-NOT:   ?

// RULES: stablehlo.add {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule
func.func @main(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}) -> tensor<6x8xf32> {
  %c = stablehlo.constant dense<1.000000e+00> : tensor<6x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<6x8xf32>
  %1 = stablehlo.multiply %0, %c : tensor<6x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {"y"}]> : tensor<6x8xf32>
  sdy.sharding_group %2 group_id = 3 : tensor<6x8xf32>
  return %2 : tensor<6x8xf32>
}
