// `autopart stats FILE [--json]`: what a program is made of, per function:
// op histogram, arguments split into parameters / optimizer state / data with
// their bytes, total FLOPs (sim/Flops.h) and the largest tensors.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis/ArgumentRoles.h"
#include "sim/Flops.h"
#include "support/Format.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"

namespace autopart {
namespace {

struct StatsOptions {
  std::string file;
  bool json = false;
  int top = 5;
};

std::string humanCount(double f) {
  const char *units[] = {"", "K", "M", "G", "T", "P", "E"};
  int u = 0;
  while (f >= 1000 && u < 6) {
    f /= 1000;
    ++u;
  }
  std::ostringstream s;
  s << std::fixed << std::setprecision(u ? 2 : 0) << f << units[u];
  return s.str();
}

nlohmann::json functionStats(const Module &m, OpId func, int top) {
  FuncView f{m, func};
  std::map<std::string, int64_t> histogram;
  double flops = 0;
  int64_t numOps = 0;
  bool dynamic = false;
  // Only the top few are described, so candidates stay 16 bytes each:
  // (bytes, op result) or (bytes, argument index).
  struct Big {
    int64_t bytes;
    uint32_t op;     // kNone for arguments
    uint32_t index;  // result or argument number
  };
  std::vector<Big> big;
  m.walk(func, [&](OpId op) {
    ++numOps;
    ++histogram[std::string(m.opName(op))];
    flops += opFlops(m, op);
    for (uint32_t i = 0; i < m.numResults(op); ++i) {
      TypeId t = m.type(m.result(op, i));
      dynamic |= m.types.hasDynamicDim(t);
      big.push_back({m.types.byteSize(t), op, i});
    }
  });
  std::vector<ArgumentInfo> args = classifyArguments(m, func);
  nlohmann::json j;
  j["name"] = std::string(f.name());
  j["ops"] = numOps;
  j["flops"] = flops;
  j["dynamic_shapes"] = dynamic;
  nlohmann::json byRole = nlohmann::json::object();
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgumentInfo &a = args[i];
    nlohmann::json &r = byRole[roleName(a.role)];
    if (r.is_null()) r = {{"count", 0}, {"bytes", int64_t(0)}};
    r["count"] = r["count"].get<int64_t>() + 1;
    r["bytes"] = r["bytes"].get<int64_t>() + a.bytes;
    big.push_back({a.bytes, kNone, uint32_t(i)});
  }
  j["arguments"] = {{"count", args.size()}, {"by_role", byRole}};
  std::vector<std::pair<std::string, int64_t>> hist(histogram.begin(), histogram.end());
  std::sort(hist.begin(), hist.end(), [](auto &a, auto &b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  nlohmann::json h = nlohmann::json::array();
  for (auto &[name, n] : hist) h.push_back({{"op", name}, {"count", n}});
  j["histogram"] = h;
  size_t shown = std::min(big.size(), size_t(std::max(top, 0)));
  std::partial_sort(big.begin(), big.begin() + ptrdiff_t(shown), big.end(),
                    [](const Big &a, const Big &b) {
                      return a.bytes != b.bytes ? a.bytes > b.bytes : a.op < b.op;
                    });
  nlohmann::json largest = nlohmann::json::array();
  for (size_t i = 0; i < shown; ++i) {
    const Big &b = big[i];
    ValueId v = b.op == kNone ? f.args()[b.index] : m.result(b.op, b.index);
    std::string where = b.op == kNone ? "argument " + args[b.index].name
                                      : std::string(m.opName(b.op)) + " at " + m.where(b.op);
    largest.push_back({{"bytes", b.bytes}, {"type", std::string(m.types.str(m.type(v)))}, {"where", where}});
  }
  j["largest_tensors"] = largest;
  return j;
}

int runStats(const StatsOptions &o) {
  std::unique_ptr<Module> m = loadModule(o.file);
  if (!m) return 1;
  nlohmann::json all = nlohmann::json::array();
  std::vector<OpId> funcs;
  m->walk(m->top, [&](OpId op) {
    if (m->isa(op, "func.func") && m->numRegions(op) && !m->regions[m->region(op, 0)].blocks.empty())
      funcs.push_back(op);
  });
  for (OpId f : funcs) all.push_back(functionStats(*m, f, o.top));
  if (o.json) {
    std::cout << nlohmann::json{{"file", o.file}, {"functions", all}}.dump(2) << "\n";
    return 0;
  }
  for (const nlohmann::json &f : all) {
    std::cout << "func @" << f["name"].get<std::string>() << ": " << f["ops"] << " ops, "
              << humanCount(f["flops"].get<double>()) << "FLOP";
    if (f["dynamic_shapes"].get<bool>()) std::cout << " (dynamic shapes: unsupported by planning)";
    std::cout << "\n  arguments: " << f["arguments"]["count"];
    for (auto &[role, r] : f["arguments"]["by_role"].items())
      std::cout << ", " << r["count"] << " " << role << " (" << formatBytes(r["bytes"].get<double>()) << ")";
    std::cout << "\n  ops:";
    int shown = 0;
    for (const nlohmann::json &h : f["histogram"]) {
      if (shown++ == 12) {
        std::cout << " ...";
        break;
      }
      std::cout << " " << h["op"].get<std::string>() << "=" << h["count"];
    }
    std::cout << "\n  largest tensors:\n";
    for (const nlohmann::json &t : f["largest_tensors"])
      std::cout << "    " << std::setw(10) << formatBytes(t["bytes"].get<double>()) << "  "
                << t["type"].get<std::string>() << "  " << t["where"].get<std::string>() << "\n";
  }
  return 0;
}

CommandRegistration reg("stats", "Op histogram, argument bytes, FLOPs and largest tensors",
                        [](CLI::App &app) -> CommandRun {
                          auto o = std::make_shared<StatsOptions>();
                          app.add_option("file", o->file, "StableHLO MLIR file ('-' for stdin)")->required();
                          app.add_flag("--json", o->json, "Machine-readable output");
                          app.add_option("--top", o->top, "How many largest tensors to list");
                          return [o] { return runStats(*o); };
                        });

}  // namespace
}  // namespace autopart
