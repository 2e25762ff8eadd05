// `megatron`: tensor parallelism after Megatron-LM (Shoeybi et al. 2019).
// Shards the hidden names of paired matmuls, found by the named-dimension
// analysis: names that touch two or more parameters, are contracted
// somewhere, and touch no data argument (so not the batch, sequence or
// residual-stream names): w1's columns / w2's rows, the attention heads.
// Every parameter dimension with such a name is a seed; its name then
// carries the split through the activations between the pair.
//
// Its compositions with the data-parallel tactics are expert schedules of
// `autopart search` too (dp+megatron, fsdp+megatron).
#include "tactics/TacticRegistry.h"

namespace autopart {
namespace {

std::vector<bool> hiddenNames(const SeedContext &c) {
  const NamedDimensions &nd = *c.names;
  std::vector<int> params(nd.names.size(), 0);
  std::vector<bool> touchesData(nd.names.size(), false);
  for (size_t i = 0; i < c.args.size(); ++i) {
    int64_t rank = c.m.types.isTensor(c.m.type(c.args[i])) ? c.m.types.rank(c.m.type(c.args[i])) : 0;
    for (int64_t d = 0; d < rank; ++d) {
      NameId32 n = nd.nameOf(c.args[i], uint32_t(d));
      if (n == kNoDimName) continue;
      if (c.infos[i].role == ArgRole::Data)
        touchesData[n] = true;
      else
        ++params[n];
    }
  }
  std::vector<bool> hidden(nd.names.size(), false);
  for (size_t n = 0; n < nd.names.size(); ++n)
    hidden[n] = params[n] >= 2 && nd.names[n].isReduction() && !touchesData[n];
  return hidden;
}

void seedMegatron(const SeedContext &c, TacticSeeds &out) {
  if (!c.names) {
    out.notes.push_back("megatron needs the named-dimension analysis");
    return;
  }
  std::vector<bool> hidden = hiddenNames(c);
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!c.shardable(i)) continue;
    // One hidden dimension per parameter: a square weight used both ways
    // carries the hidden name twice (a conflict), and only one can shard.
    for (size_t d = 0; d < c.shape(i).size(); ++d) {
      NameId32 n = c.names->nameOf(c.args[i], uint32_t(d));
      if (n != kNoDimName && hidden[n]) {
        c.trySeed(i, int64_t(d), out);
        break;
      }
    }
  }
}

TacticRegistration megatron({
    .name = "megatron",
    .aliases = {"tp", "tensor_parallel", "mp"},
    .defaultAxis = modelAxis(),
    .description = "tensor parallelism: the hidden dimension of paired matmuls and attention heads",
    .reach = SeedReach::Name,
    .seed = seedMegatron,
    .expert = "Expert: Megatron tensor parallelism",
});

ExpertScheduleRegistration dpMegatron("dp+megatron", "dp,megatron", "Expert: batch + Megatron");
ExpertScheduleRegistration fsdpMegatron("fsdp+megatron", "fsdp,megatron", "Expert: FSDP + Megatron");
// ZeRO-3 across the data axis with the batch split over it too and Megatron
// inside a node: Megatron-DeepSpeed's layout without its pipeline stages.
ExpertScheduleRegistration dpFsdpMegatron("dp+fsdp+megatron", "dp,fsdp,megatron", "Expert: batch + FSDP + Megatron");

}  // namespace
}  // namespace autopart
