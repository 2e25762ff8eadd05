// `-sdy-insert-func-call-reshards`: once functions are shared between call
// sites again (after `-sdy-unflatten-call-graph`), a call's result
// shardings can differ from what its callee returns. The call takes the
// callee's result sharding (a result the callee leaves unsharded is
// replicated) and an `sdy.reshard` right after the call restores the
// sharding the call's users were propagated with. Calls without result
// shardings are left alone.
//
//   func.func private @baz(...) -> (tensor<8x2xi32> {sdy.sharding = <@mesh, [{"x"}, {}]>})
//   %1 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
//   %2 = stablehlo.add %0, %1
//   ->
//   %1 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
//   %2 = sdy.reshard %1 <@mesh, [{"x"}, {"y"}]>
//   %3 = stablehlo.add %0, %2
//
// Each reshard goes directly after its call, so with several differing
// results the last result's reshard comes first.
#include "export/FuncShardings.h"
#include "import/CallGraph.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

// Makes every use of result `r` of `call` read a reshard of it to `target`.
void reshardAfter(Module &m, OpId func, OpId call, uint32_t r, const TensorSharding &target) {
  ValueId v = m.result(call, r);
  OpId reshard = m.createOp("sdy.reshard", {v}, {m.type(v)}, {{m.names.get("sharding"), m.attrs.sharding(target)}});
  m.ops[reshard].srcOffset = m.ops[call].srcOffset;
  m.ops[reshard].loc = m.ops[call].loc;
  m.insertOp(m.ops[call].parent, reshard, m.nextInBlock(call));
  m.replaceAllUsesWith(v, m.result(reshard), func);
  m.setOperand(reshard, 0, v);
}

size_t insertFuncCallReshards(Module &m) {
  size_t count = 0;
  for (OpId func : m.functions())
    for (OpId call : callsIn(m, func)) {
      AttrId a = m.attr(call, "sdy.sharding");
      if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) continue;
      OpId callee = m.lookupFunc(m.attr(call, "callee"));
      if (callee == kNone) continue;
      std::vector<TensorSharding> now = m.attrs.get(a).shardings;
      if (now.size() != m.numResults(call)) continue;
      bool changed = false;
      for (uint32_t r = 0; r < now.size(); ++r) {
        const TensorSharding *declared = funcResultSharding(m, callee, r);
        TensorSharding expected =
            declared ? *declared : TensorSharding::closed(now[r].meshName, now[r].rank());
        if (!declared) expected.inlineMesh = now[r].inlineMesh;
        if (expected == now[r]) continue;
        reshardAfter(m, func, call, r, now[r]);
        now[r] = std::move(expected);
        changed = true;
        ++count;
      }
      if (changed) m.setAttr(call, "sdy.sharding", m.attrs.shardingPerValue(std::move(now)));
    }
  return count;
}

PassRegistration reg("sdy-insert-func-call-reshards",
                     "Gives calls their callee's result shardings and reshards the results back to the shardings "
                     "their users expect",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       insertFuncCallReshards(m);
                       return true;
                     });

}  // namespace

}  // namespace autopart
