// RUN: autopart-opt %s -sdy-resolve-permutation-factors 2>&1 | FileCheck %s

// Halo exchange (Shardy's default, enable-halo-exchange=true) is not
// implemented: the pass says so once and resolves the op by replication,
// which is still a correct program, only with more data moved.

sdy.mesh @mesh = <["a"=2]>

// CHECK: warning: halo exchange is not implemented
// CHECK-LABEL: func @slice_shift
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}]>
// CHECK-NEXT: %[[S:.*]] = stablehlo.slice %[[IN]] [1:3]
// CHECK-NEXT: sdy.reshard %[[S]] <@mesh, [{"a"}]>
func.func @slice_shift(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2xf32> {
  %0 = stablehlo.slice %arg0 [1:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
