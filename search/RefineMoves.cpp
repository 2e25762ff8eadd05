#include "search/RefineMoves.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "analysis/ArgumentRoles.h"
#include "search/Mix.h"

namespace autopart {

namespace {

constexpr int kMaxPasses = 8;
// Annealing temperatures, as fractions of the step time at its start.
constexpr double kAnnealHot = 0.01;
constexpr double kAnnealCold = 1e-5;
// A move must beat the step by more than rounding to be worth a memory walk.
constexpr double kFasterBy = 1 - 1e-9;
// The walk looks at the clock once per this many proposals.
constexpr int64_t kClockEvery = 64;

// Devices a value is split over (replicated: 1).
int64_t shardsOf(const std::optional<TensorSharding> &s, const Mesh &mesh) { return s ? s->numShards(mesh) : 1; }

// Per value, the fewest devices a data argument may be split over: as many
// as `start` splits it (at least one). 0 for every other value.
std::vector<int64_t> dataArgumentMinShards(const ActionSpace &space, const ShardingVector &start) {
  const Module &m = *space.m;
  std::vector<int64_t> minShards(m.values.size(), 0);
  std::span<const ValueId> args = FuncView{m, space.func}.args();
  std::vector<ArgumentInfo> infos = classifyArguments(m, space.func);
  for (size_t i = 0; i < args.size(); ++i)
    if (infos[i].role == ArgRole::Data) minShards[args[i]] = std::max<int64_t>(1, shardsOf(start[args[i]], space.mesh));
  return minShards;
}

}  // namespace

// The annealing walk's random stream (SplitMix64): a function of the seed
// alone, the same on every machine.
class RefineWalk::AnnealStream {
public:
  explicit AnnealStream(uint64_t seed) : state_(mix64(seed ^ 0xD1B54A32D192ED03ull)) {}
  uint64_t next() { return state_ = mix64(state_ + 0x9E3779B97F4A7C15ull); }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  double unit01() { return double(next() >> 11) * 0x1.0p-53; }

private:
  uint64_t state_;
};

RefineWalk::RefineWalk(const ActionSpace &space, const DeviceParams &device, const RefineUnits &units,
                       const ShardingVector &start, Clock::time_point deadline, RefineResult &tally)
    : space_(space), m_(*space.m), hbmCapacity_(device.hbmCapacity), units_(units), deadline_(deadline),
      tally_(tally), minShards_(dataArgumentMinShards(space, start)), sim_(simulatorFor(space, device)),
      scratch_(m_.ops.size(), 0), plan_(start) {
  for (size_t v = 0; v < start.size() && v < space.base.size(); ++v)
    if (start[v] != space.base[v]) sim_.setSharding(ValueId(v), start[v]);
  current_ = priceInFull();
  ++tally_.evaluations;
  plan_.resize(m_.values.size());
}

bool RefineWalk::allowed(ValueId v, const Candidate &s) const {
  // Inside a manual computation a value never takes one of its manual axes.
  if (s && space_.manual.conflicts(v, *s)) return false;
  return minShards_[v] == 0 || shardsOf(s, space_.mesh) >= minShards_[v];
}

bool RefineWalk::classAllows(const RefineClass &c, const Candidate &s) const {
  for (uint32_t u : c.units)
    for (ValueId v : units_.units[u].values)
      if (!allowed(v, s)) return false;
  return true;
}

void RefineWalk::applyCandidate(const RefineClass &c, const Candidate &s) {
  for (uint32_t u : c.units)
    for (ValueId v : units_.units[u].values) sim_.setSharding(v, s);
}

void RefineWalk::restore(const RefineClass &c) {
  for (uint32_t u : c.units)
    for (ValueId v : units_.units[u].values) sim_.setSharding(v, plan_[v]);
}

PlanCost RefineWalk::priceInFull() { return pricePlan(sim_, m_, space_.func, hbmCapacity_, scratch_); }

std::optional<RefineWalk::Candidate> RefineWalk::windowSharding(const DimRef &d, const SearchAxis &axis,
                                                                WindowMove kind) const {
  const Candidate &cur = plan_[d.value];
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
  TensorSharding next = cur ? *cur : TensorSharding::closed(space_.meshName, size_t(m_.types.rank(m_.type(d.value))));
  for (DimSharding &x : next.dims)
    std::erase_if(x.axes, [&](const AxisRef &a) { return a.name == axis.name; });
  if (kind == WindowMove::Remove) {
    bool any = std::any_of(next.dims.begin(), next.dims.end(), [](const DimSharding &x) { return !x.axes.empty(); });
    Candidate out = any ? Candidate(std::move(next)) : std::nullopt;
    if (!allowed(d.value, out)) return std::nullopt;
    return out;
  }
  // The axis goes among the dimension's axes in mesh order.
  std::vector<AxisRef> &axes = next.dims[d.dim].axes;
  size_t p = 0;
  while (p < axes.size() && space_.mesh.axisIndex(axes[p].name) < axis.meshIndex) ++p;
  axes.insert(axes.begin() + std::ptrdiff_t(p), AxisRef{axis.name, 0, 0});
  if (m_.types.shape(m_.type(d.value))[d.dim] % next.dims[d.dim].shardCount(space_.mesh) != 0) return std::nullopt;
  if (!allowed(d.value, next)) return std::nullopt;
  return next;
}

bool RefineWalk::tryWindow(const std::vector<DimRef> &members, size_t from, size_t to, const SearchAxis &axis,
                           WindowMove kind) {
  changed_.clear();
  for (size_t i = from; i < to; ++i)
    if (std::optional<Candidate> s = windowSharding(members[i], axis, kind)) {
      sim_.setSharding(members[i].value, *s);
      changed_.emplace_back(members[i].value, std::move(*s));
    }
  if (changed_.empty()) return false;
  double step = sim_.evaluate().stepSeconds;
  ++tally_.evaluations;
  if (step < current_.stepSeconds * kFasterBy) {
    PlanCost cost = priceInFull();
    if (cost.feasible && cost.betterThan(current_)) {
      for (auto &[v, sh] : changed_) plan_[v] = std::move(sh);
      current_ = cost;
      ++tally_.moves;
      return true;
    }
  }
  for (const Change &ch : changed_) sim_.setSharding(ch.first, plan_[ch.first]);
  return false;
}

bool RefineWalk::sweepWindows(const std::vector<DimRef> &members, const SearchAxis &axis, WindowMove kind) {
  bool improved = false;
  size_t len = 1;
  while (len * 2 <= members.size()) len *= 2;
  // The whole name first: adding an axis there is ShardName on every member
  // that can take it. The tree search cannot apply ShardName while any
  // member uses the axis elsewhere (pt_bert_base on data=2,model=4: the
  // hidden name n1 on "model" once MLP hidden has put "model" on the
  // weights, so the activations split 8-way over "data" and "model" while
  // each weight is split 2-D, as the ILP's plan does).
  if (len < members.size() && Clock::now() < deadline_)
    improved |= tryWindow(members, 0, members.size(), axis, kind);
  for (; len >= 1 && !tally_.timedOut; len /= 2)
    for (size_t from = 0; from < members.size(); from += std::max<size_t>(1, len / 2)) {
      if (Clock::now() >= deadline_) {
        tally_.timedOut = true;
        break;
      }
      improved |= tryWindow(members, from, std::min(members.size(), from + len), axis, kind);
    }
  return improved;
}

bool RefineWalk::descendWindows() {
  bool improved = false;
  for (const std::vector<DimRef> &members : units_.nameMembers)
    for (const SearchAxis &axis : space_.axes)
      for (WindowMove kind : {WindowMove::Add, WindowMove::Remove, WindowMove::Move})
        improved |= sweepWindows(members, axis, kind);
  return improved;
}

bool RefineWalk::moveClass(const RefineClass &c) {
  int64_t pick = -1;
  PlanCost pickCost = current_;
  for (size_t k = 0; k < c.candidates.size(); ++k) {
    const Candidate &cand = c.candidates[k];
    bool same = true;
    for (uint32_t u : c.units)
      for (ValueId v : units_.units[u].values) same = same && plan_[v] == cand;
    if (same || !classAllows(c, cand)) continue;
    applyCandidate(c, cand);
    double step = sim_.evaluate().stepSeconds;
    ++tally_.evaluations;
    // The memory walk only for a faster step: most candidates are not.
    if (step < pickCost.stepSeconds * kFasterBy) {
      PlanCost cost = priceInFull();
      if (cost.feasible && cost.betterThan(pickCost)) {
        pick = int64_t(k);
        pickCost = cost;
      }
    }
    restore(c);
  }
  if (pick < 0) return false;
  const Candidate &chosen = c.candidates[size_t(pick)];
  applyCandidate(c, chosen);
  for (uint32_t u : c.units)
    for (ValueId v : units_.units[u].values) plan_[v] = chosen;
  current_ = pickCost;
  ++tally_.moves;
  return true;
}

bool RefineWalk::descendClasses() {
  bool improved = false;
  for (const RefineClass &c : units_.classes) {
    if (Clock::now() >= deadline_) {
      tally_.timedOut = true;
      break;
    }
    improved |= moveClass(c);
  }
  return improved;
}

void RefineWalk::descend() {
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    bool improved = descendWindows();
    improved |= descendClasses();
    if (!improved || tally_.timedOut) return;
  }
}

