// `zero1`: ZeRO stage 1 (Rajbhandari et al. 2020, "ZeRO: Memory
// Optimizations Toward Training Trillion Parameter Models", arXiv
// 1910.02054): the optimizer state is partitioned over the data-parallel
// axis, parameters and gradients stay replicated. Every optimizer-state
// argument (analysis/ArgumentRoles.h: Adam's mu and nu, momentum) is split
// on its largest dimension the axis divides and no earlier tactic shards,
// and so is the update the step returns for it, so the state stays split
// from step to step; each device updates its slice of the parameters, and
// the replicated new parameters are all-gathered from the slices.
//
//   dp,zero1 on an Adam MLP step, mesh data=2:
//     batch['x'] dim 0, batch['label'] dim 0        dp
//     opt_state['mu'/'nu'][...]['w'] and ['b'] on their largest dimension,
//     and the step's new mu / nu alike              zero1
//     params[...] and the new params: replicated
#include "tactics/TacticRegistry.h"

namespace autopart {
namespace {

void seedZero1(const SeedContext &c, TacticSeeds &out) {
  size_t states = 0;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (c.infos[i].role != ArgRole::OptimizerState || !c.shardable(i)) continue;
    ++states;
    c.seedLargestFreeDim(i, out);
  }
  if (states == 0) out.notes.push_back("no optimizer-state argument: zero1 shards nothing");
}

TacticRegistration zero1({
    .name = "zero1",
    .aliases = {"zero-1", "zero_1"},
    .defaultAxis = dataAxis(),
    .description = "ZeRO-1: optimizer state (and its update) partitioned over the data axis; "
                   "parameters and gradients replicated",
    .reach = SeedReach::StateUpdate,
    .seed = seedZero1,
});

}  // namespace
}  // namespace autopart
