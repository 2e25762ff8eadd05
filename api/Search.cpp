#include "api/Search.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include <unistd.h>

#include "api/InputShardings.h"
#include "asm/Parser.h"
#include "export/AnnotateModule.h"
#include "export/CheckWritten.h"
#include "export/PartitionSpecs.h"
#include "export/PinPlan.h"
#include "export/PreserveText.h"
#include "search/LeverSearch.h"
#include "sim/Hardware.h"
#include "support/Format.h"
#include "support/JsonSchema.h"

namespace autopart {

namespace {

bool hasTag(const SearchMethodInfo &m, const std::string &tag) {
  return std::find(m.tags.begin(), m.tags.end(), tag) != m.tags.end();
}

// `mcts,expert` -> the methods in that order; groups: all, expert, baseline.
std::vector<const SearchMethodInfo *> selectMethods(const std::string &spec, std::string *error) {
  std::vector<const SearchMethodInfo *> out;
  auto add = [&](const SearchMethodInfo *m) {
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  };
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    if (item == "all" || item == "expert" || item == "baseline") {
      if (item == "all") add(findSearchMethod("mcts"));
      for (const SearchMethodInfo &m : searchMethodRegistry())
        if (item == "all" || hasTag(m, item)) add(&m);
      continue;
    }
    const SearchMethodInfo *m = findSearchMethod(item);
    if (!m) {
      *error = "unknown method '" + item + "' (known:";
      for (const SearchMethodInfo &k : searchMethodRegistry()) *error += " " + k.name;
      *error += ", expert, baseline, all)";
      return {};
    }
    add(m);
  }
  if (out.empty()) *error = "no method given";
  return out;
}


}  // namespace

bool searchMethodsValid(const std::string &method, Diagnostics &diags) {
  std::string err;
  if (!selectMethods(method, &err).empty()) return true;
  diags.error("--method: " + err);
  return false;
}

