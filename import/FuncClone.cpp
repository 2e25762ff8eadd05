#include "import/FuncClone.h"

#include <algorithm>

#include "import/CallGraph.h"
#include "ir/Clone.h"

namespace autopart {

FunctionCloner::FunctionCloner(Module &m) : m_(m), body_(m.regions[m.region(m.top, 0)].blocks.front()) {
  for (OpId op : m_.blocks[body_].ops)
    if (AttrId a = m_.attr(op, "sym_name"); a != kNoAttr) used_.insert(std::string(m_.attrs.stringValue(a)));
}

std::string FunctionCloner::uniqueName(const std::string &base) {
  std::string name;
  do name = base + "_" + std::to_string(counter_++);
  while (used_.count(name));
  used_.insert(name);
  return name;
}

std::string FunctionCloner::cloneRecursively(OpId func) {
  std::string name(FuncView{m_, func}.name());
  if (std::find(active_.begin(), active_.end(), func) != active_.end()) return name;
  active_.push_back(func);
  OpId copy = cloneOp(m_, func, [](ValueId v) { return v; });
  for (OpId call : callsIn(m_, copy)) {
    OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
    if (callee != kNone) m_.setAttr(call, "callee", m_.attrs.symbolRef("@" + cloneRecursively(callee)));
  }
  active_.pop_back();
  std::string copyName = uniqueName(name);
  m_.setAttr(copy, "sym_name", m_.attrs.string(copyName));
  if (!m_.hasAttr(copy, "sdy.original_func_name")) m_.setAttr(copy, "sdy.original_func_name", m_.attrs.string(name));
  m_.insertOp(body_, copy, kNone);
  created_.push_back(copy);
  return copyName;
}

}  // namespace autopart
