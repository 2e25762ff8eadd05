// Aggressive propagation: the basic fixpoint (BasicPropagation.h) with the
// aggressive factor strategy (FactorPropagation.h): each tensor takes what it
// can of every factor on its own, and a conflict between two factors of one
// op goes to one of them instead of stopping both. Nothing else differs, so this file
// only registers Shardy's `-sdy-aggressive-propagate`; the op- and
// user-priority passes run the same strategy.
#include "ir/Pass.h"
#include "propagation/BasicPropagation.h"

namespace autopart {

namespace {

PassRegistration aggressiveReg(
    "sdy-aggressive-propagate",
    "Propagate shardings resolving conflicts across factors in favour of larger tensors",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      std::optional<PropagationOptions> options = propagationPassOptions(o, PropagationPass::Aggressive, d);
      return options && BasicPropagation(m, *options, d).run();
    },
    propagationOptionSpecs(PropagationPass::Aggressive));

}  // namespace

}  // namespace autopart
