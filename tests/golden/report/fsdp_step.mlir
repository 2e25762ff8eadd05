// RUN: autopart report %s --device h100-80gb --title "FSDP <step>" | FileCheck %s
// RUN: not autopart report %s --search %s -o - 2>&1 | FileCheck %s --check-prefix=BADSEARCH
// RUN: not autopart report %s --mesh d=0 2>&1 | FileCheck %s --check-prefix=BADMESH
// RUN: autopart report %s --top 1 --no-propagate | FileCheck %s --check-prefix=TOP

// The HTML report of a planned step (x . w1 forward, x^T . dh weight
// gradient, FSDP on d=8): one page with the title escaped, the mesh's eight
// devices, the memory timeline (one point per op of @main), the gradient
// dot's reduce-scatter linked to its source line, which the page embeds, and
// every argument's sharding.

// CHECK:     <!DOCTYPE html>
// CHECK:     Content-Security-Policy
// CHECK:     <h1>FSDP &lt;step&gt;</h1>
// CHECK:     id="mesh-grid"
// CHECK:     <title>device 7: d=7</title>
// CHECK:     id="step-bars"
// CHECK:     <path class="mem-line" d="M{{[0-9.]+}} {{[0-9.]+}} L{{[0-9.]+}} {{[0-9.]+}} L{{[0-9.]+}} {{[0-9.]+}}"
// CHECK:     id="collective-table"
// CHECK:     reduce-scatter
// CHECK:     <a class="loc" href="#L[[LINE:[0-9]+]]" data-line="[[LINE]]" data-col="10">{{.*}}fsdp_step.mlir:[[LINE]]:10</a>
// CHECK:     id="argument-table"
// CHECK:     %arg1</td><td>parameter</td><td class="mono">tensor&lt;128x256xf32&gt;</td><td class="mono">&lt;@mesh, [{&quot;d&quot;}, {}]&gt;</td><td class="mono">16x256xf32</td>
// CHECK:     <div class="src" id="L[[LINE]]">{{.*}}%dw1 = stablehlo.dot_general %x, %dh
// CHECK:     <script type="application/json" id="autopart-data">{"expect":{"arguments":3,"memory_points":3,"search":0,"step_bars":true}

// --top 1: the costliest collective only (the all-gather: equal costs keep
// program order).
// TOP:       id="collective-table"
// TOP:       all-gather
// TOP-NOT:   reduce-scatter
// TOP:       id="op-table"

// BADSEARCH: error: not the JSON object `autopart search --json` prints
// BADMESH:   autopart report: error: --mesh: mesh axis 'd' needs a positive size

sdy.mesh @mesh = <["d"=8]>
func.func @main(%x: tensor<1024x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %w1: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
                %dh: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>})
    -> (tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>},
        tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : (tensor<1024x128xf32>, tensor<128x256xf32>) -> tensor<1024x256xf32>
  %dw1 = stablehlo.dot_general %x, %dh, contracting_dims = [0] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"d"}, {}]>]>} : (tensor<1024x128xf32>, tensor<1024x256xf32>) -> tensor<128x256xf32>
  return %h, %dw1 : tensor<1024x256xf32>, tensor<128x256xf32>
}
