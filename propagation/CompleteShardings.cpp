#include "propagation/CompleteShardings.h"

#include "propagation/DataFlowEdges.h"

namespace autopart {

namespace {

// Tensor shardings in attribute `a`: one, one per value of a per-value
// list, or none.
size_t shardingsIn(const Module &m, AttrId a) {
  if (a == kNoAttr) return 0;
  if (m.attrs.kind(a) == AttrKind::Sharding) return 1;
  if (m.attrs.kind(a) == AttrKind::ShardingPerValue) return m.attrs.get(a).shardings.size();
  return 0;
}

}  // namespace

size_t countUserShardings(const Module &m) {
  size_t n = 0;
  for (OpId func : m.functions()) {
    FuncView f{m, func};
    for (size_t i = 0; i < f.args().size(); ++i) n += shardingsIn(m, f.argAttr(i, "sdy.sharding"));
    for (size_t i = 0; i < f.numResults(); ++i) n += shardingsIn(m, f.resultAttr(i, "sdy.sharding"));
    m.walk(func, [&](OpId op) {
      n += shardingsIn(m, m.attr(op, "sdy.sharding"));
      if (m.opName(op).starts_with("sdy."))
        for (const char *name : {"sharding", "out_sharding", "in_shardings", "out_shardings"})
          n += shardingsIn(m, m.attr(op, name));
    });
  }
  return n;
}

bool completeShardingsAsXla(Module &m, Diagnostics &diags, CompletionStats *stats) {
  CompletionStats local;
  CompletionStats &s = stats ? *stats : local;
  s.userShardings = countUserShardings(m);
  s.propagated = false;
  if (s.userShardings == 0) return true;
  PropagationOptions options;
  options.strategy = FactorStrategy::Aggressive;
  options.userPriorities = true;
  options.opPriorities = true;
  s.propagated = true;
  // As Shardy's import adds them: loops, branches and barriers pass
  // shardings on only through data-flow edges.
  addDataFlowEdges(m);
  bool ok = propagateShardings(m, options, diags, &s.propagation);
  sinkDataFlowEdges(m);
  return ok;
}

}  // namespace autopart
