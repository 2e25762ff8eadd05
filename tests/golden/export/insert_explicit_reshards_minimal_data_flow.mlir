// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=false' | FileCheck %s --check-prefix=MIN
// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true' | FileCheck %s --check-prefix=FULL
// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=true avoid-reshards-on-named-computations=true' | FileCheck %s --check-prefix=AVOID

// Values that flow through an op unchanged (a loop's carried values, a
// computation's arguments and results: Shardy's data-flow ops) are brought
// to the sharding of what they flow into, each right after its definition.
// The minimal version only reduces partial sums the destination does not
// keep; the full one also reshards. avoid-reshards-on-named-computations
// leaves a named computation's operands alone.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// MIN-LABEL:  func.func @while_init_and_yield
// MIN-NEXT:     %0 = stablehlo.while(%iterArg = %arg0)
// MIN-NOT:      sdy.reshard
// FULL-LABEL: func.func @while_init_and_yield
// FULL-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"b"}]>
// FULL-NEXT:    %1 = stablehlo.while(%iterArg = %0)
// FULL:         %2 = stablehlo.negate %iterArg
// FULL-NEXT:    stablehlo.return %2
func.func @while_init_and_yield(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>}
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// The body of a manual computation over "a" holds its own partial sums over
// "a": only "b" is reduced before it. Inside, the abs keeps "b" unreduced
// and its partial sums are reduced before the (unreduced-free) result.
// MIN-LABEL:  func.func @manual_computation_partial_sums
// MIN-NEXT:     %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}], unreduced={"a"}>
// MIN-NEXT:     %1 = sdy.manual_computation(%0)
// MIN-NEXT:       %2 = stablehlo.abs %arg1
// MIN-NEXT:       %3 = sdy.all_reduce {"b"} %2 out_sharding=<@mesh, [{}]>
// MIN-NEXT:       sdy.return %3
func.func @manual_computation_partial_sums(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"a", "b"}>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}], unreduced={"a"}>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<16xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"b"}>]>} : tensor<16xf32>
    sdy.return %1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// MIN-LABEL:    func.func @named_computation
// MIN-NEXT:       %0 = sdy.named_computation<"foo">(%arg0)
// MIN-NOT:        sdy.reshard
// FULL-LABEL:   func.func @named_computation
// FULL-NEXT:      %0 = sdy.reshard %arg0 <@mesh, [{"b"}, {}]>
// FULL-NEXT:      %1 = sdy.named_computation<"foo">(%0)
// FULL-NEXT:        %2 = stablehlo.abs %arg1
// FULL-NEXT:        %3 = sdy.reshard %2 <@mesh, [{}, {"b"}]>
// FULL-NEXT:        sdy.return %3
// AVOID-LABEL:  func.func @named_computation
// AVOID-NEXT:     %0 = sdy.named_computation<"foo">(%arg0)
// AVOID-NEXT:       %1 = stablehlo.abs %arg1
// AVOID-NEXT:       %2 = sdy.reshard %1 <@mesh, [{}, {"b"}]>
// AVOID-NEXT:       sdy.return %2
func.func @named_computation(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{}, {"b"}]>] (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