void RefineWalk::proposeClassMove(AnnealStream &rng, std::vector<Change> &moved) const {
  // Without classes there is nothing to draw (name windows only).
  if (units_.classes.empty()) return;
  const RefineClass &c = units_.classes[rng.below(units_.classes.size())];
  const Candidate &cand = c.candidates[rng.below(c.candidates.size())];
  if (!classAllows(c, cand)) return;
  for (uint32_t u : c.units)
    for (ValueId v : units_.units[u].values)
      if (plan_[v] != cand) moved.emplace_back(v, cand);
}

void RefineWalk::proposeWindowMove(AnnealStream &rng, std::vector<Change> &moved) const {
  const std::vector<DimRef> &members = units_.nameMembers[rng.below(units_.nameMembers.size())];
  const SearchAxis &axis = space_.axes[rng.below(space_.axes.size())];
  WindowMove kind = WindowMove(rng.below(3));
  size_t len = size_t(1) << rng.below(uint64_t(std::bit_width(members.size())));
  size_t from = rng.below(members.size() - std::min(len, members.size()) + 1);
  for (size_t k = from; k < std::min(members.size(), from + len); ++k)
    if (std::optional<Candidate> sh = windowSharding(members[k], axis, kind))
      moved.emplace_back(members[k].value, std::move(*sh));
}

