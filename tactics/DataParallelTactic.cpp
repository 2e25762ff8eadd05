// `dp`: batch parallelism. Shards the batch *name*: dimension 0 of the data
// argument of highest rank (the inputs: images, token ids; most bytes on
// ties). Other data arguments join when their dimension 0 carries the same
// name (labels, masks), or has the batch's size and a name no parameter
// shares (an input the step does not link to the batch, e.g. an unused
// one). So a bias the role heuristic could not tell from data is not split
// along its features, and a batch of 1 (no name: size-1 dimensions are not
// named) shards nothing. The seeds' names then carry the batch through the
// program. Without the named-dimension analysis, every data argument's
// dimension 0.
#include "tactics/TacticRegistry.h"

namespace autopart {
namespace {

void seedDataParallel(const SeedContext &c, TacticSeeds &out) {
  const Module &m = c.m;
  NameId32 batchName = kNoDimName;
  int64_t batchSize = 0;
  std::vector<bool> isParamArg(m.values.size(), false);
  if (c.names) {
    for (size_t i = 0; i < c.args.size(); ++i) isParamArg[c.args[i]] = c.infos[i].role != ArgRole::Data;
    int bestRank = 0;
    int64_t bestBytes = -1;
    size_t best = c.args.size();
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (c.infos[i].role != ArgRole::Data || !c.shardable(i)) continue;
      int rank = int(c.shape(i).size());
      if (rank > bestRank || (rank == bestRank && c.infos[i].bytes > bestBytes)) {
        bestRank = rank;
        bestBytes = c.infos[i].bytes;
        best = i;
      }
    }
    if (best == c.args.size()) {
      out.notes.push_back("no data argument to take the batch dimension from");
      return;
    }
    batchName = c.names->nameOf(c.args[best], 0);
    batchSize = c.shape(best)[0];
    if (batchName == kNoDimName) {
      out.notes.push_back(c.infos[best].name + ": batch dimension of size " + std::to_string(batchSize) +
                          ", nothing to shard");
      return;
    }
  }
  auto sameBatch = [&](ValueId v) {
    NameId32 n = c.names->nameOf(v, 0);
    if (n == batchName) return true;
    if (n == kNoDimName || m.types.shape(m.type(v))[0] != batchSize) return false;
    for (const DimRef &r : c.names->names[n].members)
      if (isParamArg[r.value]) return false;
    return true;
  };
  size_t notBatch = 0;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!c.shardable(i) || c.infos[i].role != ArgRole::Data) continue;
    if (batchName != kNoDimName && !sameBatch(c.args[i])) {
      ++notBatch;
      continue;
    }
    c.trySeed(i, 0, out);
  }
  if (notBatch)
    out.notes.push_back(std::to_string(notBatch) + " data argument(s) whose dimension 0 is not the batch left alone");
}

TacticRegistration dp({
    .name = "dp",
    .aliases = {"batch", "batch_parallel", "data_parallel"},
    .defaultAxis = dataAxis(),
    .description = "batch parallelism: the batch dimension of the data arguments, through the program",
    .reach = SeedReach::Name,
    .seed = seedDataParallel,
    .expert = "Expert: batch parallelism",
});

}  // namespace
}  // namespace autopart
