// An `sdy.all_reduce` of unreduced axes as XLA's export writes it: a fully
// manual computation whose body is a `stablehlo.all_reduce` over the device
// groups of the reduction axes (global device ids, a fresh channel), so the
// partitioner runs the reduction the program asked for instead of a
// reshard it would plan itself.
//
//   sdy.mesh @m = <["x"=2, "y"=2]>
//   %r = sdy.all_reduce {"y"} %a out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
//     (%a: <@m, [{"x"}, {}], unreduced={"y"}>)
//   ->
//   %r = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}, {}], unreduced={"y"}>]
//          out_shardings=[<@m, [{"x"}, {}]>] manual_axes={"x", "y"} (%l: tensor<4x8xf32>) {
//     %s = "stablehlo.all_reduce"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
//            replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({ add })
//     sdy.return %s
//   }
#pragma once

#include "ir/Module.h"

namespace autopart {

// Replaces `allReduce` (whose operand has sharding `in` on `mesh`) by the
// manual computation; returns it, or kNone after a located error (the
// operand's local shape does not divide, or the axes do not parse).
OpId buildManualAllReduce(Module &m, OpId allReduce, const TensorSharding &in, const Mesh &mesh,
                          Diagnostics &diags);

}  // namespace autopart
