#include "import/FlattenCallGraph.h"

#include <set>

#include "import/CallGraph.h"
#include "import/FuncClone.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

PassRegistration reg("sdy-flatten-call-graph", "Copy functions so that each is called at most once",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       flattenCallGraph(m);
                       return true;
                     });

}  // namespace

size_t flattenCallGraph(Module &m) {
  if (m.top == kNone) return 0;
  FunctionCloner cloner(m);
  std::set<OpId> seen;
  for (OpId func : callGraphPostOrder(m))
    for (OpId call : callsIn(m, func)) {
      OpId callee = m.lookupFunc(m.attr(call, "callee"));
      if (callee == kNone || seen.insert(callee).second) continue;
      m.setAttr(call, "callee", m.attrs.symbolRef("@" + cloner.cloneRecursively(callee)));
    }
  return cloner.created().size();
}

}  // namespace autopart