SearchResult searchProgram(const SearchRequest &request, Diagnostics &diags) {
  SearchResult sr;
  std::string err;
  std::vector<const SearchMethodInfo *> methods = selectMethods(request.method, &err);
  if (methods.empty()) {
    diags.error("--method: " + err);
    return sr;
  }
  std::unique_ptr<Module> m = parseVerifiedProgram(request.program, diags);
  if (!m) return sr;
  std::string meshName;
  std::optional<Mesh> mesh =
      resolveRequestMesh(m, request.mesh, request.inputShardings, diags, sr.notes, &meshName);
  if (!mesh) return sr;
  Diagnostics local;
  std::optional<Hardware> hw = loadHardware(request.device, local);
  if (!hw) {
    addWithOption(diags, local, "--device");
    return sr;
  }
  OpId func = findPlannableEntry(*m, request.function, diags);
  if (func == kNone) return sr;

  NamedDimensions names = analyzeNamedDimensions(*m, {}, &local);
  addNotes(sr.notes, local);
  ShardingVector base(m->values.size());
  // The input's shardings, completed as XLA would, are fixed constraints.
  CompletionStats completion;
  if (!seedInputShardings(*m, func, request.propagate, base, diags, &completion)) return sr;
  SearchProblem problem{*m, func, *mesh, meshName, names, hardwareDeviceParams(*hw, *mesh), base, {}};
  const SearchBudget &budget = request.budget;

  // Memory levers: given (`--levers remat:full,microbatch:8`), or chosen
  // when the first method's plan does not fit (`auto`, search/LeverSearch.h).
  std::string source = *m->source, fileName = m->fileName;
  ModuleLoader reload = [&]() -> std::unique_ptr<Module> {
    ParseError perr;
    return parseModule(source, fileName, &perr);
  };
  std::optional<LeverProgram> leverProgram;
  LeverSearchResult leverSearch;
  std::optional<SearchProblem> leverSearchProblem;
  std::vector<SearchOutcome> results;
  BestPlan withoutLevers;  // to say what the levers cost
  auto runAll = [&](const SearchProblem &pr, const SearchBudget &b) {
    results.clear();
    for (const SearchMethodInfo *method : methods) results.push_back(runSearchMethod(*method, pr, b));
  };
  if (request.levers != "auto" && request.levers != "none") {
    std::vector<std::string> entries;
    std::stringstream ss(request.levers);
    for (std::string e; std::getline(ss, e, ',');)
      if (!e.empty()) entries.push_back(e);
    std::optional<LeverConfig> config = parseLevers(entries, local);
    if (!config) {
      addWithOption(diags, local, "--levers");
      return sr;
    }
    std::string why;
    leverProgram = prepareLeverProgram(reload, request.function, *config, &why);
    if (!leverProgram) {
      diags.error("--levers: " + why);
      return sr;
    }
    leverSearchProblem.emplace(leverProblem(*leverProgram, problem));
    runAll(*leverSearchProblem, budget);
  } else {
    // When no expert plan comes within twice the device's memory, sharding
    // alone will not fit either: go to the levers without searching first.
    bool hopeless = request.levers == "auto" && shardingAloneHopeless(problem, withoutLevers);
    if (!hopeless) {
      runAll(problem, budget);
      for (size_t i = 0; i < methods.size(); ++i) withoutLevers.offer(results[i], methods[i]->name);
    }
    if (request.levers == "auto" && (hopeless || (results[0].found && !results[0].cost.feasible))) {
      // The trials may take seconds each: on a terminal (and to a progress
      // callback) each is told as it ends.
      bool line = budget.progress && isatty(2);
      if (line) std::fprintf(stderr, "no plan fits: trying memory levers\n");
      else if (budget.progress) sr.notes.push_back({"no plan fits: trying memory levers", std::nullopt});
      auto leverStart = std::chrono::steady_clock::now();
      auto onTrial = [&](const LeverTrial &t) {
        SearchProgress p;
        p.phase = "levers " + formatLevers(t.config);
        p.bestStepSeconds = t.cost.stepSeconds;
        p.bestPeakBytes = t.cost.peakBytes;
        p.bestFits = t.applied && t.cost.feasible;
        p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - leverStart).count();
        if (line) {
          std::string outcome = !t.applied ? "not applicable: " + t.note
                                           : formatSeconds(t.cost.stepSeconds) + ", " +
                                                 formatGiB(double(t.cost.peakBytes)) +
                                                 (t.cost.feasible ? ", fits" : ", does not fit");
          std::fprintf(stderr, "  %-34s %s (%.1f s)\n", formatLevers(t.config).c_str(), outcome.c_str(), t.seconds);
        }
        if (budget.onProgress) budget.onProgress(p);
      };
      leverSearch = searchLevers(reload, request.function, problem, budget.seconds, onTrial);
      if (leverSearch.chosen) {
        leverProgram = std::move(leverSearch.chosen);
        leverSearchProblem.emplace(leverProblem(*leverProgram, problem));
        runAll(*leverSearchProblem, budget);
      } else if (leverSearch.closest) {
        // No expert plan fits under any configuration tried: the search
        // may still find one on the closest; else keep the plans without.
        std::vector<SearchOutcome> without = results;
        SearchProblem closest = leverProblem(*leverSearch.closest, problem);
        runAll(closest, budget);
        if (results[0].found && results[0].cost.feasible) {
          leverProgram = std::move(leverSearch.closest);
          leverSearchProblem.emplace(leverProblem(*leverProgram, problem));
        } else if (hopeless) {
          runAll(problem, budget);
        } else {
          results = std::move(without);
        }
      } else if (hopeless) {
        runAll(problem, budget);
      }
    }
  }
  const SearchProblem &finalProblem = leverSearchProblem ? *leverSearchProblem : problem;
  Module &out = leverProgram ? *leverProgram->module : *m;
  OpId outFunc = leverProgram ? leverProgram->func : func;

  nlohmann::json &j = sr.report;
  j["schema_version"] = kJsonSchemaVersion;
  j["mesh"] = mesh->str();
  j["devices"] = mesh->numDevices();
  j["device"] = problem.device.name;
  j["hbm_bytes"] = int64_t(problem.device.hbmCapacity);
  j["names"] = finalProblem.names.names.size();
  j["input_shardings"] = {{"user", completion.userShardings},
                          {"propagated", completion.propagated},
                          {"updates", completion.propagation.updates},
                          {"per_use_values", completion.perUseValues}};
  j["actions"] = buildActionSpace(finalProblem).size();
  j["levers"] = leverProgram ? formatLevers(leverProgram->config) : "none";
  if (leverProgram) j["levers_summary"] = leverProgram->result.summary;
  // What the levers cost and bought, against the best plan without them,
  // and what the peak is made of before and after.
  nlohmann::json cost = leverProgram ? leverCost(problem, withoutLevers, finalProblem, results[0]) : nullptr;
  if (!cost.is_null()) j["levers_cost"] = cost;
  j["lever_trials"] = nlohmann::json::array();
  for (const LeverTrial &t : leverSearch.trials)
    j["lever_trials"].push_back({{"levers", formatLevers(t.config)}, {"applied", t.applied}, {"note", t.note},
                                 {"best_expert", t.bestMethod}, {"step_seconds", t.cost.stepSeconds},
                                 {"peak_bytes", t.cost.peakBytes}, {"fits", t.applied && t.cost.feasible},
                                 {"seconds", t.seconds}});
  j["results"] = nlohmann::json::array();
  for (size_t i = 0; i < methods.size(); ++i) {
    const SearchOutcome &r = results[i];
    nlohmann::json e = {{"method", methods[i]->name}, {"found", r.found}, {"search_seconds", r.seconds},
                        {"evaluations", r.evaluations}, {"iterations", r.iterations}, {"complete", r.complete},
                        {"note", r.note}};
    if (r.found) {
      e["step_seconds"] = r.cost.stepSeconds;
      e["compute_seconds"] = r.cost.computeSeconds;
      e["communication_seconds"] = r.cost.commSeconds;
      e["peak_bytes"] = r.cost.peakBytes;
      e["fits"] = r.cost.feasible;
      e["actions"] = r.actions;
    }
    j["results"].push_back(e);
  }
  j["chosen"] = methods[0]->name;

  if (request.annotate) {
    const SearchOutcome &r = results[0];
    if (!r.found) {
      diags.error("-o: method '" + methods[0]->name + "' found no plan: " + r.note);
      sr.failure = 2;
      return sr;
    }
    auto current = [&](ValueId v) -> const TensorSharding * { return r.shardings[v] ? &*r.shardings[v] : nullptr; };
    AnnotateOptions annotate;
    annotate.meshName = meshName;
    annotatePlan(out, outFunc, *mesh, annotate, current);
    // As `autopart plan`: pin what XLA's propagation would otherwise change.
    if (!pinAgainstPropagation(out, outFunc, meshName, current, diags)) return sr;
    std::string note;
    sr.text = plannedModuleText(out, request.reprint || leverProgram.has_value(), &note);
    if (!note.empty()) sr.notes.push_back({note, std::nullopt});
    if (!checkWrittenProgram(sr.text, request.program.fileName + " (as planned)", diags)) {
      sr.failure = 3;
      return sr;
    }
    sr.specs = functionPartitionSpecs(out, outFunc, *mesh, current);
  }
  sr.ok = true;
  return sr;
}

