#include "import/CallSignatures.h"

#include <algorithm>

#include "import/CallGraph.h"
#include "ir/Pass.h"

namespace autopart {

size_t propagateShardingFromFuncToCall(Module &m) {
  size_t count = 0;
  for (OpId func : m.functions())
    for (OpId call : callsIn(m, func)) {
      if (m.hasAttr(call, "sdy.sharding")) continue;
      OpId callee = m.lookupFunc(m.attr(call, "callee"));
      if (callee == kNone) continue;
      FuncView view{m, callee};
      size_t n = view.numResults();
      const TensorSharding *any = nullptr;
      for (size_t i = 0; i < n && !any; ++i)
        if (AttrId a = view.resultAttr(i, "sdy.sharding"); a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding)
          any = m.attrs.get(a).sharding.get();
      if (!any || n != m.numResults(call)) continue;
      std::vector<TensorSharding> all;
      for (size_t i = 0; i < n; ++i) {
        AttrId a = view.resultAttr(i, "sdy.sharding");
        if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding) {
          all.push_back(*m.attrs.get(a).sharding);
          continue;
        }
        TypeId t = m.type(m.result(call, uint32_t(i)));
        TensorSharding open = TensorSharding::open(any->meshName, m.types.isTensor(t) ? size_t(m.types.rank(t)) : 0);
        open.inlineMesh = any->inlineMesh;
        all.push_back(std::move(open));
      }
      m.setAttr(call, "sdy.sharding", m.attrs.shardingPerValue(std::move(all)));
      ++count;
    }
  return count;
}

void preOrderFuncs(Module &m) {
  if (m.top == kNone) return;
  std::vector<OpId> order = callGraphPostOrder(m);
  std::reverse(order.begin(), order.end());
  // The functions move among the slots functions held; meshes and other
  // symbols stay where they are.
  std::vector<OpId> &ops = m.blocks[m.regions[m.region(m.top, 0)].blocks.front()].ops;
  size_t next = 0;
  for (OpId &op : ops)
    if (m.isa(op, "func.func")) op = order[next++];
}

namespace {

PassRegistration propagateReg("sdy-propagate-sharding-from-func-to-call",
                              "Give calls without result shardings their callee's result shardings",
                              [](Module &m, const PassOptions &, Diagnostics &) {
                                propagateShardingFromFuncToCall(m);
                                return true;
                              });
PassRegistration preOrderReg("sdy-pre-order-funcs", "Order functions callers first (pre-order of the call graph)",
                             [](Module &m, const PassOptions &, Diagnostics &) {
                               preOrderFuncs(m);
                               return true;
                             });

}  // namespace

}  // namespace autopart
