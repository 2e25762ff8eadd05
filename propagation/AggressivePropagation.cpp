// Aggressive propagation: the basic fixpoint (BasicPropagation.h) with the
// aggressive factor strategy (FactorPropagation.h), which resolves a conflict
// between two factors of one op in favour of the factor sharded on the larger
// tensor instead of giving up on both. Nothing else differs, so this file
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
      return BasicPropagation(m, propagationPassOptions(o, FactorStrategy::Aggressive), d).run();
    });

}  // namespace

}  // namespace autopart