std::string formatSearchReport(const nlohmann::json &j) {
  std::ostringstream os;
  os << "mesh " << j["mesh"].get<std::string>() << " (" << j["devices"] << " devices), device "
     << j["device"].get<std::string>() << " (" << formatGiB(j["hbm_bytes"].get<double>()) << "), " << j["names"]
     << " names, " << j["actions"] << " actions\n";
  if (!j["lever_trials"].empty()) {
    os << "\nno plan fits without memory levers; tried (priced with the expert schedules):\n";
    for (const nlohmann::json &t : j["lever_trials"]) {
      os << "  " << std::left << std::setw(30) << t["levers"].get<std::string>() << std::right;
      if (!t["applied"].get<bool>()) {
        os << " not applicable: " << t["note"].get<std::string>() << "\n";
        continue;
      }
      os << std::setw(13) << formatSeconds(t["step_seconds"].get<double>()) << std::setw(13)
         << formatGiB(double(t["peak_bytes"].get<int64_t>())) << std::setw(6) << (t["fits"].get<bool>() ? "yes" : "NO")
         << "  " << t["best_expert"].get<std::string>() << " (" << formatSeconds(t["seconds"].get<double>()) << ")\n";
    }
  }
  if (j.contains("levers_summary")) {
    os << "levers " << j["levers"].get<std::string>() << ": " << j["levers_summary"].get<std::string>() << "\n";
    os << formatLeverCost(j.contains("levers_cost") ? j["levers_cost"] : nlohmann::json(nullptr));
  }
  os << "\n";
  os << std::left << std::setw(15) << "method" << std::right << std::setw(13) << "step" << std::setw(13) << "compute"
     << std::setw(13) << "comm" << std::setw(13) << "peak mem" << std::setw(6) << "fits" << std::setw(12) << "search"
     << std::setw(9) << "evals" << "  note\n";
  for (const nlohmann::json &r : j["results"]) {
    os << std::left << std::setw(15) << r["method"].get<std::string>() << std::right;
    if (!r["found"].get<bool>()) {
      os << std::setw(13) << "-" << std::setw(13) << "-" << std::setw(13) << "-" << std::setw(13) << "-"
         << std::setw(6) << "-";
    } else {
      os << std::setw(13) << formatSeconds(r["step_seconds"].get<double>()) << std::setw(13)
         << formatSeconds(r["compute_seconds"].get<double>()) << std::setw(13)
         << formatSeconds(r["communication_seconds"].get<double>()) << std::setw(13)
         << formatGiB(double(r["peak_bytes"].get<int64_t>())) << std::setw(6) << (r["fits"].get<bool>() ? "yes" : "NO");
    }
    os << std::setw(12) << formatSeconds(r["search_seconds"].get<double>()) << std::setw(9) << r["evaluations"].get<int64_t>() << "  "
       << r["note"].get<std::string>() << "\n";
  }
  const nlohmann::json &chosen = j["results"][0];
  if (chosen["found"].get<bool>()) {
    os << "\n" << j["chosen"].get<std::string>() << " plan:\n";
    if (chosen["actions"].empty()) os << "  (nothing sharded)\n";
    for (const nlohmann::json &a : chosen["actions"]) os << "  " << a.get<std::string>() << "\n";
  }
  return os.str();
}

}  // namespace autopart
