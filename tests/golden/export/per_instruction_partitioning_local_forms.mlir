// RUN: autopart-opt %s -sdy-per-instruction-partitioning | FileCheck %s
// RUN: autopart-opt %s -sdy-per-instruction-partitioning | autopart run - | FileCheck %s --check-prefix=EXEC
// RUN: not autopart-opt %s -sdy-per-instruction-partitioning='filter=dot=1' 2>&1 | FileCheck %s --check-prefix=BADFILTER
// RUN: not autopart-opt %s -sdy-per-instruction-partitioning='enable-halo-exchange=true' 2>&1 | FileCheck %s --check-prefix=HALO

// -sdy-per-instruction-partitioning (docs/sdy_export_passes.md): each
// selected sharded op becomes a manual computation over every mesh axis
// holding the op on local shapes, padded where its shard count does not
// divide a dimension. The `autopart run` lines execute the partitioned
// programs (every device's shard, the all-gathers between them) and compare
// each partitioned result with the same ops left global: the local forms
// compute exactly what the global op does. (The inputs are iotas that carry
// the operands' shardings; they have no local form and stay global.)

// EXEC: checks: 2/2 passed
// BADFILTER: error: sdy-per-instruction-partitioning: bad filter entry 'dot=1'
// HALO: error: sdy-per-instruction-partitioning: option 'enable-halo-exchange' is not supported

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A dot sharded on both non-contracting dimensions, then gathered back by a
// reshard that drops "y" (one all-gather over "y", devices {0, 1} and
// {2, 3}) and one that drops "x".
// CHECK-LABEL: func.func @dot_then_gathers(
// CHECK:         sdy.manual_computation({{.*}}) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%{{.*}}: tensor<2x8xf32>, %{{.*}}: tensor<8x3xf32>)
// CHECK-NEXT:      stablehlo.dot {{.*}} : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
// CHECK:         "stablehlo.all_gather"({{.*}}) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>
// CHECK:         "stablehlo.all_gather"({{.*}}) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>
// CHECK-NOT:     sdy.reshard
func.func @dot_then_gathers() {
  %a = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x8xf32>
  %b = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x6xf32>
  %global = stablehlo.dot %a, %b : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %0 = stablehlo.dot %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<4x6xf32>
  %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<4x6xf32>
  check.expect_almost_eq %2, %global, tolerance = 0.001 : tensor<4x6xf32>
  return
}

// "x"=2 does not divide 5: the operands are padded with zeros to 6 before
// the computation and its result is sliced back to 5 after.
// CHECK-LABEL: func.func @indivisible_elementwise(
// CHECK:         %[[PAD:.*]] = stablehlo.pad {{.*}} high = [1, 0]
// CHECK-NEXT:    %[[MC:.*]] = sdy.manual_computation(%[[PAD]], %[[PAD]]) {{.*}} (%{{.*}}: tensor<3x4xf32>, %{{.*}}: tensor<3x4xf32>)
// CHECK-NEXT:      stablehlo.add {{.*}} : tensor<3x4xf32>
// CHECK:         stablehlo.slice %[[MC]] [0:5, 0:4]
func.func @indivisible_elementwise() {
  %a = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<5x4xf32>
  %global = stablehlo.add %a, %a : tensor<5x4xf32>
  %0 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<5x4xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<5x4xf32>
  check.expect_almost_eq %1, %global, tolerance = 0.001 : tensor<5x4xf32>
  return
}

// Ops whose local form is not the op itself stay global, for XLA to
// partition: a dot whose contracting dimension is sharded (it needs an
// all-reduce), a constant that is not a splat (each device would hold
// other values), a reshard that changes two dimensions. (It takes an
// argument, so `autopart run` leaves it alone: a global reshard does not
// execute.)
// CHECK-LABEL: func.func @no_local_form(
// CHECK-NOT:     sdy.manual_computation
// CHECK-DAG:     stablehlo.constant {sdy.sharding
// CHECK-DAG:     stablehlo.dot {{.*}}sdy.sharding
// CHECK:         sdy.reshard
// CHECK:         return
func.func @no_local_form(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<4x8xf32>
  %b = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x4xf32>
  %c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<4x4xf32>
  %0 = stablehlo.dot %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = sdy.reshard %c <@mesh, [{}, {}]> : tensor<4x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// Inside a manual computation the shardings are local to its manual axes
// already: its ops are neither partitioned nor counted.
// CHECK-LABEL: func.func @inside_manual_computation(
// CHECK-NEXT:    sdy.manual_computation(%arg0)
// CHECK-NEXT:      stablehlo.negate %{{.*}} {sdy.sharding
// CHECK-NOT:     sdy.manual_computation
func.func @inside_manual_computation(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
