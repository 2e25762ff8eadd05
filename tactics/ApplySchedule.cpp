#include "tactics/ApplySchedule.h"

#include <unordered_set>

#include "analysis/ArgumentRoles.h"
#include "analysis/CarriedState.h"
#include "tactics/TacticRegistry.h"
#include "tactics/TacticSeeds.h"

namespace autopart {

namespace {

SeedReach reachOf(const Tactic &t) {
  if (t.kind != TacticKind::Named) return SeedReach::Name;  // manual globs propagate like dp
  const TacticInfo *info = findTactic(t.name);
  return info ? info->reach : SeedReach::Name;
}

// Unsharded and fully replicated are alike here.
bool sameSharding(const std::optional<TensorSharding> &a, const std::optional<TensorSharding> &b) {
  bool aNone = !a || a->isFullyReplicated(), bNone = !b || b->isFullyReplicated();
  if (aNone || bNone) return aNone == bNone;
  return *a == *b;
}

// Per argument: the value the entry function returns as its next-step
// state (analysis/CarriedState.h), or kNone.
std::vector<ValueId> updatesOf(const Module &m, OpId func) {
  FuncView f{m, func};
  std::vector<ValueId> out(f.args().size(), kNone);
  if (f.returnOp() == kNone) return out;
  std::vector<int64_t> carried = carriedArguments(m, func);
  for (size_t r = 0; r < carried.size(); ++r)
    if (carried[r] >= 0) out[size_t(carried[r])] = m.operand(f.returnOp(), uint32_t(r));
  return out;
}

}  // namespace

void seedFromInput(const Module &m, OpId func, ShardingVector &state) {
  FuncView f{m, func};
  for (size_t i = 0; i < f.args().size(); ++i) {
    AttrId a = f.argAttr(i, "sdy.sharding");
    if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding) state[f.args()[i]] = *m.attrs.get(a).sharding;
  }
}

std::optional<nlohmann::json> applySchedule(const ScheduleContext &ctx, const TacticSchedule &schedule,
                                            ShardingVector &state, const AutoTacticFn &autoTactic,
                                            std::string *error) {
  const Module &m = ctx.m;
  std::vector<ArgumentInfo> infos = classifyArguments(m, ctx.func);
  auto current = [&](ValueId v) -> const TensorSharding * { return state[v] ? &*state[v] : nullptr; };
  nlohmann::json report = nlohmann::json::array();
  std::optional<std::vector<ValueId>> updates;  // computed when a tactic needs them
  for (const Tactic &t : schedule.tactics) {
    if (t.kind == TacticKind::Auto) {
      if (!autoTactic) {
        *error = "tactic '" + t.spelling + "' needs the search, which this driver does not provide";
        return std::nullopt;
      }
      std::optional<nlohmann::json> entry = autoTactic(ctx, t, state, error);
      if (!entry) return std::nullopt;
      report.push_back(std::move(*entry));
      continue;
    }
    TacticSeeds seeds = seedTactic(m, ctx.func, t, ctx.mesh, current, &ctx.names);
    SeedReach reach = reachOf(t);
    if (reach == SeedReach::ArgumentAndUpdate && !updates) updates = updatesOf(m, ctx.func);
    nlohmann::json entry = {{"tactic", t.spelling}, {"kind", tacticName(t)},
                            {"axis", t.axes[0]}, {"sharded", nlohmann::json::array()},
                            {"skipped", seeds.notes}};
    int64_t propagated = 0, skipped = 0;
    // Many seeds share a name (every layer's w1 carries one hidden name when
    // layers are alike): propagate each name once, not once per seed, or a
    // 96-layer model walks the same member list thousands of times.
    std::unordered_set<uint64_t> propagatedNames;
    for (const ShardingSeed &s : seeds.seeds) {
      // FSDP keeps parameters sharded only at rest (gathered before use),
      // ZeRO-1 its optimizer state at rest and in the step's update of it;
      // the other tactics shard the seed's whole name through the program.
      NameId32 name = ctx.names.nameOf(s.value, uint32_t(s.dim));
      if (reach == SeedReach::Name && name != kNoDimName) {
        if (propagatedNames.insert(uint64_t(name)).second) {
          NamePropagationStats st = shardName(m, ctx.names, name, s.axis, ctx.meshName, state);
          propagated += st.sharded;
          skipped += st.skipped;
        }
      } else {
        std::optional<TensorSharding> before = state[s.value];
        if (!state[s.value])
          state[s.value] = TensorSharding::closed(ctx.meshName, size_t(m.types.rank(m.type(s.value))));
        state[s.value]->dims[size_t(s.dim)].axes.push_back(AxisRef{s.axis, 0, 0});
        ++propagated;
        // The returned update takes the argument's new sharding when it had
        // its old one (so the next step reads it as this one left it).
        ValueId update = reach == SeedReach::ArgumentAndUpdate ? (*updates)[s.argIndex] : kNone;
        if (update != kNone && update != s.value) {
          if (sameSharding(state[update], before)) {
            state[update] = state[s.value];
            ++propagated;
          } else {
            ++skipped;
          }
        }
      }
      entry["sharded"].push_back({{"argument", infos[s.argIndex].name}, {"dim", s.dim}});
    }
    entry["dims_sharded"] = propagated;
    entry["dims_skipped"] = skipped;
    report.push_back(entry);
  }
  return report;
}

}  // namespace autopart
