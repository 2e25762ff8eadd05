// `-sdy-remove-propagation-debug-info`: removes what propagation records for
// debugging (`debug-propagate-edges`, `debug-sharding-origins`): the edges
// each axis travelled and where each sharding came from.
//
//   %0 = stablehlo.add %a, %b {sdy.propagation_edges = #sdy.propagation_edges<...>,
//                              sdy.sharding = ...}
//   func.func @f(%a: tensor<8xf32> {sdy.sharding = ..., sdy.sharding_origins = {a = "self"}})
//   -> only the `sdy.sharding` attributes remain.
#include "export/StripAttributes.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

PassRegistration reg("sdy-remove-propagation-debug-info",
                     "Removes propagation edges and sharding origins from ops, arguments and results",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       stripAttributes(m, {"sdy.propagation_edges", "sdy.block_arg_propagation_edges",
                                           "sdy.result_propagation_edges", "sdy.sharding_origins",
                                           "sdy.block_arg_sharding_origins", "sdy.result_sharding_origins",
                                           "sdy.sharding_origin_name"});
                       return true;
                     });

}  // namespace

}  // namespace autopart
