#include "search/Refine.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "analysis/ArgumentRoles.h"
#include "search/Mix.h"
#include "search/RefineUnits.h"

namespace autopart {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxPasses = 8;
// Annealing temperatures, as fractions of the step time at its start.
constexpr double kAnnealHot = 0.01;
constexpr double kAnnealCold = 1e-5;

// Devices a value is split over (replicated: 1).
int64_t shardsOf(const std::optional<TensorSharding> &s, const Mesh &mesh) { return s ? s->numShards(mesh) : 1; }

}  // namespace

RefineResult refinePlan(const ActionSpace &space, const DeviceParams &device, const ShardingVector &start,
                        const PlanCost &startCost, Clock::time_point deadline,
                        const RefineOptions &options) {
  RefineResult r;
  r.shardings = start;
  r.cost = startCost;
  if (!startCost.feasible || space.axes.empty()) return r;
  const Module &m = *space.m;
  FuncView f{m, space.func};
  std::span<const ValueId> args = f.args();
  // A data argument may change layout but not be split over fewer devices
  // than the name-level plan split it: the input pipeline feeds each device
  // its slice, and a replicated batch would be a free but unreal load.
  std::vector<int64_t> minShards(m.values.size(), 0);
  {
    std::vector<ArgumentInfo> infos = classifyArguments(m, space.func);
    for (size_t i = 0; i < args.size(); ++i)
      if (infos[i].role == ArgRole::Data) minShards[args[i]] = std::max<int64_t>(1, shardsOf(start[args[i]], space.mesh));
  }
  auto allowed = [&](ValueId v, const std::optional<TensorSharding> &s) {
    return minShards[v] == 0 || shardsOf(s, space.mesh) >= minShards[v];
  };
  RefineUnits grouping = buildRefineUnits(space);
  const std::vector<RefineUnit> &units = grouping.units;
  const std::vector<RefineClass> &classes = grouping.classes;
  const std::vector<std::vector<DimRef>> &nameMembers = grouping.nameMembers;

  Simulator sim = simulatorFor(space, device);
  for (size_t v = 0; v < start.size() && v < space.base.size(); ++v)
    if (start[v] != space.base[v]) sim.setSharding(ValueId(v), start[v]);
  std::vector<int64_t> scratch(m.ops.size(), 0);
  PlanCost current = pricePlan(sim, m, space.func, device.hbmCapacity, scratch);
  ++r.evaluations;
  if (!current.feasible) return r;
  ShardingVector plan = start;
  plan.resize(m.values.size());

  auto classAllows = [&](const RefineClass &c, const std::optional<TensorSharding> &s) {
    for (uint32_t u : c.units)
      for (ValueId v : units[u].values)
        if (!allowed(v, s)) return false;
    return true;
  };
  auto assign = [&](const RefineClass &c, const std::optional<TensorSharding> &s) {
    for (uint32_t u : c.units)
      for (ValueId v : units[u].values) sim.setSharding(v, s);
  };
  auto restore = [&](const RefineClass &c) {
    for (uint32_t u : c.units)
      for (ValueId v : units[u].values) sim.setSharding(v, plan[v]);
  };
  // Add: the axis onto the name's dimension of a value without it; Remove:
  // off it; Move: from another dimension of the value onto the name's.
  enum class WindowMove { Add, Remove, Move };
  auto windowSharding = [&](const DimRef &d, const SearchAxis &axis,
                            WindowMove kind) -> std::optional<std::optional<TensorSharding>> {
    const std::optional<TensorSharding> &cur = plan[d.value];
    bool uses = false, usesHere = false;
    if (cur)
      for (size_t k = 0; k < cur->dims.size(); ++k)
        for (const AxisRef &a : cur->dims[k].axes)
          if (a.name == axis.name) {
            uses = true;
            usesHere |= k == d.dim;
          }
    if (cur && (!cur->replicated.empty() || !cur->unreduced.empty())) return std::nullopt;
    if (kind == WindowMove::Remove ? !usesHere : kind == WindowMove::Add ? uses : !uses || usesHere)
      return std::nullopt;
    TensorSharding next = cur ? *cur : TensorSharding::closed(space.meshName, size_t(m.types.rank(m.type(d.value))));
    for (DimSharding &x : next.dims)
      std::erase_if(x.axes, [&](const AxisRef &a) { return a.name == axis.name; });
    if (kind == WindowMove::Remove) {
      bool any = std::any_of(next.dims.begin(), next.dims.end(), [](const DimSharding &x) { return !x.axes.empty(); });
      std::optional<TensorSharding> out = any ? std::optional<TensorSharding>(std::move(next)) : std::nullopt;
      if (!allowed(d.value, out)) return std::nullopt;
      return out;
    }
    std::vector<AxisRef> &axes = next.dims[d.dim].axes;
    size_t p = 0;
    while (p < axes.size() && space.mesh.axisIndex(axes[p].name) < axis.meshIndex) ++p;
    axes.insert(axes.begin() + std::ptrdiff_t(p), AxisRef{axis.name, 0, 0});
    if (m.types.shape(m.type(d.value))[d.dim] % next.dims[d.dim].shardCount(space.mesh) != 0) return std::nullopt;
    if (!allowed(d.value, next)) return std::nullopt;
    return next;
  };
  // Tries one window move; keeps it when it improves the plan.
  std::vector<std::pair<ValueId, std::optional<TensorSharding>>> changed;
  auto tryWindow = [&](const std::vector<DimRef> &members, size_t from, size_t to, const SearchAxis &axis,
                       WindowMove add) {
    changed.clear();
    for (size_t i = from; i < to; ++i)
      if (std::optional<std::optional<TensorSharding>> s = windowSharding(members[i], axis, add)) {
        sim.setSharding(members[i].value, *s);
        changed.emplace_back(members[i].value, std::move(*s));
      }
    if (changed.empty()) return false;
    double step = sim.evaluate().stepSeconds;
    ++r.evaluations;
    if (step < current.stepSeconds * (1 - 1e-9)) {
      PlanCost cost = pricePlan(sim, m, space.func, device.hbmCapacity, scratch);
      if (cost.feasible && cost.betterThan(current)) {
        for (auto &[v, sh] : changed) plan[v] = std::move(sh);
        current = cost;
        ++r.moves;
        return true;
      }
    }
    for (const auto &ch : changed) sim.setSharding(ch.first, plan[ch.first]);
    return false;
  };

  // Simulated annealing (FlexFlow's MCMC over per-op strategies, here over
  // class and window moves): a random move is kept when it is faster, or
  // slower by d with probability exp(-d / T), T cooling geometrically from
  // kAnnealHot to kAnnealCold of the step time; only plans that fit are
  // entered. The best plan seen is the result. Escapes the local optimum of
  // the descent when a better plan needs several moves that are each uphill.
  auto anneal = [&] {
    uint64_t rng = mix64(options.seed ^ 0xD1B54A32D192ED03ull);
    auto next = [&] { return rng = mix64(rng + 0x9E3779B97F4A7C15ull); };
    auto below = [&](uint64_t n) { return n == 0 ? 0 : next() % n; };
    auto unit01 = [&] { return double(next() >> 11) * 0x1.0p-53; };
    ShardingVector best;
    PlanCost bestCost = current;
    bool atBest = true;
    double hot = kAnnealHot * current.stepSeconds, cold = kAnnealCold * current.stepSeconds;
    std::vector<std::pair<ValueId, std::optional<TensorSharding>>> moved;
    for (int64_t i = 0; i < options.annealSteps; ++i) {
      if ((i & 63) == 0 && Clock::now() >= deadline) {
        r.timedOut = true;
        break;
      }
      double temp = hot * std::pow(cold / hot, double(i) / double(options.annealSteps));
      moved.clear();
      bool byClass = nameMembers.empty() || (next() & 1);
      if (byClass) {
        const RefineClass &c = classes[below(classes.size())];
        const std::optional<TensorSharding> &cand = c.candidates[below(c.candidates.size())];
        if (!classAllows(c, cand)) continue;
        for (uint32_t u : c.units)
          for (ValueId v : units[u].values)
            if (plan[v] != cand) moved.emplace_back(v, cand);
      } else {
        const std::vector<DimRef> &members = nameMembers[below(nameMembers.size())];
        const SearchAxis &axis = space.axes[below(space.axes.size())];
        WindowMove kind = WindowMove(below(3));
        size_t len = size_t(1) << below(uint64_t(std::bit_width(members.size())));
        size_t from = below(members.size() - std::min(len, members.size()) + 1);
        for (size_t k = from; k < std::min(members.size(), from + len); ++k)
          if (std::optional<std::optional<TensorSharding>> sh = windowSharding(members[k], axis, kind))
            moved.emplace_back(members[k].value, std::move(*sh));
      }
      if (moved.empty()) continue;
      ++r.annealProposals;
      for (const auto &[v, sh] : moved) sim.setSharding(v, sh);
      double step = sim.evaluate().stepSeconds;
      ++r.evaluations;
      double d = step - current.stepSeconds;
      bool take = d <= 0 || unit01() < std::exp(-d / temp);
      PlanCost cost;
      if (take) {
        cost = pricePlan(sim, m, space.func, device.hbmCapacity, scratch);
        take = cost.feasible;
      }
      if (!take) {
        for (const auto &mv : moved) sim.setSharding(mv.first, plan[mv.first]);
        continue;
      }
      bool newBest = cost.betterThan(bestCost);
      if (!newBest && atBest) best = plan;  // leaving the best plan: keep it
      for (auto &[v, sh] : moved) plan[v] = std::move(sh);
      current = cost;
      atBest = newBest || (atBest && !bestCost.betterThan(cost));
      if (newBest) bestCost = cost;
      ++r.annealAccepted;
    }
    if (atBest) return;
    for (size_t v = 0; v < plan.size(); ++v)
      if (plan[v] != best[v]) sim.setSharding(ValueId(v), best[v]);
    sim.evaluate();
    plan = std::move(best);
    current = bestCost;
  };

  auto descend = [&] {
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      bool improved = false;
      for (const std::vector<DimRef> &members : nameMembers)
        for (const SearchAxis &axis : space.axes)
          for (WindowMove add : {WindowMove::Add, WindowMove::Remove, WindowMove::Move}) {
            size_t len = 1;
            while (len * 2 <= members.size()) len *= 2;
            for (; len >= 1 && !r.timedOut; len /= 2)
              for (size_t from = 0; from < members.size(); from += std::max<size_t>(1, len / 2)) {
                if (Clock::now() >= deadline) {
                  r.timedOut = true;
                  break;
                }
                improved |= tryWindow(members, from, std::min(members.size(), from + len), axis, add);
              }
          }
      for (const RefineClass &c : classes) {
        if (Clock::now() >= deadline) {
          r.timedOut = true;
          break;
        }
        int64_t pick = -1;
        PlanCost pickCost = current;
        for (size_t k = 0; k < c.candidates.size(); ++k) {
          const std::optional<TensorSharding> &cand = c.candidates[k];
          bool same = true;
          for (uint32_t u : c.units)
            for (ValueId v : units[u].values) same = same && plan[v] == cand;
          if (same || !classAllows(c, cand)) continue;
          assign(c, cand);
          double step = sim.evaluate().stepSeconds;
          ++r.evaluations;
          // The memory walk only for a faster step: most candidates are not.
          if (step < pickCost.stepSeconds * (1 - 1e-9)) {
            PlanCost cost = pricePlan(sim, m, space.func, device.hbmCapacity, scratch);
            if (cost.feasible && cost.betterThan(pickCost)) {
              pick = int64_t(k);
              pickCost = cost;
            }
          }
          restore(c);
        }
        if (pick < 0) continue;
        const std::optional<TensorSharding> &chosen = c.candidates[size_t(pick)];
        assign(c, chosen);
        for (uint32_t u : c.units)
          for (ValueId v : units[u].values) plan[v] = chosen;
        current = pickCost;
        ++r.moves;
        improved = true;
      }
      if (!improved || r.timedOut) break;
    }
  };
  descend();
  if (options.annealSteps > 0 && !r.timedOut) {
    anneal();
    descend();
  }
  if (r.moves == 0 && !current.betterThan(startCost)) return r;
  sim.evaluate();
  r.cost = current;
  for (size_t v = 0; v < plan.size(); ++v)
    if (v >= start.size() ? plan[v].has_value() : plan[v] != start[v]) ++r.changedValues;
  r.shardings = std::move(plan);
  return r;
}

}  // namespace autopart
