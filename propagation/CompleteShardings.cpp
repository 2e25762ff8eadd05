#include "propagation/CompleteShardings.h"

#include "propagation/DataFlowEdges.h"

namespace autopart {

namespace {

bool isSharding(const Module &m, AttrId a) {
  return a != kNoAttr && (m.attrs.kind(a) == AttrKind::Sharding || m.attrs.kind(a) == AttrKind::ShardingPerValue);
}

}  // namespace

size_t countUserShardings(const Module &m) {
  size_t n = 0;
  for (OpId func : m.functions()) {
    FuncView f{m, func};
    for (size_t i = 0; i < f.args().size(); ++i) n += isSharding(m, f.argAttr(i, "sdy.sharding"));
    for (size_t i = 0; i < f.numResults(); ++i) n += isSharding(m, f.resultAttr(i, "sdy.sharding"));
    m.walk(func, [&](OpId op) {
      n += isSharding(m, m.attr(op, "sdy.sharding"));
      if (m.opName(op).starts_with("sdy."))
        n += isSharding(m, m.attr(op, "sharding")) + isSharding(m, m.attr(op, "out_sharding"));
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
