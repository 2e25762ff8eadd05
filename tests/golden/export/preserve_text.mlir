// RUN: autopart plan %s --mesh data=2 --tactics dp 2>/dev/null | grep -v '^ *//' | FileCheck %s --strict-whitespace
// RUN: autopart plan %s --mesh data=2 --tactics dp --reprint 2>/dev/null | FileCheck %s --check-prefix=REPRINT

// `autopart plan` writes the input back as it was and edits only what the
// plan says: the mesh goes at the top of the module body, shardings join each
// argument's, result's and op's attribute dictionary at their sorted place
// (or start one), a bare `-> type` result gains the parentheses a dictionary
// needs, and the input's value names, spacing, `loc(...)` and `#loc` aliases
// stay. --reprint prints MLIR's canonical form instead.

// CHECK:      {{^}}#loc1 = loc("x")
// CHECK-NEXT: {{^}}module @jit_step attributes {mhlo.num_partitions = 1 : i32} {
// CHECK-NEXT: {{^}}  sdy.mesh @mesh = <["data"=2]>
// CHECK-NEXT{LITERAL}: func.func public @main(%x: tensor<8x4xf32> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>} loc(#loc1), %w:   tensor<4x4xf32> {jax.arg_info = "params['w']", mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
// CHECK-NEXT{LITERAL}: %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {mhlo.frontend_attributes = {a = "1"}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>, xla.keep = true} : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32> loc(#loc2)
// CHECK-NEXT{LITERAL}: %z   =   stablehlo.tanh %y {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : tensor<8x4xf32>
// CHECK-NEXT: %c = stablehlo.constant dense<1.0> : tensor<f32>
// CHECK-NEXT: return %z : tensor<8x4xf32>
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}}
// CHECK-NEXT: {{^}}#loc2 = loc("dot")

// REPRINT: module @jit_step
// REPRINT-NEXT: sdy.mesh @mesh = <["data"=2]>
// REPRINT-NEXT: func.func public @main(%arg0: tensor<8x4xf32>
// REPRINT: %cst = stablehlo.constant dense<

#loc1 = loc("x")
module @jit_step attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%x: tensor<8x4xf32> {jax.arg_info = "batch['x']"} loc(#loc1), %w:   tensor<4x4xf32> {jax.arg_info = "params['w']", mhlo.layout_mode = "default"}) -> tensor<8x4xf32> {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {mhlo.frontend_attributes = {a = "1"}, xla.keep = true} : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32> loc(#loc2)
    %z   =   stablehlo.tanh %y : tensor<8x4xf32>
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    return %z : tensor<8x4xf32>
  }
}
#loc2 = loc("dot")
