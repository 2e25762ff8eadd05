#include "import/FlattenCallGraph.h"

#include <algorithm>
#include <set>
#include <string>

#include "import/CallGraph.h"
#include "ir/Clone.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

class Flattener {
public:
  explicit Flattener(Module &m) : m_(m), body_(m.regions[m.region(m.top, 0)].blocks.front()) {}

  size_t run() {
    for (OpId op : m_.blocks[body_].ops)
      if (AttrId a = m_.attr(op, "sym_name"); a != kNoAttr) used_.insert(std::string(m_.attrs.stringValue(a)));
    std::set<OpId> seen;
    for (OpId func : callGraphPostOrder(m_))
      for (OpId call : callsIn(m_, func)) {
        OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
        if (callee == kNone) continue;
        if (seen.insert(callee).second) continue;
        retarget(call, cloneRecursively(callee));
      }
    return copies_;
  }

private:
  Module &m_;
  BlockId body_;
  std::set<std::string> used_;
  uint32_t counter_ = 0;
  size_t copies_ = 0;
  std::vector<OpId> active_;

  void retarget(OpId call, const std::string &name) {
    m_.setAttr(call, "callee", m_.attrs.symbolRef("@" + name));
  }

  // MLIR's SymbolTable::insert renaming: `base_N` with a module-wide counter.
  std::string uniqueName(const std::string &base) {
    std::string name;
    do name = base + "_" + std::to_string(counter_++);
    while (used_.count(name));
    used_.insert(name);
    return name;
  }

  // Copies `func` and its callees (each call its own copy); returns the
  // copy's name.
  std::string cloneRecursively(OpId func) {
    std::string name(FuncView{m_, func}.name());
    // A recursive call keeps pointing at the function being copied.
    if (std::find(active_.begin(), active_.end(), func) != active_.end()) return name;
    active_.push_back(func);
    OpId copy = cloneOp(m_, func, [](ValueId v) { return v; });
    for (OpId call : callsIn(m_, copy)) {
      OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
      if (callee != kNone) retarget(call, cloneRecursively(callee));
    }
    active_.pop_back();
    std::string copyName = uniqueName(name);
    m_.setAttr(copy, "sym_name", m_.attrs.string(copyName));
    if (!m_.hasAttr(copy, "sdy.original_func_name"))
      m_.setAttr(copy, "sdy.original_func_name", m_.attrs.string(name));
    m_.insertOp(body_, copy, kNone);
    ++copies_;
    return copyName;
  }
};

PassRegistration reg("sdy-flatten-call-graph", "Copy functions so that each is called at most once",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       flattenCallGraph(m);
                       return true;
                     });

}  // namespace

size_t flattenCallGraph(Module &m) {
  if (m.top == kNone) return 0;
  return Flattener(m).run();
}

}  // namespace autopart
