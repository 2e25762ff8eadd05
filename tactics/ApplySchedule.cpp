#include "tactics/ApplySchedule.h"

#include "analysis/LoopSums.h"

#include "rules/OpInfo.h"

#include <unordered_set>

#include "analysis/ArgumentRoles.h"
#include "analysis/CarriedState.h"
#include "analysis/ManualAxes.h"
#include "rules/OpShardingRuleRegistry.h"
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

// Ops from a state argument to its update: Adam reaches its moments' update
// in two and the new parameter's step from them in four more.
constexpr int kMaxUpdateDepth = 6;

// For SeedReach::StateUpdate: what the entry function does with its state
// arguments (analysis/CarriedState.h pairs each with the result it returns
// for the next step).
struct StateUpdates {
  std::vector<ValueId> updateOf;  // per argument: its returned update, or kNone
  std::vector<bool> returned;     // per value
  std::vector<std::vector<std::pair<OpId, uint32_t>>> uses;  // per value: (op, operand)
  LoopSums sums;  // gradients accumulated over microbatches

  StateUpdates(const Module &m, OpId func)
      : returned(m.values.size(), false), uses(m.values.size()), sums(m, func) {
    FuncView f{m, func};
    updateOf.assign(f.args().size(), kNone);
    OpId ret = f.returnOp();
    if (ret == kNone) return;
    for (uint32_t r = 0; r < m.numOperands(ret); ++r) returned[m.operand(ret, r)] = true;
    std::vector<int64_t> carried = carriedArguments(m, func);
    for (size_t r = 0; r < carried.size(); ++r)
      if (carried[r] >= 0) updateOf[size_t(carried[r])] = m.operand(ret, uint32_t(r));
    m.walk(func, [&](OpId op) {
      if (op == ret) return;
      for (uint32_t j = 0; j < m.numOperands(op); ++j) uses[m.operand(op, j)].push_back({op, j});
    });
  }

  // The values computed from argument `i` elementwise (an operand laid out
  // as the result, in the sharding-rule registry's terms, of the same type):
  // its update and, from that, the new parameter's step. A returned value
  // other than the argument's own update stops the walk (the new parameters
  // keep their sharding, so they are gathered from the slices).
  // With `gradients`, also the values of the argument's shape the update
  // reads that the step computes (its gradient, and what that is converted
  // from): split like the state, the gradient's reduction becomes a
  // reduce-scatter, as ZeRO-2/3 do.
  std::vector<ValueId> region(const Module &m, size_t i, ValueId arg, bool gradients = false) const {
    std::vector<ValueId> out;
    std::unordered_set<ValueId> seen{arg};
    std::vector<std::pair<ValueId, int>> queue{{arg, 0}};
    for (size_t head = 0; head < queue.size(); ++head) {
      auto [v, depth] = queue[head];
      if (depth >= kMaxUpdateDepth) continue;
      for (auto [op, j] : uses[v]) {
        std::optional<OpShardingRule> rule = getOpShardingRule(m, op);
        if (!rule || j >= rule->operands.size()) continue;
        for (uint32_t r = 0; r < m.numResults(op) && r < rule->results.size(); ++r) {
          ValueId u = m.result(op, r);
          if (rule->operands[j] != rule->results[r] || m.type(u) != m.type(arg)) continue;
          if (returned[u] && u != updateOf[i]) continue;
          if (!seen.insert(u).second) continue;
          out.push_back(u);
          queue.push_back({u, depth + 1});
        }
      }
    }
    if (updateOf[i] != kNone && updateOf[i] != arg && !seen.count(updateOf[i])) out.push_back(updateOf[i]);
    if (gradients) addGradients(m, arg, seen, out);
    return out;
  }

