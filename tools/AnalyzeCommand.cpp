// `autopart analyze FILE [--mesh data=8,model=4] [--json] [--top N]`: the
// named-dimension analysis of a program: how many ops, tensor dimensions,
// names and conflicts, the decision space before and after naming (log10),
// the names covering the most bytes, and every conflict with its location.
#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "analysis/NamedDimensions.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"
#include "tools/MeshSpec.h"

namespace autopart {
namespace {

struct AnalyzeOptions {
  std::string file;
  std::string mesh;
  bool json = false;
  int top = 10;
  bool conservative = false;
};

int runAnalyze(const AnalyzeOptions &o) {
  std::unique_ptr<Module> m = loadModule(o.file);
  if (!m) return 1;
  int numAxes = 2;
  Diagnostics diags;
  if (!o.mesh.empty()) {
    std::optional<Mesh> mesh = parseMeshSpec(o.mesh, diags);
    if (!mesh) {
      printDiagnostics(diags, "autopart analyze");
      return 1;
    }
    numAxes = int(mesh->axes.size());
  } else if (auto found = findModuleMesh(*m)) {
    numAxes = int(found->second.axes.size());
  }
  RuleOptions ro;
  ro.conservativePropagation = o.conservative;
  NamedDimensions nd = analyzeNamedDimensions(*m, ro, &diags);
  for (const Diagnostic &d : diags.all()) std::cerr << d.str() << "\n";

  std::vector<NameId32> order(nd.names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = NameId32(i);
  std::stable_sort(order.begin(), order.end(), [&](NameId32 a, NameId32 b) {
    return nd.names[a].bytes > nd.names[b].bytes;
  });
  nlohmann::json j;
  j["file"] = o.file;
  j["ops"] = nd.numOps;
  j["tensor_dims"] = nd.numTensorDims;
  j["shardable_dims"] = nd.numNontrivialDims;
  j["names"] = nd.names.size();
  j["conflicts"] = nd.conflicts.size();
  j["unknown_ops"] = nd.unknownOps.size();
  j["mesh_axes"] = numAxes;
  j["log10_space_before"] = nd.log10SpaceBefore(numAxes);
  j["log10_space_after"] = nd.log10SpaceAfter(numAxes);
  nlohmann::json top = nlohmann::json::array();
  for (size_t k = 0; k < order.size() && int(k) < o.top; ++k) {
    const DimName &n = nd.names[order[k]];
    nlohmann::json members = nlohmann::json::array();
    for (size_t i = 0; i < n.members.size() && i < 6; ++i) members.push_back(describeDim(*m, n.members[i]));
    top.push_back({{"name", "n" + std::to_string(order[k])},
                   {"size", n.size},
                   {"bytes", n.bytes},
                   {"members", n.members.size()},
                   {"reduced_at", n.reducedAt.size()},
                   {"replicated_at", n.replicatedAt.size()},
                   {"examples", members}});
  }
  j["top_names"] = top;
  nlohmann::json conflicts = nlohmann::json::array();
  for (const DimConflict &c : nd.conflicts)
    conflicts.push_back({{"name", "n" + std::to_string(c.name)},
                         {"value", describeDim(*m, {c.value, c.dimA})},
                         {"dims", {c.dimA, c.dimB}},
                         {"where", c.where == kNone ? std::string("?") : m->where(c.where)},
                         {"resolutions",
                          {"keep dim " + std::to_string(c.dimA) + ", rename dim " + std::to_string(c.dimB),
                           "keep dim " + std::to_string(c.dimB) + ", rename dim " + std::to_string(c.dimA)}}});
  j["conflict_list"] = conflicts;
  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << o.file << ": " << nd.numOps << " ops, " << nd.numTensorDims << " tensor dimensions ("
            << nd.numNontrivialDims << " shardable), " << nd.names.size() << " names, "
            << nd.conflicts.size() << " conflicts, " << nd.unknownOps.size()
            << " ops without a rule (kept replicated)\n";
  std::cout << "decision space with " << numAxes << " mesh axes: 10^"
            << j["log10_space_before"].get<double>() << " before naming, 10^"
            << j["log10_space_after"].get<double>() << " after\n";
  std::cout << "top names by bytes covered:\n";
  for (const nlohmann::json &t : top) {
    std::cout << "  " << t["name"].get<std::string>() << " size " << t["size"] << " ("
              << t["members"] << " dims, " << t["bytes"] << " bytes"
              << (t["reduced_at"].get<int64_t>() ? ", reduced at " + std::to_string(t["reduced_at"].get<int64_t>()) + " ops" : "")
              << (t["replicated_at"].get<int64_t>()
                      ? ", replicated at " + std::to_string(t["replicated_at"].get<int64_t>()) + " ops"
                      : "")
              << "): ";
    bool first = true;
    for (const nlohmann::json &e : t["examples"]) {
      std::cout << (first ? "" : ", ") << e.get<std::string>();
      first = false;
    }
    if (t["members"].get<size_t>() > t["examples"].size()) std::cout << ", ...";
    std::cout << "\n";
  }
  if (!nd.conflicts.empty()) std::cout << "conflicts:\n";
  for (const nlohmann::json &c : conflicts)
    std::cout << "  " << c["where"].get<std::string>() << ": " << c["name"].get<std::string>()
              << " on dims " << c["dims"][0] << " and " << c["dims"][1] << " of "
              << c["value"].get<std::string>() << "\n";
  return 0;
}

CommandRegistration reg("analyze", "Named-dimension analysis: names, conflicts, decision space",
                        [](CLI::App &app) -> CommandRun {
                          auto o = std::make_shared<AnalyzeOptions>();
                          app.add_option("file", o->file, "StableHLO MLIR file ('-' for stdin)")->required();
                          app.add_option("--mesh", o->mesh, "Mesh axes, e.g. data=8,model=4 (sets the axis count)");
                          app.add_flag("--json", o->json, "Machine-readable output");
                          app.add_option("--top", o->top, "How many names to list");
                          app.add_flag("--conservative", o->conservative, "Rules in conservative mode");
                          return [o] { return runAnalyze(*o); };
                        });

}  // namespace
}  // namespace autopart
