#include "search/SearchMethod.h"

#include <algorithm>
#include <chrono>

namespace autopart {

namespace {

struct Registry {
  std::vector<SearchMethodInfo> methods;
  std::vector<SearchMethodProvider> pending;  // providers not run yet
};

Registry &registry() {
  static Registry r;
  return r;
}

}  // namespace

std::vector<SearchMethodInfo> &searchMethodRegistry() {
  Registry &r = registry();
  std::vector<SearchMethodProvider> pending = std::move(r.pending);
  r.pending.clear();
  for (const SearchMethodProvider &provide : pending) provide(r.methods);
  return r.methods;
}

const SearchMethodInfo *findSearchMethod(const std::string &name) {
  for (const SearchMethodInfo &m : searchMethodRegistry())
    if (m.name == name) return &m;
  return nullptr;
}

SearchMethodRegistration::SearchMethodRegistration(std::string name, std::string description,
                                                   std::vector<std::string> tags, SearchMethodFn run, int listRank) {
  std::vector<SearchMethodInfo> &r = registry().methods;
  auto at = std::find_if(r.begin(), r.end(), [&](const SearchMethodInfo &m) { return m.listRank > listRank; });
  r.insert(at, SearchMethodInfo{std::move(name), std::move(description), std::move(tags), std::move(run), listRank});
}

SearchMethodProviderRegistration::SearchMethodProviderRegistration(SearchMethodProvider provide) {
  registry().pending.push_back(std::move(provide));
}

ActionSpace buildActionSpace(const SearchProblem &p) {
  return ActionSpace::build(p.m, p.func, p.names, p.mesh, p.meshName, p.axes, p.base);
}

PlanCost priceShardings(const SearchProblem &p, const ShardingVector &shardings) {
  ActionSpace space = ActionSpace::build(p.m, p.func, p.names, p.mesh, p.meshName, p.axes, shardings);
  SearchState st(space, p.device);
  return st.evaluate();
}

MemoryReport describePlanMemory(const SearchProblem &p, const ShardingVector &shardings) {
  ActionSpace space = ActionSpace::build(p.m, p.func, p.names, p.mesh, p.meshName, p.axes, shardings);
  Simulator sim = simulatorFor(space, p.device);
  sim.evaluate();
  std::vector<int64_t> transient(p.m.ops.size(), 0);
  for (size_t i = 0; i < sim.sites().size(); ++i)
    for (const Collective &c : sim.siteCost(i).collectives) transient[sim.sites()[i].op] += c.bytes;
  return analyzeMemory(p.m, p.func, sim.shardings(), [&](OpId op) { return transient[op]; });
}

SearchOutcome runSearchMethod(const SearchMethodInfo &method, const SearchProblem &problem,
                              const SearchBudget &budget) {
  auto start = std::chrono::steady_clock::now();
  SearchOutcome out = method.run(problem, budget);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (out.found) {
    out.shardings.resize(problem.m.values.size());
    out.cost = priceShardings(problem, out.shardings);
  }
  return out;
}

}  // namespace autopart
