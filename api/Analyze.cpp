#include "api/Analyze.h"

#include <algorithm>
#include <sstream>

#include "analysis/NamedDimensions.h"
#include "support/JsonSchema.h"

namespace autopart {

std::optional<AnalyzeResult> analyzeProgram(const AnalyzeRequest &request, Diagnostics &diags) {
  std::unique_ptr<Module> m = parseProgram(request.program, diags);
  if (!m) return std::nullopt;
  int numAxes = 2;
  if (!request.mesh.empty()) {
    std::optional<Mesh> mesh = parseMeshSpec(request.mesh, diags);
    if (!mesh) return std::nullopt;
    numAxes = int(mesh->axes.size());
  } else if (auto found = findModuleMesh(*m)) {
    numAxes = int(found->second.axes.size());
  }
  RuleOptions ro;
  ro.conservativePropagation = request.conservative;
  Diagnostics noted;
  NamedDimensions nd = analyzeNamedDimensions(*m, ro, &noted);
  AnalyzeResult result;
  result.diagnostics = noted.all();

  std::vector<NameId32> order(nd.names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = NameId32(i);
  std::stable_sort(order.begin(), order.end(), [&](NameId32 a, NameId32 b) {
    return nd.names[a].bytes > nd.names[b].bytes;
  });
  nlohmann::json &j = result.report;
  j["schema_version"] = kJsonSchemaVersion;
  j["file"] = request.reportName.empty() ? request.program.fileName : request.reportName;
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
  for (size_t k = 0; k < order.size() && int(k) < request.top; ++k) {
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
  return result;
}

std::string formatAnalyzeReport(const nlohmann::json &j) {
  std::ostringstream out;
  out << j["file"].get<std::string>() << ": " << j["ops"] << " ops, " << j["tensor_dims"]
      << " tensor dimensions (" << j["shardable_dims"] << " shardable), " << j["names"] << " names, "
      << j["conflicts"] << " conflicts, " << j["unknown_ops"] << " ops without a rule (kept replicated)\n";
  out << "decision space with " << j["mesh_axes"] << " mesh axes: 10^" << j["log10_space_before"].get<double>()
      << " before naming, 10^" << j["log10_space_after"].get<double>() << " after\n";
  out << "top names by bytes covered:\n";
  for (const nlohmann::json &t : j["top_names"]) {
    out << "  " << t["name"].get<std::string>() << " size " << t["size"] << " (" << t["members"] << " dims, "
        << t["bytes"] << " bytes"
        << (t["reduced_at"].get<int64_t>() ? ", reduced at " + std::to_string(t["reduced_at"].get<int64_t>()) + " ops"
                                           : "")
        << (t["replicated_at"].get<int64_t>()
                ? ", replicated at " + std::to_string(t["replicated_at"].get<int64_t>()) + " ops"
                : "")
        << "): ";
    bool first = true;
    for (const nlohmann::json &e : t["examples"]) {
      out << (first ? "" : ", ") << e.get<std::string>();
      first = false;
    }
    if (t["members"].get<size_t>() > t["examples"].size()) out << ", ...";
    out << "\n";
  }
  if (!j["conflict_list"].empty()) out << "conflicts:\n";
  for (const nlohmann::json &c : j["conflict_list"])
    out << "  " << c["where"].get<std::string>() << ": " << c["name"].get<std::string>() << " on dims "
        << c["dims"][0] << " and " << c["dims"][1] << " of " << c["value"].get<std::string>() << "\n";
  return out.str();
}

}  // namespace autopart
