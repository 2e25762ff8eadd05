// `-sdy-unflatten-call-graph`: undoes `-sdy-flatten-call-graph` after
// propagation. Copies of one function (`foo`, and `foo_0`, `foo_1` tagged
// `sdy.original_func_name = "foo"`) that ended up with the same argument and
// result shardings and the same `sdy.func_manual_axes` are one computation
// again: every call goes to the first of them a call reaches (calls visited
// in module order). Copies whose shardings differ stay apart. Afterwards no
// function carries the two tags; copies left without calls stay until a
// symbol DCE.
//
//   %0 = call @baz(%arg0)     %1 = call @baz_0(%arg0)
//   func.func private @baz(%arg0 {sdy.sharding = S}) -> (... {sdy.sharding = T})
//   func.func private @baz_0(%arg0 {sdy.sharding = S}) -> (... {sdy.sharding = T})
//       attributes {sdy.original_func_name = "baz"}
//   ->
//   %0 = call @baz(%arg0)     %1 = call @baz(%arg0)
//
// `dedup-functions-fully=true` ignores the shardings: each original function
// keeps the copy called most often (counting calls per distinct sharding
// signature; the first one reached wins ties). The calls keep their own
// shardings: `-sdy-insert-func-call-reshards` reconciles differing results,
// `-sdy-insert-explicit-reshards` differing operands.
#include <string>
#include <unordered_map>

#include "export/FuncShardings.h"
#include "import/CallGraph.h"
#include "ir/Pass.h"
#include "ir/PassOptionCatalog.h"

namespace autopart {

namespace {

std::string listKey(const std::optional<std::vector<TensorSharding>> &list) {
  if (!list) return "-";
  std::string out;
  for (const TensorSharding &s : *list) out += s.strBody() + ";";
  return out;
}

// What makes two functions the same computation: the original name, the
// manual axes and, unless ignored, the boundary shardings.
std::string computationKey(const Module &m, OpId func, bool ignoreShardings) {
  AttrId original = m.attr(func, "sdy.original_func_name");
  std::string key(original != kNoAttr && m.attrs.kind(original) == AttrKind::String ? m.attrs.stringValue(original)
                                                                                     : FuncView{m, func}.name());
  key += '\n';
  AttrId manual = m.attr(func, "sdy.func_manual_axes");
  if (manual != kNoAttr) key += m.attrs.str(manual);
  if (ignoreShardings) return key;
  key += '\n' + listKey(funcArgShardings(m, func)) + '\n' + listKey(funcResultShardings(m, func));
  return key;
}

// The function every call of each computation goes to.
std::unordered_map<std::string, OpId> chooseFunctions(const Module &m, const std::vector<OpId> &calls,
                                                      bool dedupFully) {
  std::unordered_map<std::string, OpId> chosen;
  std::unordered_map<std::string, size_t> callCounts;  // by full key
  for (OpId call : calls) {
    OpId callee = m.lookupFunc(m.attr(call, "callee"));
    if (callee == kNone) continue;
    auto [it, inserted] = chosen.try_emplace(computationKey(m, callee, dedupFully), callee);
    if (!dedupFully) continue;
    size_t count = ++callCounts[computationKey(m, callee, false)];
    if (!inserted && count > callCounts[computationKey(m, it->second, false)]) it->second = callee;
  }
  return chosen;
}

bool run(Module &m, const PassOptions &o, Diagnostics &) {
  bool dedupFully = o.getBool("dedup-functions-fully", false);
  std::vector<OpId> calls;
  for (OpId func : m.functions())
    for (OpId call : callsIn(m, func)) calls.push_back(call);
  std::unordered_map<std::string, OpId> chosen = chooseFunctions(m, calls, dedupFully);
  for (OpId call : calls) {
    OpId callee = m.lookupFunc(m.attr(call, "callee"));
    if (callee == kNone) continue;
    OpId target = chosen.at(computationKey(m, callee, dedupFully));
    if (target == callee) continue;
    m.setAttr(call, "callee", m.attrs.symbolRef("@" + std::string(FuncView{m, target}.name())));
  }
  for (OpId func : m.functions()) {
    m.removeAttr(func, "sdy.original_func_name");
    m.removeAttr(func, "sdy.func_manual_axes");
  }
  return true;
}

PassRegistration reg("sdy-unflatten-call-graph",
                     "Sends the calls of copies of one function with the same shardings (or any shardings with "
                     "dedup-functions-fully) to one of them",
                     run,
                     {sharedPassOption("dedup-functions-fully")});

}  // namespace

}  // namespace autopart
