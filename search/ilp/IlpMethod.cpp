// `autopart search --method ilp`: the ILP baseline (search/ilp/IlpBaseline.h)
// registered as a planning method. The driver prices its plan with the same
// simulator as every other method, so the table compares like with like; the
// ILP's own objective is reported in the note.
#include <sstream>

#include "search/SearchMethod.h"
#include "support/Format.h"
#include "search/ilp/IlpBaseline.h"

namespace autopart {
namespace {

SearchOutcome runIlp(const SearchProblem &p, const SearchBudget &budget) {
  SearchOutcome out;
  IlpOptions opts;
  opts.timeLimitSeconds = budget.seconds;
  std::string error;
  std::optional<IlpPlan> plan = solveIlpPlan(p.m, p.func, p.mesh, p.meshName, p.device, opts, &error);
  if (!plan) {
    out.found = false;
    out.note = error;
    return out;
  }
  // The ILP decides every tensor; where it left a value open the start state
  // (earlier tactics, input annotations) stands.
  out.shardings = p.base;
  out.shardings.resize(std::max(out.shardings.size(), plan->shardings.size()));
  for (size_t v = 0; v < plan->shardings.size(); ++v)
    if (plan->shardings[v]) out.shardings[v] = plan->shardings[v];
  // The ILP has no actions; say how many tensors it shards and list the
  // entry arguments among them.
  size_t shardedValues = 0, decided = 0;
  for (const std::optional<TensorSharding> &s : plan->shardings) {
    if (!s) continue;
    ++decided;
    for (const DimSharding &d : s->dims)
      if (!d.axes.empty()) {
        ++shardedValues;
        break;
      }
  }
  out.actions.push_back(std::to_string(shardedValues) + " of " + std::to_string(decided) +
                        " tensors sharded");
  FuncView f{p.m, p.func};
  for (size_t i = 0; i < f.args().size(); ++i) {
    ValueId v = f.args()[i];
    if (v >= plan->shardings.size() || !plan->shardings[v]) continue;
    const TensorSharding &s = *plan->shardings[v];
    bool sharded = false;
    for (const DimSharding &d : s.dims) sharded |= !d.axes.empty();
    if (sharded) out.actions.push_back("%arg" + std::to_string(i) + " " + s.strBody());
  }
  out.complete = plan->provedOptimal;
  out.iterations = plan->solves;
  std::ostringstream note;
  note << plan->numBinaries << " binaries, " << plan->numConstraints << " rows, objective "
       << plan->objectiveSeconds * 1e3 << " ms" << (plan->provedOptimal ? " (optimal)" : " (time limit)")
       << "; built in " << formatSeconds(plan->buildSeconds) << ", solved in " << formatSeconds(plan->solveSeconds);
  if (!p.axes.empty()) note << "; uses every mesh axis (--axes is not supported by the ILP)";
  out.note = note.str();
  return out;
}

// Listed before the methods of search/Methods.cpp (first of the baselines),
// as it was when this file sat beside it and linked first.
constexpr int kListBeforeBuiltins = -1;

SearchMethodRegistration registration("ilp", "Alpa-style ILP over per-op strategies with a memory constraint (CBC)",
                                      {"baseline"}, runIlp, kListBeforeBuiltins);

}  // namespace
}  // namespace autopart
