#include "propagation/PropagationGraph.h"

#include <algorithm>

#include "ir/ValueSharding.h"
#include "propagation/ShardingGroups.h"

namespace autopart {

namespace {

const TensorSharding *asSharding(const Module &m, AttrId a) {
  return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get() : nullptr;
}

void mix(size_t &h, uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

void mixAxes(size_t &h, const AxisList &axes) {
  mix(h, axes.size());
  for (const AxisRef &a : axes) {
    mix(h, std::hash<std::string_view>()(a.name));
    mix(h, uint64_t(a.preSize));
    mix(h, uint64_t(a.subSize));
  }
}

}  // namespace

size_t ShardingTable::Hash::operator()(const TensorSharding &s) const {
  size_t h = std::hash<std::string_view>()(s.meshName);
  mix(h, s.inlineMesh ? s.inlineMesh->axes.size() + 1 : 0);
  for (const DimSharding &d : s.dims) {
    mixAxes(h, d.axes);
    mix(h, uint64_t(d.closed) | uint64_t(d.priority ? *d.priority + 2 : 0) << 1);
  }
  mixAxes(h, s.replicated);
  mixAxes(h, s.unreduced);
  mix(h, std::hash<std::string_view>()(s.unreducedKind));
  return h;
}

PropagationGraph::PropagationGraph(const Module &m) : m_(m) {
  collectMeshes();
  slotOf_.assign(m_.values.size(), kNoSlot);
  bindOrder_.assign(m_.values.size(), 0);
  edgeIndex_.assign(m_.ops.size(), kNone);
  // At most a slot per value, function result and edge op: one allocation,
  // and slots never move.
  size_t bound = m_.values.size() + m_.ops.size();
  for (OpId func : m_.functions()) bound += FuncView{m_, func}.resultTypes().size();
  slots_.reserve(bound);
  for (OpId func : m_.functions()) buildFunction(func);
  buildUses();
  buildEdges();
  buildGroups();
  buildMembers();
  buildReaders();
}

const Mesh *PropagationGraph::meshOf(const TensorSharding &s) const {
  if (s.inlineMesh) return &*s.inlineMesh;
  for (const auto &[name, mesh] : meshes_)
    if (name == s.meshName) return &mesh;
  return nullptr;
}

const OpInfo &PropagationGraph::infoOf(OpId op) const {
  NameId name = m_.ops[op].name;
  if (name >= infoByName_.size()) infoByName_.resize(size_t(name) + 1, nullptr);
  if (!infoByName_[name]) infoByName_[name] = &opInfo(m_, op);
  return *infoByName_[name];
}

const std::vector<uint32_t> &PropagationGraph::funcResultSlots(OpId func) const {
  static const std::vector<uint32_t> kNoSlots;
  auto it = funcResultSlots_.find(func);
  return it == funcResultSlots_.end() ? kNoSlots : it->second;
}

const std::vector<uint32_t> &PropagationGraph::groupMembers(int64_t group) const {
  static const std::vector<uint32_t> kNoMembers;
  auto it = groups_.find(group);
  return it == groups_.end() ? kNoMembers : it->second;
}

const Edge *PropagationGraph::edgeOf(OpId edgeOp) const {
  if (edgeOp >= edgeIndex_.size() || edgeIndex_[edgeOp] == kNone) return nullptr;
  return &edges_[edgeIndex_[edgeOp]];
}

namespace {

bool useLess(OpId userA, uint32_t indexA, OpId userB, uint32_t indexB) {
  return userA != userB ? userA < userB : indexA < indexB;
}

}  // namespace

std::span<const OpId> PropagationGraph::edgesReading(OpId user, uint32_t index) const {
  auto first = std::lower_bound(edgesOfUse_.begin(), edgesOfUse_.end(), std::pair{user, index},
                                [](const EdgeUse &e, const std::pair<OpId, uint32_t> &u) {
                                  return useLess(e.user, e.index, u.first, u.second);
                                });
  auto last = first;
  while (last != edgesOfUse_.end() && last->user == user && last->index == index) ++last;
  if (first == last) return {};
  size_t begin = size_t(first - edgesOfUse_.begin());
  return {edgeOpsOfUse_.data() + begin, size_t(last - first)};
}

// --- Slots ---------------------------------------------------------------------------
void PropagationGraph::collectMeshes() {
  for (BlockId b : m_.regions[m_.region(m_.top, 0)].blocks)
    for (OpId op : m_.blocks[b].ops) {
      if (!m_.isa(op, "sdy.mesh")) continue;
      AttrId name = m_.attr(op, "sym_name"), mesh = m_.attr(op, "mesh");
      if (name == kNoAttr || mesh == kNoAttr || m_.attrs.kind(mesh) != AttrKind::Mesh) continue;
      std::string_view symbol = m_.attrs.stringValue(name);
      auto it = std::find_if(meshes_.begin(), meshes_.end(), [&](const auto &e) { return e.first == symbol; });
      if (it != meshes_.end()) it->second = *m_.attrs.get(mesh).mesh;
      else meshes_.emplace_back(std::string(symbol), *m_.attrs.get(mesh).mesh);
    }
}

bool PropagationGraph::shardableType(TypeId t) const {
  if (!m_.types.isTensor(t)) return false;
  for (int64_t d : m_.types.shape(t))
    if (d == kDynamic) return false;
  return true;
}

uint32_t PropagationGraph::newSlot(Storage storage, OpId op, uint32_t index, const TensorSharding *initial) {
  Slot &s = slots_.emplace_back();
  s.storage = storage;
  s.op = op;
  s.index = index;
  if (initial) s.sharding = intern(*initial);
  return uint32_t(slots_.size() - 1);
}

// The members of each slot are gathered once, in buildMembers.
void PropagationGraph::bindValue(ValueId v, uint32_t slot) {
  slotOf_[v] = slot;
  bindOrder_[v] = numBinds_++;
}

// Moves `v` to the edge's slot (its own slot, if any, stays unused).
void PropagationGraph::rebind(ValueId v, uint32_t slot) {
  if (!shardableType(m_.type(v))) return;
  uint32_t old = slotOf_[v];
  if (old != kNoSlot) {
    // A value that carried a sharding of its own hands it to the edge when
    // the edge has none yet.
    if (!slots_[slot].sharding && slots_[old].sharding && slots_[old].storage != Storage::None)
      slots_[slot].sharding = slots_[old].sharding;
  }
  bindValue(v, slot);
}

// --- Functions and ops -----------------------------------------------------------------
void PropagationGraph::buildFunction(OpId func) {
  FuncView f{m_, func};
  std::span<const ValueId> args = f.args();
  for (size_t i = 0; i < args.size(); ++i)
    if (shardableType(m_.type(args[i])))
      bindValue(args[i], newSlot(Storage::FuncArg, func, uint32_t(i), asSharding(m_, f.argAttr(i, "sdy.sharding"))));
  std::vector<TypeId> resultTypes = f.resultTypes();
  std::vector<uint32_t> &resSlots = funcResultSlots_[func];
  for (size_t i = 0; i < resultTypes.size(); ++i)
    resSlots.push_back(shardableType(resultTypes[i])
                           ? newSlot(Storage::FuncResult, func, uint32_t(i),
                                     asSharding(m_, f.resultAttr(i, "sdy.sharding")))
                           : kNoSlot);
  m_.walk(func, [&](OpId op) { visitOp(op); });
}

void PropagationGraph::visitOp(OpId op) {
  order_.push_back(op);
  std::string_view name = m_.opName(op);
  if (name == "sdy.data_flow_edge" || name == "sdy.func_data_flow_edge") {
    edgeOps_.push_back(op);
    return;  // bound in buildEdges
  }
  DataFlow flow = infoOf(op).dataFlow;
  if (flow == DataFlow::Call)
    if (OpId callee = m_.lookupFunc(m_.attr(op, "callee")); callee != kNone) callsTo_[callee].push_back(op);
  if (name == "sdy.sharding_group") {
    groupOps_.push_back(op);
    return;
  }
  bindResults(op, name);
  bindBlockArgs(op, flow == DataFlow::Computation);
}

void PropagationGraph::bindResults(OpId op, std::string_view name) {
  bool attrStored = name == "sdy.sharding_constraint" || name == "sdy.reshard";
  bool computation = infoOf(op).dataFlow == DataFlow::Computation;
  AttrId perValue = m_.attr(op, "sdy.sharding");
  for (uint32_t i = 0; i < m_.numResults(op); ++i) {
    ValueId v = m_.result(op, i);
    if (!shardableType(m_.type(v))) continue;
    const TensorSharding *initial = nullptr;
    if (computation) {
      bindValue(v, newSlot(Storage::OutSharding, op, i, listEntry(op, "out_shardings", i)));
      continue;
    }
    if (attrStored) {
      initial = asSharding(m_, m_.attr(op, "sharding"));
    } else if (perValue != kNoAttr && m_.attrs.kind(perValue) == AttrKind::ShardingPerValue) {
      const std::vector<TensorSharding> &all = m_.attrs.get(perValue).shardings;
      if (i < all.size()) initial = &all[i];
    }
    bindValue(v, newSlot(attrStored ? Storage::OpAttr : Storage::OpResult, op, i, initial));
  }
}

// Block arguments of nested regions: a computation's body arguments hold its
// `in_shardings` (local form); others are shardable only through an edge.
void PropagationGraph::bindBlockArgs(OpId op, bool computation) {
  for (uint32_t r = 0; r < m_.numRegions(op); ++r)
    for (BlockId b : m_.regions[m_.region(op, r)].blocks) {
      const std::vector<ValueId> &args = m_.blocks[b].args;
      for (uint32_t i = 0; i < args.size(); ++i) {
        if (!shardableType(m_.type(args[i]))) continue;
        const TensorSharding *in = computation && r == 0 ? listEntry(op, "in_shardings", i) : nullptr;
        if (!in) {
          bindValue(args[i], newSlot(Storage::None, op, 0, nullptr));
          continue;
        }
        views_.push_back(ManualAxesView::of(*in, manualAxesOf(m_, op)));
        TensorSharding local = views_.back().toLocal(*in);
        uint32_t slot = newSlot(Storage::InSharding, op, i, &local);
        slots_[slot].manual = &views_.back();
        bindValue(args[i], slot);
      }
    }
}

OpId PropagationGraph::terminatorOf(RegionId r) const {
  const Region &region = m_.regions[r];
  if (region.blocks.empty()) return kNone;
  const std::vector<OpId> &ops = m_.blocks[region.blocks.front()].ops;
  return ops.empty() || infoOf(ops.back()).category != OpCategory::Terminator ? kNone : ops.back();
}

const TensorSharding *PropagationGraph::listEntry(OpId op, std::string_view attr, size_t i) const {
  AttrId a = m_.attr(op, attr);
  if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
  const std::vector<TensorSharding> &all = m_.attrs.get(a).shardings;
  return i < all.size() ? &all[i] : nullptr;
}

// --- Data-flow edges -------------------------------------------------------------------
void PropagationGraph::addSource(Edge &e, OpId user, uint32_t index, const ManualAxesView *manual) {
  if (user == kNone || index >= m_.numOperands(user)) return;
  e.sources.push_back({slotOf_[m_.operand(user, index)], manual});
  e.sourceUses.push_back({user, index});
}

// A `sdy.func_data_flow_edge` on a function argument takes the operand of
// every call to the function; one on a call result takes what the callee
// returns. The edge's own `sdy.sharding` holds the sharding, the function
// argument and call result share it (as Shardy's edge owns it until it is
// sunk).
void PropagationGraph::addFuncEdgeSources(Edge &e, ValueId input) {
  const ValueInfo &info = m_.values[input];
  if (info.isBlockArg) {
    auto it = callsTo_.find(m_.regions[m_.blocks[info.owner].parent].parent);
    if (it == callsTo_.end()) return;
    for (OpId call : it->second) addSource(e, call, info.index);
    return;
  }
  OpId call = info.owner;
  if (!m_.isa(call, "func.call")) return;
  OpId func = m_.lookupFunc(m_.attr(call, "callee"));
  if (func == kNone) return;
  addSource(e, FuncView{m_, func}.returnOp(), info.index);
}

// An edge on result `input` of a control-flow op or computation: what flows
// into that result (operands, region terminators) is the source. A while's
// block arguments join the edge's slot too.
void PropagationGraph::addOwnerSources(Edge &e, uint32_t slot, ValueId input) {
  OpId owner = m_.values[input].owner;
  uint32_t i = m_.values[input].index;
  DataFlow flow = infoOf(owner).dataFlow;
  if (flow == DataFlow::Loop) {
    for (uint32_t r = 0; r < m_.numRegions(owner); ++r)
      for (BlockId b : m_.regions[m_.region(owner, r)].blocks)
        if (i < m_.blocks[b].args.size()) rebind(m_.blocks[b].args[i], slot);
    addSource(e, owner, i);
    if (m_.numRegions(owner) > 1) addSource(e, terminatorOf(m_.region(owner, 1)), i);
  } else if (flow == DataFlow::Branch) {
    for (uint32_t r = 0; r < m_.numRegions(owner); ++r) addSource(e, terminatorOf(m_.region(owner, r)), i);
  } else if (flow == DataFlow::Barrier) {
    addSource(e, owner, i);
  } else if (flow == DataFlow::Computation) {
    const ManualAxesView *manual = nullptr;
    if (m_.isa(owner, "sdy.manual_computation"))
      if (const TensorSharding *o = listEntry(owner, "out_shardings", i)) {
        views_.push_back(ManualAxesView::of(*o, manualAxesOf(m_, owner)));
        manual = &views_.back();
      }
    if (m_.numRegions(owner) > 0) addSource(e, terminatorOf(m_.region(owner, 0)), i, manual);
  }
}

void PropagationGraph::buildEdges() {
  for (OpId edgeOp : edgeOps_) {
    if (m_.numOperands(edgeOp) != 1 || m_.numResults(edgeOp) != 1) continue;
    ValueId input = m_.operand(edgeOp, 0), out = m_.result(edgeOp, 0);
    if (!shardableType(m_.type(out))) continue;
    bool funcEdge = m_.isa(edgeOp, "sdy.func_data_flow_edge");
    uint32_t slot = funcEdge ? newSlot(Storage::OpResult, edgeOp, 0, listEntry(edgeOp, "sdy.sharding", 0))
                             : newSlot(Storage::OpAttr, edgeOp, 0, asSharding(m_, m_.attr(edgeOp, "sharding")));
    bindValue(out, slot);
    Edge e;
    e.op = edgeOp;
    e.target.slot = slot;
    rebind(input, slot);
    const ValueInfo &info = m_.values[input];
    if (funcEdge) {
      addFuncEdgeSources(e, input);
    } else if (info.isBlockArg) {
      // A body argument of a manual / named computation: the op's operand
      // flows into it.
      OpId owner = m_.regions[m_.blocks[info.owner].parent].parent;
      if (m_.isa(owner, "sdy.manual_computation")) {
        if (const TensorSharding *in = listEntry(owner, "in_shardings", info.index)) {
          views_.push_back(ManualAxesView::of(*in, manualAxesOf(m_, owner)));
          e.target.manual = &views_.back();
        }
      }
      addSource(e, owner, info.index);
    } else {
      addOwnerSources(e, slot, input);
    }
    for (const Use &u : e.sourceUses) edgesOfUse_.push_back({u.user, u.index, edgeOp});
    edgeIndex_[edgeOp] = uint32_t(edges_.size());
    edges_.push_back(std::move(e));
  }
  std::stable_sort(edgesOfUse_.begin(), edgesOfUse_.end(), [](const EdgeUse &a, const EdgeUse &b) {
    return useLess(a.user, a.index, b.user, b.index);
  });
  edgeOpsOfUse_.reserve(edgesOfUse_.size());
  for (const EdgeUse &e : edgesOfUse_) edgeOpsOfUse_.push_back(e.edgeOp);
}

// --- Sharding groups -------------------------------------------------------------------
void PropagationGraph::buildGroups() {
  for (OpId op : groupOps_) {
    AttrId id = m_.attr(op, "group_id");
    if (id == kNoAttr || m_.numOperands(op) != 1) continue;
    uint32_t slot = slotOf_[m_.operand(op, 0)];
    if (slot == kNoSlot) continue;
    int64_t g = m_.attrs.get(id).intValue;
    slots_[slot].group = g;
    groups_[g].push_back(slot);
  }
  // Members start equal: every member takes the sharding the sharded ones
  // agree on (conflicting groups were given open constraints before, see
  // ShardingGroups.h).
  for (auto &[g, members] : groups_) {
    const TensorSharding *common = nullptr;
    bool agree = true;
    for (uint32_t slot : members) {
      const TensorSharding *s = slots_[slot].sharding;
      if (!s || isFullyOpenUnsharded(*s)) continue;
      if (!common) common = s;
      else agree &= common == s;  // interned: equal means the same pointer
    }
    if (!common || !agree) continue;
    const TensorSharding *shared = common;
    for (uint32_t slot : members)
      if (slots_[slot].storage != Storage::None && slots_[slot].sharding != shared) {
        slots_[slot].sharding = shared;
        slots_[slot].changed = true;
      }
  }
}

// --- Flat per-program tables -----------------------------------------------------------
// Every operand of every op, in op order.
void PropagationGraph::buildUses() {
  useBegin_.assign(m_.values.size() + 1, 0);
  for (OpId op : order_)
    for (ValueId v : m_.operands(op)) ++useBegin_[v + 1];
  for (size_t v = 0; v < m_.values.size(); ++v) useBegin_[v + 1] += useBegin_[v];
  uses_.resize(useBegin_.back());
  std::vector<uint32_t> fill(useBegin_.begin(), useBegin_.end() - 1);
  for (OpId op : order_) {
    std::span<const ValueId> operands = m_.operands(op);
    for (uint32_t i = 0; i < operands.size(); ++i) uses_[fill[operands[i]]++] = {op, i};
  }
}

// A slot's members in the order they were bound (a rebound value counts
// from its last binding).
void PropagationGraph::buildMembers() {
  std::vector<ValueId> byOrder(numBinds_, kNone);
  for (ValueId v = 0; v < slotOf_.size(); ++v)
    if (slotOf_[v] != kNoSlot) byOrder[bindOrder_[v]] = v;
  members_ = buildCsr(slots_.size(), [&](auto &&emit) {
    for (ValueId v : byOrder)
      if (v != kNone) emit(slotOf_[v], v);
  });
}

void PropagationGraph::buildReaders() {
  readers_ = buildCsr(slots_.size(), [&](auto &&emit) {
    for (uint32_t slot = 0; slot < slots_.size(); ++slot)
      for (ValueId v : membersOf(slot)) {
        const ValueInfo &info = m_.values[v];
        OpId owner = info.isBlockArg ? m_.regions[m_.blocks[info.owner].parent].parent : info.owner;
        if (owner != kNone) emit(slot, owner);
        for (const Use &u : usesOf(v)) {
          std::span<const OpId> edgeOps = edgesReading(u.user, u.index);
          if (!edgeOps.empty()) {
            for (OpId edgeOp : edgeOps) emit(slot, edgeOp);
          } else if (infoOf(u.user).category == OpCategory::Terminator) {
            if (OpId parent = m_.parentOp(u.user); parent != kNone) emit(slot, parent);
          } else {
            emit(slot, u.user);
          }
        }
      }
  });
}

}  // namespace autopart
