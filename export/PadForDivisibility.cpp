// `-sdy-pad-for-divisibility`: grows every tensor whose sharding does not
// split it evenly to the next divisible shape, so the partitioner that follows
// sees only even splits. Collectives pad their input (with zeros) and trim
// gathered dimensions back; slices and pads widen their windows; a
// dot_general, convolution or reduce first sets the padded part of the
// dimensions it sums over to the reduction's identity, unless it is known to
// hold it already; loops carry their values grown; any op left as it was
// reads a slice back to the original shape. The entry function's arguments
// and results must already divide (nothing outside can be padded); other
// functions' signatures grow and their calls follow.
//
//   sdy.mesh @mesh = <["x"=4]>
//   %0 = stablehlo.slice %arg0 [0:7, 0:8] {sdy.sharding = <[{"x"}, {}]>} : (8x8) -> 7x8
//   %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<7x8xf32>
//   return %1
// becomes
//   %0 = stablehlo.slice %arg0 [0:8, 0:8] {sdy.sharding = <[{"x"}, {}]>} : (8x8) -> 8x8
//   %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
//   %2 = stablehlo.slice %1 [0:7, 0:8] {sdy.sharding = <[{}, {}]>} : (8x8) -> 7x8
//   return %2
//
// The rewriting itself is export/Padder.h's.
#include "export/Padder.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

bool runPass(Module &m, const PassOptions &, Diagnostics &diags) { return Padder(m, diags).run(); }

PassRegistration reg("sdy-pad-for-divisibility",
                     "Pad tensors whose sharding does not divide them to divisible shapes", runPass);

}  // namespace

}  // namespace autopart
