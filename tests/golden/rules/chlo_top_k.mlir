// RUN: autopart-opt %s -sdy-populate-op-sharding-rules | FileCheck %s
// RUN: autopart-opt %s -sdy-basic-propagate | FileCheck %s --check-prefix=PROP

// chlo.top_k, as jax.lax.top_k lowers: the batch dimensions pass, the top-k
// dimension needs every element and is not propagated through (the rule of
// the mhlo.topk custom call, which Shardy's registry gives).

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @top_k_rule_2d
// CHECK: chlo.top_k{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>
func.func @top_k_rule_2d(%arg0: tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>) {
  %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
  return %values, %indices : tensor<16x2xf32>, tensor<16x2xi32>
}

// The batch sharding reaches both results; the sharded top-k dimension does not.
// PROP-LABEL: func.func @top_k_propagates_batch_only
// PROP-SAME: -> (tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<16x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
func.func @top_k_propagates_batch_only(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<16x2xf32>, tensor<16x2xi32>) {
  %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
  return %values, %indices : tensor<16x2xf32>, tensor<16x2xi32>
}
