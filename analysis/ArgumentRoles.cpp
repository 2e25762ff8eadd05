#include "analysis/ArgumentRoles.h"

#include <algorithm>
#include <cctype>

#include "analysis/CarriedState.h"

namespace autopart {

const char *roleName(ArgRole r) {
  switch (r) {
  case ArgRole::Parameter: return "parameter";
  case ArgRole::OptimizerState: return "optimizer-state";
  case ArgRole::Data: return "data";
  }
  return "data";
}

static std::string lower(std::string s) {
  for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// `loc("W0")` -> W0; other location forms give nothing.
static std::string locName(const Module &m, AttrId loc) {
  if (loc == kNoAttr) return {};
  std::string_view t = m.attrs.get(loc).text;
  if (!t.starts_with("loc(\"")) return {};
  size_t end = t.find('"', 5);
  if (end == std::string_view::npos || t.substr(end, 2) != "\")") return {};
  return std::string(t.substr(5, end - 5));
}

static std::string argName(const Module &m, FuncView &f, size_t i) {
  for (const char *key : {"jax.arg_info", "ttir.name", "mhlo.name"}) {
    AttrId a = f.argAttr(i, key);
    if (a != kNoAttr && m.attrs.kind(a) == AttrKind::String)
      return unescapeString(m.attrs.stringValue(a));
  }
  std::string l = locName(m, m.values[f.args()[i]].loc);
  if (!l.empty()) return l;
  return "%arg" + std::to_string(i);
}

std::string resultName(const Module &m, OpId func, size_t i) {
  FuncView f{m, func};
  AttrId a = f.resultAttr(i, "jax.result_info");
  if (a != kNoAttr && m.attrs.kind(a) == AttrKind::String)
    return unescapeString(m.attrs.stringValue(a));
  return "result" + std::to_string(i);
}

static bool contains(const std::string &s, std::initializer_list<const char *> words) {
  for (const char *w : words)
    if (s.find(w) != std::string::npos) return true;
  return false;
}

// Follows layout-only uses of `v` to a contraction; true when it is used as
// the weight operand (rhs of dot_general / kernel of convolution / table
// of a gather).
static bool feedsContractionRhs(const Module &m, ValueId v,
                                const std::vector<std::vector<std::pair<OpId, uint32_t>>> &uses,
                                int depth = 0) {
  if (depth > 8 || v >= uses.size()) return false;
  for (auto [op, index] : uses[v]) {
    std::string_view name = m.opName(op);
    if ((name == "stablehlo.dot_general" || name == "stablehlo.dot" ||
         name == "stablehlo.convolution") &&
        index == 1)
      return true;
    // An embedding table: the operand rows are gathered from.
    if (name == "stablehlo.gather" && index == 0) return true;
    if (name == "stablehlo.convert" || name == "stablehlo.reshape" ||
        name == "stablehlo.transpose" || name == "stablehlo.broadcast_in_dim" ||
        name == "stablehlo.custom_call")
      if (m.numResults(op) == 1 && feedsContractionRhs(m, m.result(op), uses, depth + 1)) return true;
  }
  return false;
}

std::vector<ArgumentInfo> classifyArguments(const Module &m, OpId func) {
  FuncView f{m, func};
  std::vector<ArgumentInfo> out;
  std::span<const ValueId> args = f.args();
  std::vector<std::vector<std::pair<OpId, uint32_t>>> uses(m.values.size());
  m.walk(func, [&](OpId op) {
    for (uint32_t i = 0; i < m.numOperands(op); ++i) {
      ValueId v = m.operand(op, i);
      if (v < uses.size()) uses[v].push_back({op, i});
    }
  });
  // A training step returns its updated state: what it carries over is a
  // parameter (or optimizer state), the rest is data -- including inputs
  // that a backward pass contracts against (x in dW = dY^T . x).
  std::vector<bool> isCarried(args.size(), false);
  for (int64_t a : carriedArguments(m, func))
    if (a >= 0) isCarried[size_t(a)] = true;
  bool anyCarried = std::find(isCarried.begin(), isCarried.end(), true) != isCarried.end();
  for (size_t i = 0; i < args.size(); ++i) {
    ArgumentInfo info;
    info.name = argName(m, f, i);
    info.bytes = m.types.byteSize(m.type(args[i]));
    std::string n = lower(info.name);
    // torch-xla names every argument `...xla__device_data`: not a role.
    for (size_t at; (at = n.find("xla__device_data")) != std::string::npos;) n.erase(at, 16);
    AttrId tt = f.argAttr(i, "ttcore.argument_type");
    std::string ttText = tt == kNoAttr ? "" : m.attrs.str(tt);
    if (contains(n, {"opt_state", "optimizer", "['mu']", "['nu']", "adam", "momentum"})) {
      info.role = ArgRole::OptimizerState;
      info.reason = "name";
    } else if (ttText.find("parameter") != std::string::npos) {
      info.role = ArgRole::Parameter;
      info.reason = "ttcore.argument_type";
    } else if (ttText.find("input") != std::string::npos) {
      info.role = ArgRole::Data;
      info.reason = "ttcore.argument_type";
    } else if (contains(n, {"param", "weight", "kernel", "bias", "embed", "scale"})) {
      info.role = ArgRole::Parameter;
      info.reason = "name";
    } else if (contains(n, {"batch", "input", "token", "label", "image", "target", "data"})) {
      info.role = ArgRole::Data;
      info.reason = "name";
    } else if (isCarried[i] && m.types.isIntegerElement(m.type(args[i]))) {
      // An RNG key or a step counter: carried, but nothing trains it.
      info.role = ArgRole::Data;
      info.reason = "integer state (an RNG key, a counter)";
    } else if (isCarried[i]) {
      info.role = ArgRole::Parameter;
      info.reason = "state: its update is returned";
    } else if (anyCarried) {
      info.role = ArgRole::Data;
      info.reason = "not state of a step that returns its state";
    } else if (m.types.rank(m.type(args[i])) >= 2 && feedsContractionRhs(m, args[i], uses)) {
      info.role = ArgRole::Parameter;
      info.reason = "weight operand of a contraction";
    } else {
      info.role = ArgRole::Data;
      info.reason = "default";
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace autopart
