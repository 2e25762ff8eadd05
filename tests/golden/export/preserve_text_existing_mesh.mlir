// RUN: autopart plan %s --tactics dp 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: autopart plan %s --mesh data=4,model=2 --tactics dp 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=NEWMESH
// RUN: not autopart plan %s --mesh data=2,model=2 --tactics dp -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONFLICT

// Input with its own mesh and a fixed sharding, no `module`: the mesh line
// stays unless --mesh changes it (then it is replaced in place), the fixed
// sharding is kept, and a while op, whose dictionary follows the `attributes`
// keyword, gets one. A new mesh on which "data" has another size conflicts
// with the fixed sharding: an error, unless --input-shardings says otherwise.

// CHECK: {{^}}sdy.mesh @mesh = <["data"=4]>
// CHECK-NEXT{LITERAL}: func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
// CHECK{LITERAL}: %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %c0) : tensor<8x8xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>, <@mesh, []>]>}
// CHECK-NEXT: cond {
// CHECK{LITERAL}: %2 = stablehlo.multiply %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : tensor<8x8xf32>

// NEWMESH: {{^}}sdy.mesh @mesh = <["data"=4, "model"=2]>{{$}}
// NEWMESH-NEXT: {{^}}func.func @main(%a

// CONFLICT{LITERAL}: preserve_text_existing_mesh.mlir:23:1: error: the input's mesh @mesh = <["data"=4]> differs from --mesh <["data"=2, "model"=2]>, and 1 input sharding(s) use its axes; #sdy.sharding<@mesh, [{"data"}, {}]> uses axis "data"=4, which --mesh lacks

sdy.mesh @mesh = <["data"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<i32>) {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %c0) : tensor<8x8xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare  LT, %iterArg_0, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = stablehlo.multiply %iterArg, %iterArg : tensor<8x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  return %1#0, %1#1 : tensor<8x8xf32>, tensor<i32>
}