bool RefineWalk::takeAnnealMove(AnnealStream &rng, std::vector<Change> &moved, double temp, AnnealBest &best) {
  ++tally_.annealProposals;
  for (const auto &[v, sh] : moved) sim_.setSharding(v, sh);
  double step = sim_.evaluate().stepSeconds;
  ++tally_.evaluations;
  double d = step - current_.stepSeconds;
  bool take = d <= 0 || rng.unit01() < std::exp(-d / temp);
  PlanCost cost;
  if (take) {
    cost = priceInFull();
    take = cost.feasible;
  }
  if (!take) {
    for (const Change &mv : moved) sim_.setSharding(mv.first, plan_[mv.first]);
    return false;
  }
  bool newBest = cost.betterThan(best.cost);
  if (!newBest && best.atBest) best.plan = plan_;  // leaving the best plan: keep it
  for (auto &[v, sh] : moved) plan_[v] = std::move(sh);
  current_ = cost;
  best.atBest = newBest || (best.atBest && !best.cost.betterThan(cost));
  if (newBest) best.cost = cost;
  ++tally_.annealAccepted;
  return true;
}

void RefineWalk::anneal(int64_t steps, uint64_t seed) {
  AnnealStream rng(seed);
  AnnealBest best{{}, current_, true};
  double hot = kAnnealHot * current_.stepSeconds, cold = kAnnealCold * current_.stepSeconds;
  std::vector<Change> moved;
  for (int64_t i = 0; i < steps; ++i) {
    if (i % kClockEvery == 0 && Clock::now() >= deadline_) {
      tally_.timedOut = true;
      break;
    }
    double temp = hot * std::pow(cold / hot, double(i) / double(steps));
    moved.clear();
    bool byClass = units_.nameMembers.empty() || (rng.next() & 1);
    if (byClass)
      proposeClassMove(rng, moved);
    else
      proposeWindowMove(rng, moved);
    if (!moved.empty()) takeAnnealMove(rng, moved, temp, best);
  }
  if (best.atBest) return;
  for (size_t v = 0; v < plan_.size(); ++v)
    if (plan_[v] != best.plan[v]) sim_.setSharding(ValueId(v), best.plan[v]);
  sim_.evaluate();
  plan_ = std::move(best.plan);
  current_ = best.cost;
}

}  // namespace autopart
