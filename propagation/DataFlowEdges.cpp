#include "propagation/DataFlowEdges.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ir/Pass.h"
#include "ir/ValueSharding.h"
#include "rules/OpInfo.h"

namespace autopart {

namespace {

bool isManual(const AxisRef &a, const std::vector<std::string> &manual) {
  return std::find(manual.begin(), manual.end(), a.name) != manual.end();
}

bool shardableType(const Module &m, TypeId t) {
  if (!m.types.isTensor(t)) return false;
  for (int64_t d : m.types.shape(t))
    if (d == kDynamic) return false;
  return true;
}

// Ops whose results (and for computations, body arguments) get edges.
// (func.call's edges run through its callee instead.)
bool ownsEdges(const Module &m, OpId op) {
  DataFlow flow = opInfo(m, op).dataFlow;
  return flow != DataFlow::None && flow != DataFlow::Call;
}

const TensorSharding *listEntry(const Module &m, OpId op, std::string_view attr, size_t i) {
  AttrId a = m.attr(op, attr);
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
  const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
  return i < all.size() ? &all[i] : nullptr;
}

OpId makeEdge(Module &m, ValueId owner, const TensorSharding *sharding, OpId near) {
  std::vector<NamedAttr> attrs;
  if (sharding) attrs.push_back({m.names.get("sharding"), m.attrs.sharding(*sharding)});
  OpId e = m.createOp("sdy.data_flow_edge", {owner}, {m.type(owner)}, attrs);
  m.ops[e].srcOffset = m.ops[near].srcOffset;
  return e;
}

}  // namespace

ManualAxesView ManualAxesView::of(const TensorSharding &global, const std::vector<std::string> &manual) {
  ManualAxesView v;
  v.dimPrefix.resize(global.dims.size());
  for (size_t d = 0; d < global.dims.size(); ++d)
    for (const AxisRef &a : global.dims[d].axes) {
      if (!isManual(a, manual)) break;
      v.dimPrefix[d].push_back(a);
    }
  for (const AxisRef &a : global.replicated)
    if (isManual(a, manual)) v.replicated.push_back(a);
  return v;
}

TensorSharding ManualAxesView::toGlobal(TensorSharding s) const {
  for (size_t d = 0; d < s.dims.size() && d < dimPrefix.size(); ++d)
    s.dims[d].axes.insert(s.dims[d].axes.begin(), dimPrefix[d].begin(), dimPrefix[d].end());
  for (const AxisRef &a : replicated)
    if (std::find(s.replicated.begin(), s.replicated.end(), a) == s.replicated.end())
      s.replicated.push_back(a);
  return s;
}

TensorSharding ManualAxesView::toLocal(TensorSharding s) const {
  for (size_t d = 0; d < s.dims.size() && d < dimPrefix.size(); ++d) {
    AxisList &axes = s.dims[d].axes;
    size_t k = 0;
    while (k < axes.size() && k < dimPrefix[d].size() && axes[k] == dimPrefix[d][k]) ++k;
    axes.erase(axes.begin(), axes.begin() + std::ptrdiff_t(k));
  }
  std::erase_if(s.replicated, [&](const AxisRef &a) {
    return std::find(replicated.begin(), replicated.end(), a) != replicated.end();
  });
  return s;
}

namespace {

// Replaces every use of the keys of `replace` in `func` by their values,
// except the uses by `keep` ops (the edges reading their owner): one walk for
// all edges instead of one per edge.
void replaceUses(Module &m, OpId func, const std::unordered_map<ValueId, ValueId> &replace,
                 const std::unordered_set<OpId> &keep) {
  if (replace.empty()) return;
  m.walk(func, [&](OpId op) {
    if (keep.count(op)) return;
    for (uint32_t i = 0; i < m.numOperands(op); ++i) {
      auto it = replace.find(m.operand(op, i));
      if (it != replace.end()) m.setOperand(op, i, it->second);
    }
  });
}

}  // namespace

size_t addDataFlowEdges(Module &m) {
  std::unordered_map<OpId, std::unordered_map<ValueId, ValueId>> replacePerFunc;
  std::unordered_set<OpId> edgeOps;
  std::vector<OpId> owners;
  for (OpId func : m.functions())
    m.walk(func, [&](OpId op) {
      if (ownsEdges(m, op)) owners.push_back(op);
    });
  size_t added = 0;
  for (OpId op : owners) {
    OpId func = m.enclosingFunc(op);
    bool isComputation = opInfo(m, op).dataFlow == DataFlow::Computation;
    if (isComputation && m.numRegions(op) > 0 && !m.regions[m.region(op, 0)].blocks.empty()) {
      BlockId body = m.regions[m.region(op, 0)].blocks.front();
      std::vector<std::string> manual = manualAxesOf(m, op);
      OpId first = m.blocks[body].ops.empty() ? kNone : m.blocks[body].ops.front();
      std::vector<ValueId> args = m.blocks[body].args;
      for (size_t i = 0; i < args.size(); ++i) {
        if (!shardableType(m, m.type(args[i]))) continue;
        std::optional<TensorSharding> local;
        if (const TensorSharding *in = listEntry(m, op, "in_shardings", i))
          local = ManualAxesView::of(*in, manual).toLocal(*in);
        OpId e = makeEdge(m, args[i], local ? &*local : nullptr, op);
        m.insertOp(body, e, first);
        replacePerFunc[func][args[i]] = m.result(e);
        edgeOps.insert(e);
        ++added;
      }
    }
    OpId before = m.nextInBlock(op);
    for (uint32_t i = 0; i < m.numResults(op); ++i) {
      ValueId r = m.result(op, i);
      if (!shardableType(m, m.type(r))) continue;
      const TensorSharding *s = isComputation ? listEntry(m, op, "out_shardings", i)
                                              : listEntry(m, op, "sdy.sharding", i);
      OpId e = makeEdge(m, r, s, op);
      m.insertOp(m.ops[op].parent, e, before);
      replacePerFunc[func][r] = m.result(e);
      edgeOps.insert(e);
      ++added;
    }
  }
  for (const auto &[func, replace] : replacePerFunc) replaceUses(m, func, replace, edgeOps);
  return added;
}

namespace {

// The shardings an op's edges carried, one slot per owner (result or body
// argument); empty slots had no edge or an edge without a sharding.
using EdgeShardings = std::vector<std::optional<TensorSharding>>;

void record(EdgeShardings &slots, size_t size, size_t index, const TensorSharding &s) {
  slots.resize(size);
  slots[index] = s;
}

// One sharding per slot once any edge carried one: the others fully open
// on that mesh (propagation found nothing for them), each through `finish`.
std::vector<TensorSharding> completeSlots(const Module &m, const EdgeShardings &slots,
                                          const std::vector<ValueId> &owners,
                                          const std::function<TensorSharding(size_t, TensorSharding)> &finish) {
  const TensorSharding *any = nullptr;
  for (const std::optional<TensorSharding> &s : slots)
    if (s) any = &*s;
  std::vector<TensorSharding> all;
  for (size_t i = 0; i < owners.size(); ++i) {
    if (i < slots.size() && slots[i]) {
      all.push_back(finish(i, *slots[i]));
      continue;
    }
    TypeId t = m.type(owners[i]);
    TensorSharding open = TensorSharding::open(any->meshName, m.types.isTensor(t) ? size_t(m.types.rank(t)) : 0);
    open.inlineMesh = any->inlineMesh;
    all.push_back(finish(i, std::move(open)));
  }
  return all;
}

}  // namespace

size_t sinkDataFlowEdges(Module &m) {
  std::vector<OpId> edges;
  for (OpId func : m.functions())
    m.walk(func, [&](OpId op) {
      if (m.isa(op, "sdy.data_flow_edge")) edges.push_back(op);
    });
  // Per owner op: its results' edge shardings (`sdy.sharding`, or a
  // computation's `out_shardings`) and a computation's body arguments'
  // (`in_shardings`, local to the manual axes).
  std::map<OpId, EdgeShardings> results, bodyArgs;
  std::unordered_map<OpId, std::unordered_map<ValueId, ValueId>> replacePerFunc;
  for (OpId e : edges) {
    if (m.numOperands(e) != 1 || m.numResults(e) != 1) continue;
    ValueId owner = m.operand(e, 0);
    AttrId sa = m.attr(e, "sharding");
    const TensorSharding *s =
        sa != kNoAttr && m.attrs.kind(sa) == AttrKind::Sharding ? m.attrs.get(sa).sharding.get() : nullptr;
    const ValueInfo &info = m.values[owner];
    if (s && info.isBlockArg) {
      OpId op = m.regions[m.blocks[info.owner].parent].parent;
      if (opInfo(m, op).dataFlow == DataFlow::Computation)
        record(bodyArgs[op], m.blocks[info.owner].args.size(), info.index, *s);
    } else if (s) {
      record(results[info.owner], m.numResults(info.owner), info.index, *s);
    }
    replacePerFunc[m.enclosingFunc(e)][m.result(e, 0)] = owner;
    m.eraseOp(e);
  }
  for (const auto &[func, replace] : replacePerFunc) replaceUses(m, func, replace, {});
  for (const auto &[op, slots] : bodyArgs) {
    BlockId body = m.regions[m.region(op, 0)].blocks.front();
    std::vector<std::string> manual = manualAxesOf(m, op);
    // A body argument's sharding is local; the op's in_shardings are global
    // (the manual axes of the sharding it had come back in front).
    auto toGlobal = [&, computation = op](size_t i, TensorSharding local) {
      const TensorSharding *before = listEntry(m, computation, "in_shardings", i);
      return before ? ManualAxesView::of(*before, manual).toGlobal(std::move(local)) : local;
    };
    m.setAttr(op, "in_shardings", m.attrs.shardingPerValue(completeSlots(m, slots, m.blocks[body].args, toGlobal)));
  }
  for (const auto &[op, slots] : results) {
    std::vector<ValueId> owners;
    for (uint32_t i = 0; i < m.numResults(op); ++i) owners.push_back(m.result(op, i));
    bool isComputation = opInfo(m, op).dataFlow == DataFlow::Computation;
    auto same = [](size_t, TensorSharding s) { return s; };
    m.setAttr(op, isComputation ? "out_shardings" : "sdy.sharding",
              m.attrs.shardingPerValue(completeSlots(m, slots, owners, same)));
  }
  return edges.size();
}

namespace {

PassRegistration addReg("sdy-add-data-flow-edges",
                        "Insert sdy.data_flow_edge on values flowing through while/case/"
                        "optimization_barrier/manual computations",
                        [](Module &m, const PassOptions &, Diagnostics &) {
                          addDataFlowEdges(m);
                          return true;
                        });
PassRegistration sinkReg("sdy-sink-data-flow-edges",
                         "Move data-flow edge shardings onto their ops and erase the edges",
                         [](Module &m, const PassOptions &, Diagnostics &) {
                           sinkDataFlowEdges(m);
                           return true;
                         });

}  // namespace

}  // namespace autopart
