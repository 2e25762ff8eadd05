#include "search/LeverSearch.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <iomanip>
#include <sstream>

#include "levers/Microbatch.h"
#include "sim/ValueCategories.h"
#include "support/Format.h"
#include "tactics/ApplySchedule.h"

namespace autopart {

std::optional<LeverProgram> prepareLeverProgram(const ModuleLoader &load, const std::string &entry,
                                                const LeverConfig &config, std::string *why) {
  LeverProgram p;
  p.config = config;
  p.module = load();
  if (!p.module) {
    *why = "the program could not be read again";
    return std::nullopt;
  }
  p.func = p.module->findEntryFunction(entry);
  if (p.func == kNone) {
    *why = "no entry function";
    return std::nullopt;
  }
  Diagnostics diags;
  if (!applyLevers(*p.module, p.func, config, p.result, diags)) {
    *why = diags.all().empty() ? "the rewrite failed" : diags.all().front().message;
    return std::nullopt;
  }
  p.names = std::make_unique<NamedDimensions>(analyzeNamedDimensions(*p.module));
  return p;
}

SearchProblem leverProblem(const LeverProgram &p, const SearchProblem &like) {
  ShardingVector base(p.module->values.size());
  seedFromInput(*p.module, p.func, base);
  return SearchProblem{*p.module, p.func, like.mesh, like.meshName, *p.names, like.device, std::move(base), like.axes};
}

void BestPlan::offer(const SearchOutcome &o, const std::string &name) {
  if (!o.found || (outcome && !o.cost.betterThan(outcome->cost))) return;
  outcome = o;
  method = name;
}

void expertPlans(const SearchProblem &problem, BestPlan &best,
                 const std::function<void(const SearchOutcome &)> &each) {
  SearchBudget quick;
  quick.progress = false;
  findSearchMethod("mcts");  // lets the providers add the experts
  for (const SearchMethodInfo &e : searchMethodRegistry()) {
    if (std::find(e.tags.begin(), e.tags.end(), "expert") == e.tags.end()) continue;
    SearchOutcome r = runSearchMethod(e, problem, quick);
    if (each) each(r);
    best.offer(r, e.name);
  }
}

namespace {

using Clock = std::chrono::steady_clock;

// Prices the expert schedules on a lever program: the best feasible one, or
// the one with the smallest peak when none fits.
LeverTrial priceWithExperts(const LeverProgram &p, const SearchProblem &like) {
  LeverTrial t;
  t.config = p.config;
  t.applied = true;
  t.note = p.result.summary;
  BestPlan best;
  expertPlans(leverProblem(p, like), best);
  bool any = best.outcome.has_value();
  if (any) {
    t.cost = best.outcome->cost;
    t.bestMethod = best.method;
  }
  if (!any) {
    t.cost.feasible = false;
    t.note += "; no expert schedule applies";
  }
  return t;
}

}  // namespace

LeverSearchResult searchLevers(const ModuleLoader &load, const std::string &entry, const SearchProblem &problem,
                               double seconds, const std::function<void(const LeverTrial &)> &onTrial) {
  LeverSearchResult out;
  Clock::time_point start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::optional<LeverProgram> best;
  PlanCost bestCost;
  int64_t closestPeak = 0;
  auto tryConfig = [&](const LeverConfig &c) {
    if (elapsed() > seconds) return false;
    Clock::time_point t0 = Clock::now();
    std::string why;
    std::optional<LeverProgram> p = prepareLeverProgram(load, entry, c, &why);
    LeverTrial t;
    if (p) {
      t = priceWithExperts(*p, problem);
    } else {
      t.config = c;
      t.note = why;
    }
    t.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    out.trials.push_back(t);
    if (onTrial) onTrial(t);
    if (p && !t.cost.feasible && (!out.closest || t.cost.peakBytes < closestPeak)) {
      closestPeak = t.cost.peakBytes;
      out.closest = std::move(p);
      return false;
    }
    if (!p || !t.cost.feasible) return false;
    if (!best || t.cost.betterThan(bestCost)) {
      best = std::move(p);
      bestCost = t.cost;
    }
    return true;
  };

  // Full recomputation saves the most; when even it does not fit, the
  // cheaper policies will not either and microbatching must help.
  if (tryConfig({RematPolicy::Full, 1})) {
    for (RematPolicy r : {RematPolicy::DotsNoBatch, RematPolicy::Selective}) tryConfig({r, 1});
  } else {
    // The fewest microbatches that fit, by bisection over the counts (peak
    // memory falls as they grow). A microbatch keeps a multiple of the
    // widest mesh axis in rows (of as much of it as divides the batch), so
    // that axis can still split it evenly.
    ValueId arg = batchArgument(problem.m, problem.func);
    int64_t batch = arg == kNone || problem.m.types.rank(problem.m.type(arg)) == 0
                        ? 0
                        : problem.m.types.shape(problem.m.type(arg))[0];
    int64_t widest = 1;
    for (const MeshAxis &a : problem.mesh.axes) widest = std::max(widest, a.size);
    // (Of the widest axis, only as much as divides the batch can split it.)
    int64_t split = std::gcd(batch, widest);
    std::vector<int64_t> counts;
    for (int64_t k = 2; k <= batch; ++k)
      if (batch % k == 0 && (batch / k) % split == 0) counts.push_back(k);
    size_t lo = 0, hi = counts.size();  // the answer is in [lo, hi]; hi: none fits
    int64_t fitK = 0;
    while (lo < hi && elapsed() <= seconds) {
      size_t mid = lo + (hi - lo) / 2;
      if (tryConfig({RematPolicy::Full, counts[mid]})) {
        fitK = counts[mid];
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    // Less recomputation at that count.
    if (fitK)
      for (RematPolicy r : {RematPolicy::DotsNoBatch, RematPolicy::Selective}) tryConfig({r, fitK});
  }
  out.chosen = std::move(best);
  if (out.chosen) out.closest.reset();
  return out;
}

bool shardingAloneHopeless(const SearchProblem &problem, BestPlan &best) {
  bool hopeless = true;
  expertPlans(problem, best, [&](const SearchOutcome &r) {
    if (r.found && double(r.cost.peakBytes) <= 2 * problem.device.hbmCapacity) hopeless = false;
  });
  return hopeless;
}

nlohmann::json leverCost(const SearchProblem &before, const BestPlan &without, const SearchProblem &after,
                         const SearchOutcome &chosen) {
  if (!without.outcome || !chosen.found) return nullptr;
  const PlanCost &b = without.outcome->cost, &a = chosen.cost;
  nlohmann::json j = {{"baseline_method", without.method},
                      {"compute_seconds_before", b.computeSeconds},
                      {"compute_seconds_after", a.computeSeconds},
                      {"peak_bytes_before", b.peakBytes},
                      {"peak_bytes_after", a.peakBytes}};
  auto categories = [](const MemoryReport &r) {
    nlohmann::json out = nlohmann::json::object();
    for (size_t k = 0; k < kNumMemoryCategories; ++k) out[memoryCategoryKey(MemoryCategory(k))] = r.breakdown[k];
    return out;
  };
  j["memory_before"] = categories(describePlanMemory(before, without.outcome->shardings));
  j["memory_after"] = categories(describePlanMemory(after, chosen.shardings));
  return j;
}

std::string formatLeverCost(const nlohmann::json &j) {
  if (j.is_null()) return "";
  double b = j["compute_seconds_before"].get<double>(), a = j["compute_seconds_after"].get<double>();
  double pb = j["peak_bytes_before"].get<double>(), pa = j["peak_bytes_after"].get<double>();
  double extra = b > 0 ? a / b - 1 : 0;
  std::ostringstream o;
  o << "  cost: " << (extra >= 0 ? "+" : "") << std::fixed << std::setprecision(0) << extra * 100 << "% compute ("
    << formatSeconds(b) << " -> " << formatSeconds(a) << "), " << formatGiB(pb - pa) << " less per device ("
    << formatGiB(pb) << " -> " << formatGiB(pa) << "), against the best plan without levers ("
    << j["baseline_method"].get<std::string>() << ")\n";
  for (const char *side : {"before", "after"}) {
    o << "  peak " << side << (side[0] == 'b' ? ": " : ":  ");
    const char *sep = "";
    for (size_t k = 0; k < kNumMemoryCategories; ++k) {
      double bytes = j[std::string("memory_") + side].value(memoryCategoryKey(MemoryCategory(k)), 0.0);
      if (bytes <= 0) continue;
      o << sep << memoryCategoryName(MemoryCategory(k)) << " " << formatGiB(bytes);
      sep = ", ";
    }
    o << "\n";
  }
  return o.str();
}

}  // namespace autopart
