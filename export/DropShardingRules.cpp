// `-sdy-drop-sharding-rules`: removes the `sdy.sharding_rule` attributes
// that `-sdy-populate-op-sharding-rules` (or the input) attached, so the
// exported module carries only shardings.
//
//   %0 = stablehlo.negate %a {sdy.sharding = ..., sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}
//   -> %0 = stablehlo.negate %a {sdy.sharding = ...}
#include "export/StripAttributes.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

PassRegistration reg("sdy-drop-sharding-rules", "Removes every op's sdy.sharding_rule attribute",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       stripAttributes(m, {"sdy.sharding_rule"});
                       return true;
                     });

}  // namespace

}  // namespace autopart
