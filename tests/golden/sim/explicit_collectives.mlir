// RUN: autopart simulate %s --device h100-80gb | FileCheck %s
// RUN: autopart simulate %s --device h100-80gb --json | FileCheck %s --check-prefix=JSON

// A tensor-parallel MLP written per device (shard_map / torch-xla style): the
// row-parallel matmul's partial sums are all-reduced over "model" and the
// result gathered back over "data". The simulator prices the collectives the
// body spells out on the axes their device groups span (devices 0-3 differ
// only in "model", 0 and 4 only in "data"), not as kernels.

// CHECK: step time {{.*}}communication {{[1-9]}}
// Each collective feeds the next op at once: exposed whole, hidden exactly 0
// (not the -0.000 a rounding remainder printed).
// CHECK: communication {{.*}} exposed; all-gather {{[0-9.]+}} us exposed, 0.000 us hidden; all-reduce {{[0-9.]+}} us exposed, 0.000 us hidden
// CHECK: costliest collectives:
// CHECK-DAG: all-reduce {"model"} 128.00 KiB
// CHECK-DAG: all-gather {"data"} 256.00 KiB

// JSON: "communication_by_kind": {
// JSON-DAG: "all-gather": {
// JSON-DAG: "all-reduce": {

sdy.mesh @mesh = <["data"=2, "model"=4]>

func.func @main(%x: tensor<256x1024xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
                %w: tensor<1024x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<256x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"data"}, {"model"}]>, <@mesh, [{"model"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"data", "model"} (%lx: tensor<128x256xbf16>, %lw: tensor<256x512xbf16>) {
    %p = stablehlo.dot_general %lx, %lw, contracting_dims = [1] x [0] : (tensor<128x256xbf16>, tensor<256x512xbf16>) -> tensor<128x512xbf16>
    %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %t = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %t : tensor<bf16>
    }) : (tensor<128x512xbf16>) -> tensor<128x512xbf16>
    %g = "stablehlo.all_gather"(%s) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<128x512xbf16>) -> tensor<256x512xbf16>
    sdy.return %g : tensor<256x512xbf16>
  } : (tensor<256x1024xbf16>, tensor<1024x512xbf16>) -> tensor<256x512xbf16>
  return %0 : tensor<256x512xbf16>
}
