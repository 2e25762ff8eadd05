// `-symbol-dce` (MLIR's symbol dead-code elimination, as Shardy's export
// pipeline runs it after `-sdy-unflatten-call-graph`): private functions no
// live code refers to are erased. Public functions and every non-function
// top-level op (meshes) are live; a live function makes live every
// function its ops name (a call's callee, a composite's decomposition, a
// symbol written inside any attribute).
//
//   func.func @main(...) { %0 = call @baz(%arg0) ... }
//   func.func private @baz(...)       <- called: kept
//   func.func private @baz_0(...)     <- left over by unflattening: erased
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/Pass.h"

namespace autopart {

namespace {

bool isPrivate(const Module &m, OpId func) {
  AttrId vis = m.attr(func, "sym_visibility");
  return vis != kNoAttr && m.attrs.kind(vis) == AttrKind::String && m.attrs.stringValue(vis) == "private";
}

bool identChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '$' || c == '-';
}

// Calls `fn` with every `@name` written in attribute `a`.
template <typename Fn> void forEachSymbolIn(const Module &m, AttrId a, Fn &&fn) {
  const AttrStorage &s = m.attrs.get(a);
  switch (s.kind) {
  case AttrKind::Array:
  case AttrKind::Dict:
  case AttrKind::DialectStruct:
    for (AttrId e : s.elems) forEachSymbolIn(m, e, fn);
    return;
  case AttrKind::SymbolRef:
  case AttrKind::Opaque: {
    const std::string &t = s.text;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '@') continue;
      size_t j = i + 1;
      while (j < t.size() && identChar(t[j])) ++j;
      fn(std::string_view(t).substr(i + 1, j - i - 1));
      i = j - 1;
    }
    return;
  }
  default:
    return;
  }
}

size_t symbolDce(Module &m) {
  if (m.top == kNone) return 0;
  std::unordered_map<std::string, OpId> privateFuncs;
  std::vector<OpId> work;
  for (OpId f : m.functions()) {
    if (isPrivate(m, f))
      privateFuncs.emplace(std::string(FuncView{m, f}.name()), f);
    else
      work.push_back(f);
  }
  std::unordered_map<OpId, bool> live;
  for (OpId f : work) live[f] = true;
  auto markIn = [&](OpId op) {
    for (const NamedAttr &a : m.attributes(op)) {
      if (m.names.str(a.name) == "sym_name") continue;
      forEachSymbolIn(m, a.value, [&](std::string_view name) {
        auto it = privateFuncs.find(std::string(name));
        if (it != privateFuncs.end() && !live[it->second]) {
          live[it->second] = true;
          work.push_back(it->second);
        }
      });
    }
  };
  // Non-function top-level ops may name functions too.
  for (OpId op : m.blocks[m.regions[m.region(m.top, 0)].blocks.front()].ops)
    if (!m.isa(op, "func.func")) markIn(op);
  while (!work.empty()) {
    OpId f = work.back();
    work.pop_back();
    markIn(f);
    m.walk(f, markIn);
  }
  size_t erased = 0;
  for (OpId f : m.functions())
    if (isPrivate(m, f) && !live[f]) {
      m.eraseOp(f);
      ++erased;
    }
  return erased;
}

PassRegistration reg("symbol-dce", "Erases private functions that no live code refers to",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       symbolDce(m);
                       return true;
                     });

}  // namespace

}  // namespace autopart
