#include "api/Program.h"

#include <cctype>
#include <sstream>

#include "asm/Parser.h"
#include "ir/ValueSharding.h"
#include "verify/DeviceCount.h"
#include "verify/Verifier.h"
#include "xla/ImportPipeline.h"

namespace autopart {

void addNotes(std::vector<Note> &notes, Diagnostics &diags) {
  for (const Diagnostic &d : diags.all()) notes.push_back({"", d});
  diags.clear();
}

void addWithOption(Diagnostics &to, Diagnostics &from, const std::string &option) {
  for (Diagnostic d : from.all()) {
    if (d.file.empty()) d.message = option + ": " + d.message;
    to.emit(d.severity, d.file, d.line, d.col, d.message);
  }
  from.clear();
}

std::unique_ptr<Module> parseProgram(ProgramText program, Diagnostics &diags) {
  ParseError perr;
  std::unique_ptr<Module> m = parseModule(std::move(program.text), program.fileName, &perr);
  if (!m) diags.emit(Severity::Error, program.fileName, perr.line, perr.col, perr.message);
  return m;
}

std::unique_ptr<Module> parseVerifiedProgram(ProgramText program, Diagnostics &diags) {
  std::unique_ptr<Module> m = parseProgram(std::move(program), diags);
  if (m && (!verifyModule(*m, diags) || !verifyOneDeviceCount(*m, diags))) return nullptr;
  return m;
}

std::optional<Mesh> parseMeshSpec(const std::string &spec, Diagnostics &diags) {
  Mesh mesh;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t eq = item.find('=');
    std::string name = item.substr(0, eq);
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    if (eq == std::string::npos || name.empty()) {
      diags.error("--mesh: mesh axis '" + item + "' is not of the form name=size");
      return std::nullopt;
    }
    for (char c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
        diags.error("--mesh: mesh axis name '" + name + "' must be alphanumeric");
        return std::nullopt;
      }
    std::string size = item.substr(eq + 1);
    char *end = nullptr;
    long long v = std::strtoll(size.c_str(), &end, 10);
    if (size.empty() || *end != '\0' || v < 1 || v > (1 << 20)) {
      diags.error("--mesh: mesh axis '" + name + "' needs a positive size, got '" + size + "'");
      return std::nullopt;
    }
    if (mesh.axisIndex(name) >= 0) {
      diags.error("--mesh: mesh axis '" + name + "' is given twice");
      return std::nullopt;
    }
    mesh.axes.push_back({name, v});
  }
  if (mesh.axes.empty()) {
    diags.error("--mesh: empty mesh");
    return std::nullopt;
  }
  return mesh;
}

std::optional<std::pair<std::string, Mesh>> findModuleMesh(const Module &m) {
  std::optional<std::pair<std::string, Mesh>> found;
  m.walk(m.top, [&](OpId op) {
    if (found || !m.isa(op, "sdy.mesh")) return;
    AttrId a = m.attr(op, "mesh");
    AttrId n = m.attr(op, "sym_name");
    if (a == kNoAttr || n == kNoAttr || !m.attrs.get(a).mesh) return;
    found = std::make_pair(std::string(m.attrs.stringValue(n)), *m.attrs.get(a).mesh);
  });
  return found;
}

std::optional<Mesh> resolveMesh(const Module &m, const std::string &meshSpec, Diagnostics &diags,
                                std::string *meshName) {
  *meshName = "mesh";
  std::optional<Mesh> mesh;
  if (auto found = findModuleMesh(m)) {
    *meshName = found->first;
    mesh = found->second;
  }
  if (!meshSpec.empty()) return parseMeshSpec(meshSpec, diags);
  if (!mesh) diags.error("no mesh: pass --mesh (e.g. data=8,model=4) or put an sdy.mesh in the input");
  return mesh;
}

OpId findPlannableEntry(const Module &m, const std::string &wanted, Diagnostics &diags) {
  OpId func = m.findEntryFunction(wanted);
  if (func == kNone) {
    diags.error("no entry function" + (wanted.empty() ? std::string() : " named '" + wanted + "'") +
                " with a body");
    return kNone;
  }
  FuncView f{m, func};
  for (ValueId v : f.args())
    if (m.types.hasDynamicDim(m.type(v))) {
      diags.error("argument of type " + std::string(m.types.str(m.type(v))) +
                      " has dynamic dimensions, which planning does not support",
                  m.fileName);
      return kNone;
    }
  return func;
}

bool completedShardings(const Module &m, bool readGspmd, ShardingVector &out, Diagnostics &diags,
                        CompletionStats *stats, std::unique_ptr<Module> *pipelineOutput) {
  CompletionStats local;
  CompletionStats &s = stats ? *stats : local;
  out.assign(m.values.size(), std::nullopt);
  s.userShardings = countUserShardings(m);
  if (s.userShardings == 0 || !m.source) return true;
  ParseError perr;
  std::unique_ptr<Module> copy = parseModule(*m.source, m.fileName, &perr);
  if (!copy) {
    diags.error(perr.full);
    return false;
  }
  // The copy is read as the planned module was (api/Plan.cpp): a GSPMD
  // program through XLA's import, which numbers values the same way.
  if (readGspmd && !readXlaShardings(*copy, diags)) return false;
  ValueCopies copies;
  if (!completeShardingsAsXla(*copy, diags, &s, &copies)) return false;
  // The pipeline split constants per use and inserted reshards; each value
  // of the user's program takes the sharding its copies agree on, as
  // Shardy reads it (a manual computation's results: its out_shardings, so
  // that a function result it feeds is written as XLA completes it).
  s.perUseValues = 0;
  ShardingVector original =
      shardingsOfOriginals(copies, [&](ValueId v) { return valueSharding(*copy, v); }, &s.perUseValues);
  for (ValueId v = 0; v < out.size() && v < original.size(); ++v) out[v] = std::move(original[v]);
  if (pipelineOutput) *pipelineOutput = std::move(copy);
  return true;
}

bool seedInputShardings(const Module &m, OpId func, bool propagate, ShardingVector &state, Diagnostics &diags,
                        CompletionStats *stats) {
  if (!propagate || countUserShardings(m) == 0 || !m.source) {
    if (stats) stats->userShardings = countUserShardings(m);
    seedFromInput(m, func, state);
    return true;
  }
  // Every value XLA's propagation reaches, not only the arguments: a tactic
  // that adds nothing to an argument still plans around the completed ops.
  ShardingVector completed;
  if (!completedShardings(m, true, completed, diags, stats)) return false;
  for (ValueId v = 0; v < state.size() && v < completed.size(); ++v)
    if (completed[v]) state[v] = std::move(completed[v]);
  return true;
}

}  // namespace autopart
