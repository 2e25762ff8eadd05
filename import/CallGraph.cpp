#include "import/CallGraph.h"

#include <unordered_set>

namespace autopart {

std::vector<OpId> callsIn(const Module &m, OpId root) {
  std::vector<OpId> calls;
  m.walk(root, [&](OpId op) {
    if (m.isa(op, "func.call")) calls.push_back(op);
  });
  return calls;
}

namespace {

void visit(const Module &m, OpId func, std::unordered_set<OpId> &seen, std::vector<OpId> &out) {
  if (!seen.insert(func).second) return;
  for (OpId call : callsIn(m, func))
    if (OpId callee = m.lookupFunc(m.attr(call, "callee")); callee != kNone) visit(m, callee, seen, out);
  out.push_back(func);
}

void visitPreOrder(const Module &m, OpId func, std::unordered_set<OpId> &seen, std::vector<OpId> &out) {
  if (!seen.insert(func).second) return;
  out.push_back(func);
  for (OpId call : callsIn(m, func))
    if (OpId callee = m.lookupFunc(m.attr(call, "callee")); callee != kNone) visitPreOrder(m, callee, seen, out);
}

}  // namespace

std::vector<OpId> reachableFunctions(const Module &m, OpId root) {
  std::unordered_set<OpId> seen;
  std::vector<OpId> out;
  if (root != kNone) visitPreOrder(m, root, seen, out);
  return out;
}

std::vector<OpId> callGraphPostOrder(const Module &m) {
  std::unordered_set<OpId> seen;
  std::vector<OpId> out;
  for (OpId func : m.functions()) visit(m, func, seen, out);
  return out;
}

}  // namespace autopart
