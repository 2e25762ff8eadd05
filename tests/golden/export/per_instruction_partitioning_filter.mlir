// RUN: autopart-opt %s -sdy-per-instruction-partitioning='filter=negate' | FileCheck %s --check-prefix=NAME
// RUN: autopart-opt %s -sdy-per-instruction-partitioning="filter='selectLow=1, selectHigh=2'" | FileCheck %s --check-prefix=RANGE
// RUN: autopart-opt %s -sdy-per-instruction-partitioning="filter='selectLow=1, abs'" | FileCheck %s --check-prefix=BOTH

// The filter chooses the ops (docs/sdy_export_passes.md): op-name
// substrings, an index range over the sharded ops in program order
// (counting from 0), or both at once (an op must pass each).

sdy.mesh @mesh = <["x"=2]>

// By name the negate alone; by range ops 1 and 2 (negate, abs); both:
// from op 1 on, abs only.
// NAME-LABEL: func.func @selection(
// NAME:         stablehlo.add {{.*}}sdy.sharding
// NAME:         sdy.manual_computation
// NAME-NEXT:      stablehlo.negate
// NAME:         stablehlo.abs {{.*}}sdy.sharding
// NAME:         stablehlo.exponential {{.*}}sdy.sharding
// RANGE-LABEL: func.func @selection(
// RANGE:         stablehlo.add {{.*}}sdy.sharding
// RANGE:         sdy.manual_computation
// RANGE-NEXT:      stablehlo.negate
// RANGE:         sdy.manual_computation
// RANGE-NEXT:      stablehlo.abs
// RANGE:         stablehlo.exponential {{.*}}sdy.sharding
// BOTH-LABEL: func.func @selection(
// BOTH:         stablehlo.add {{.*}}sdy.sharding
// BOTH:         stablehlo.negate {{.*}}sdy.sharding
// BOTH:         sdy.manual_computation
// BOTH-NEXT:      stablehlo.abs
// BOTH:         stablehlo.exponential {{.*}}sdy.sharding
func.func @selection(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %3 = stablehlo.exponential %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %3 : tensor<8xf32>
}
