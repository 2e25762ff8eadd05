// `-sdy-propagation-pipeline`: what XLA runs on a module that carries
// shardings before it partitions, in Shardy's order:
//
//   -sdy-import-pipeline            (import/: meshes lifted, size-one axes
//                                    removed, constants split, data-flow
//                                    edges added, constraints applied,
//                                    sharding groups imported)
//   user-priority propagation       (p0 first, each round an op-priority
//                                    propagation with the aggressive factor
//                                    strategy, UserPriorityPropagation.h)
//   then Shardy's export pipeline (export/, docs/export-passes.md):
//   -sdy-constant-or-scalar-merger  identical constant copies merged again
//   -sdy-sink-data-flow-edges       edge shardings back onto their owners
//   -sdy-remove-sharding-groups     groups have done their job
//   -sdy-sharding-constraint-to-reshard
//   -sdy-update-non-divisible-input-output-shardings
//   -sdy-remove-sub-axes-in-input-output-shardings
//   -sdy-close-shardings            no `?`, no replicated axes left
//   -sdy-insert-explicit-reshards   reshards where operands and results of
//                                    an op disagree
//   -sdy-drop-sharding-rules        unless keep-sharding-rules
//
//   %arg0 [{"a"}p1, {"b"}p1], %0 = add %arg0, %arg1,
//   %1 = divide %0, %arg2 [{"c"}p0, {?}]
//   -> round p0 gives %0 and %1 "c" on dimension 0 (and "b" on dimension 1
//      once %arg0's round comes); the priorities and open dimensions are gone
//      from the output.
//
// The steps before and after propagation are found by their registered
// names, so the stages that own them (import/, export/) stay separate; a
// missing step is an error naming it. Not run yet, as autopart has no such
// passes: Shardy's func-data-flow-edge sinking, call-graph unflattening,
// func-result propagation and call reshards. Options: as the
// propagation passes (`propagationPassOptions`); all of them also reach the
// import steps.
#include "propagation/PropagationPipeline.h"

#include "propagation/UserPriorityPropagation.h"

namespace autopart {

namespace {

constexpr const char *kName = "sdy-propagation-pipeline";

bool runNamed(const std::string &step, Module &m, const PassOptions &o, Diagnostics &diags) {
  const PassInfo *pass = lookupPass(step);
  if (!pass) {
    diags.error(std::string(kName) + ": step '-" + step + "' is not part of this build");
    return false;
  }
  return pass->run(m, o, diags) && !diags.hasErrors();
}

}  // namespace

bool runPropagationPipeline(Module &m, const PassOptions &o, Diagnostics &diags, PropagationStats *stats,
                            bool insertExplicitReshards) {
  std::optional<PropagationOptions> options = propagationPassOptions(o, PropagationPass::Pipeline, diags);
  if (!options) return false;
  if (!runNamed("sdy-import-pipeline", m, o, diags)) return false;
  if (!UserPriorityPropagation(m, *options, diags).run(stats)) return false;
  for (const char *step : {"sdy-constant-or-scalar-merger", "sdy-sink-data-flow-edges", "sdy-remove-sharding-groups",
                           "sdy-sharding-constraint-to-reshard", "sdy-update-non-divisible-input-output-shardings",
                           "sdy-remove-sub-axes-in-input-output-shardings", "sdy-close-shardings"})
    if (!runNamed(step, m, PassOptions{}, diags)) return false;
  if (insertExplicitReshards && !runNamed("sdy-insert-explicit-reshards", m, PassOptions{}, diags)) return false;
  if (!options->keepShardingRules && !runNamed("sdy-drop-sharding-rules", m, PassOptions{}, diags)) return false;
  return true;
}

namespace {

PassRegistration reg(kName,
                     "Shardy's propagation pipeline: the import passes, user-priority propagation (op priorities, "
                     "aggressive factor strategy), then Shardy's export passes (sinking data-flow edges, constraints to "
                     "reshards, closing shardings, inserting explicit reshards)",
                     [](Module &m, const PassOptions &o, Diagnostics &diags) {
                       return runPropagationPipeline(m, o, diags);
                     });

}  // namespace

}  // namespace autopart
