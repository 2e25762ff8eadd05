// `fsdp`: ZeRO-3 / fully sharded data parallelism (Rajbhandari et al. 2020,
// arXiv 1910.02054, stage 3). Every parameter and optimizer-state argument
// on its largest dimension the axis divides and no earlier tactic shards.
// Kept sharded at rest only: the seeds do not propagate, so each parameter
// is gathered where it is used.
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
    .reach = SeedReach::Argument,
    .seed = seedFsdp,
    .expert = "Expert: ZeRO-3 / FSDP",
});

}  // namespace
}  // namespace autopart