  void addGradients(const Module &m, ValueId arg, std::unordered_set<ValueId> &seen, std::vector<ValueId> &out) const {
    // Backwards from the update through elementwise ops on the argument's
    // type (Adam's (1-b1)·g, g·g) to the op that produced the gradient: the
    // search's update cone (search/Action.cpp) walks the same way, so the
    // expert plan stays one of its actions.
    std::vector<ValueId> work(out.begin(), out.end());
    while (!work.empty()) {
      ValueId v = work.back();
      work.pop_back();
      // A gradient summed over microbatches: its accumulator and each
      // microbatch's part are split like it (reduce-scattered as they come).
      if (const LoopSum *sum = sums.of(v)) {
        for (ValueId u : {sum->init, sum->arg, sum->sum, sum->part}) {
          if (m.type(u) != m.type(arg) || !seen.insert(u).second) continue;
          out.push_back(u);
          work.push_back(u);
        }
        continue;
      }
      OpId op = m.definingOp(v);
      if (op == kNone || opInfo(m, op).category != OpCategory::Elementwise) continue;
      for (ValueId u : m.operands(op)) {
        if (m.definingOp(u) == kNone || m.type(u) != m.type(arg) || !seen.insert(u).second) continue;
        out.push_back(u);
        work.push_back(u);
      }
    }
  }
};

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
                                            Diagnostics &diags) {
  const Module &m = ctx.m;
  std::vector<ArgumentInfo> infos = classifyArguments(m, ctx.func);
  auto current = [&](ValueId v) -> const TensorSharding * { return state[v] ? &*state[v] : nullptr; };
  nlohmann::json report = nlohmann::json::array();
  std::optional<StateUpdates> updates;  // built when a tactic needs them
  // Values inside a manual computation never take its manual axes.
  ManualAxes manual(m);
  for (const Tactic &t : schedule.tactics) {
    if (t.kind == TacticKind::Auto) {
      if (!autoTactic) {
        diags.error("tactic '" + t.spelling + "' needs the search, which this driver does not provide");
        return std::nullopt;
      }
      std::optional<nlohmann::json> entry = autoTactic(ctx, t, state, diags);
      if (!entry) return std::nullopt;
      report.push_back(std::move(*entry));
      continue;
    }
    TacticSeeds seeds = seedTactic(m, ctx.func, t, ctx.mesh, current, &ctx.names);
    SeedReach reach = reachOf(t);
    bool updatesState = reach == SeedReach::StateUpdate || reach == SeedReach::StateUpdateAndGradient;
    if (updatesState && !updates) updates.emplace(m, ctx.func);
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
      // ZeRO-1 its optimizer state at rest and where the step updates it;
      // the other tactics shard the seed's whole name through the program.
      NameId32 name = ctx.names.nameOf(s.value, uint32_t(s.dim));
      if (reach == SeedReach::Name && name != kNoDimName) {
        if (propagatedNames.insert(uint64_t(name)).second) {
          NamePropagationStats st = shardName(m, ctx.names, name, s.axis, ctx.meshName, manual, state);
          propagated += st.sharded;
          skipped += st.skipped;
        }
      } else if (manual.binds(s.value, s.axis)) {
        ++skipped;  // not listed as sharded
        continue;
      } else {
        std::optional<TensorSharding> before = state[s.value];
        if (!state[s.value])
          state[s.value] = TensorSharding::closed(ctx.meshName, size_t(m.types.rank(m.type(s.value))));
        state[s.value]->dims[size_t(s.dim)].axes.push_back(AxisRef{s.axis, 0, 0});
        ++propagated;
        // The update region takes the argument's new sharding where it had
        // the argument's old one (so the next step reads the state as this
        // one left it).
        if (updatesState)
          for (ValueId u : updates->region(m, s.argIndex, s.value, reach == SeedReach::StateUpdateAndGradient)) {
            if (state[u] == state[s.value]) continue;
            if (!sameSharding(state[u], before) || (state[s.value] && manual.conflicts(u, *state[s.value]))) {
              ++skipped;
              continue;
            }
            state[u] = state[s.value];
            ++propagated;
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
