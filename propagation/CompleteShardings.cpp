#include "propagation/CompleteShardings.h"

#include "propagation/PropagationPipeline.h"

#include <span>
#include <unordered_map>

namespace autopart {

namespace {

// Marks each op with its own id before the pipeline: the passes that copy
// ops (the constant splitter, function clones) copy their attributes, so
// every copy still names the op it came from. Shardy's passes never read it.
constexpr const char *kOrigin = "autopart.origin";

// Tensor shardings in attribute `a`: one, one per value of a per-value
// list, or none.
size_t shardingsIn(const Module &m, AttrId a) {
  if (a == kNoAttr) return 0;
  if (m.attrs.kind(a) == AttrKind::Sharding) return 1;
  if (m.attrs.kind(a) == AttrKind::ShardingPerValue) return m.attrs.get(a).shardings.size();
  return 0;
}

std::vector<OpId> liveOps(const Module &m) {
  std::vector<OpId> ops;
  if (m.top != kNone) m.walk(m.top, [&](OpId op) { ops.push_back(op); });
  return ops;
}

void mapValues(const Module &m, OpId original, OpId now, ValueCopies &copies) {
  for (uint32_t i = 0; i < std::min(m.numResults(original), m.numResults(now)); ++i)
    copies[m.result(original, i)].push_back(m.result(now, i));
  for (uint32_t r = 0; r < std::min(m.numRegions(original), m.numRegions(now)); ++r) {
    const std::vector<BlockId> &from = m.regions[m.region(original, r)].blocks;
    const std::vector<BlockId> &to = m.regions[m.region(now, r)].blocks;
    for (size_t b = 0; b < std::min(from.size(), to.size()); ++b)
      for (size_t a = 0; a < std::min(m.blocks[from[b]].args.size(), m.blocks[to[b]].args.size()); ++a)
        copies[m.blocks[from[b]].args[a]].push_back(m.blocks[to[b]].args[a]);
  }
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

bool completeShardingsAsXla(Module &m, Diagnostics &diags, CompletionStats *stats, ValueCopies *copies) {
  CompletionStats local;
  CompletionStats &s = stats ? *stats : local;
  s.userShardings = countUserShardings(m);
  s.propagated = false;
  size_t numValues = m.values.size();
  if (s.userShardings == 0) {
    if (copies) {
      copies->assign(numValues, {});
      for (ValueId v = 0; v < numValues; ++v) (*copies)[v].push_back(v);
    }
    return true;
  }
  // The pipeline turns each call into a named computation holding a copy of
  // the callee and back into a call of a (perhaps new) function: the call
  // keeps its origin, and the callee it had then says whose arguments the
  // new callee's stand for.
  std::unordered_map<OpId, OpId> calleeOf;
  if (copies)
    for (OpId op : liveOps(m)) {
      if (op != m.top && (m.numResults(op) || m.numRegions(op))) m.setAttr(op, kOrigin, m.attrs.integer(op));
      if (m.isa(op, "func.call"))
        if (OpId callee = m.lookupFunc(m.attr(op, "callee")); callee != kNone) calleeOf.emplace(op, callee);
    }
  s.propagated = true;
  // Reshards stay implicit (PropagationPipeline.h): the callers price and
  // plan the user's own ops, whose reshards the simulator derives. Meshes
  // stay symbols (Shardy's inlineMeshes=false, as XLA's own drivers ask
  // when they read the result back): the shardings are compared with, and
  // written into, the user's program, which names its meshes.
  bool ok = runPropagationPipeline(m, PassOptions::parse("inline-meshes=false"), diags, &s.propagation,
                                   /*insertExplicitReshards=*/false);
  if (!copies) return ok;
  copies->assign(numValues, {});
  for (OpId op : liveOps(m)) {
    AttrId origin = m.attr(op, kOrigin);
    if (origin == kNoAttr) continue;
    m.removeAttr(op, kOrigin);
    OpId original = OpId(m.attrs.get(origin).intValue);
    mapValues(m, original, op, *copies);
    auto callee = calleeOf.find(original);
    if (callee == calleeOf.end() || !m.isa(op, "func.call")) continue;
    OpId now = m.lookupFunc(m.attr(op, "callee"));
    if (now == kNone || now == callee->second) continue;  // still its own callee: mapped with it
    std::span<const ValueId> from = FuncView{m, callee->second}.args(), to = FuncView{m, now}.args();
    for (size_t i = 0; i < std::min(from.size(), to.size()); ++i) (*copies)[from[i]].push_back(to[i]);
  }
  return ok;
}

ShardingVector shardingsOfOriginals(const ValueCopies &copies,
                                    const std::function<const TensorSharding *(ValueId)> &completed,
                                    size_t *disagreeing) {
  ShardingVector out(copies.size());
  for (ValueId v = 0; v < copies.size(); ++v) {
    if (copies[v].empty()) continue;
    const TensorSharding *first = completed(copies[v].front());
    bool agree = true;
    for (ValueId c : copies[v]) {
      const TensorSharding *s = completed(c);
      agree &= (s == nullptr) == (first == nullptr) && (!s || *s == *first);
    }
    if (!agree) {
      if (disagreeing) ++*disagreeing;
      continue;
    }
    if (first) out[v] = *first;
  }
  return out;
}

}  // namespace autopart
