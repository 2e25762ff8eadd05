// `fsdp`: ZeRO-3 / fully sharded data parallelism (Rajbhandari et al. 2020,
// arXiv 1910.02054, stage 3). Every parameter and optimizer-state argument
// on its largest dimension the axis divides and no earlier tactic shards,
// and so are its update and its gradient: each device reduce-scatters the
// gradient, updates its slice of the parameter and optimizer state, and
// all-gathers the parameter where the forward and backward passes use it
// (ZeRO's 3Ψ of communication against data parallelism's 2Ψ). The seeds do
// not propagate further.
#include "tactics/TacticRegistry.h"

namespace autopart {
namespace {

void seedFsdp(const SeedContext &c, TacticSeeds &out) {
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.shardable(i) && c.infos[i].role != ArgRole::Data) c.seedLargestFreeDim(i, out);
}

TacticRegistration fsdp({
    .name = "fsdp",
    .aliases = {"zero3", "zero-3", "zero"},
    .defaultAxis = dataAxis(),
    .description = "ZeRO-3: parameters and optimizer state sharded at rest, gathered where used",
    .reach = SeedReach::StateUpdateAndGradient,
    .seed = seedFsdp,
    .expert = "Expert: ZeRO-3 / FSDP",
});

}  // namespace
}  // namespace autopart
