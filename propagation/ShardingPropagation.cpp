#include "propagation/ShardingPropagation.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/Pass.h"
#include "propagation/DataFlowEdges.h"
#include "propagation/ShardingGroups.h"
#include "rules/OpShardingRuleRegistry.h"
#include "rules/RuleCache.h"

namespace autopart {

namespace {

constexpr uint32_t kNoSlot = kNone;

// Where a slot's sharding lives in the module, for the final write-back.
enum class Storage : uint8_t {
  None,        // not stored (e.g. a while block argument without an edge)
  FuncArg,     // func argument `sdy.sharding`
  FuncResult,  // func result `sdy.sharding`
  OpResult,    // `sdy.sharding` per result of `op`
  OpAttr,      // the `sharding` attribute of `op` (constraints, edges)
  InSharding,  // `in_shardings[index]` of a computation, for its body argument
  OutSharding, // `out_shardings[index]` of a computation, for its result
};

// One sharding shared by one or more values: a data-flow edge ties the while
// result, its block arguments and the edge's own result to one slot.
struct Slot {
  std::optional<TensorSharding> sharding;
  Storage storage = Storage::None;
  OpId op = kNone;     // func for FuncArg/FuncResult, owner otherwise
  uint32_t index = 0;  // argument / result number
  bool changed = false;
  std::vector<ValueId> members;
  // For InSharding of a manual computation: the body sees the local form.
  const ManualAxesView *manual = nullptr;
  int64_t group = -1;  // sharding group id
  // Dimensions whose user priority has not had its round yet: they take no
  // part in propagation (neither source, target nor obstacle).
  std::vector<bool> hidden;
};

// A tensor taking part in a propagation step: its slot, and for the local
// side of a manual computation edge, the manual axes its sharding lacks.
struct Participant {
  uint32_t slot = kNoSlot;
  const ManualAxesView *manual = nullptr;
};

struct Use {
  OpId user;
  uint32_t index;
};

// Either a data-flow edge (sources -> target) or nothing.
struct Edge {
  OpId op = kNone;
  std::vector<Participant> sources;
  Participant target;
  std::vector<Use> sourceUses;
};

bool isTerminatorName(std::string_view n) {
  return n == "func.return" || n == "stablehlo.return" || n == "sdy.return";
}

// The rule of a step that passes a tensor through unchanged (edges, barriers,
// function results): one factor per dimension.
OpShardingRule identityRule(const std::vector<int64_t> &shape, size_t numOperands) {
  OpShardingRule rule;
  OpShardingRule::TensorFactors mapping;
  for (int64_t size : shape) mapping.push_back({rule.addFactor(size)});
  rule.operands.assign(numOperands, mapping);
  rule.results.push_back(mapping);
  return rule;
}

class Propagator {
public:
  Propagator(Module &m, const PropagationOptions &options, Diagnostics &diags)
      : m_(m), options_(options), diags_(diags) {}

  bool run(PropagationStats *stats) {
    if (m_.top == kNone) return true;
    isolateConflictingShardingGroups(m_, diags_);
    collectMeshes();
    slotOf_.assign(m_.values.size(), kNoSlot);
    uses_.resize(m_.values.size());
    for (OpId func : m_.functions()) buildFunction(func);
    if (!buildEdges()) return false;
    buildGroups();

    if (!options_.userPriorities) {
      propagateAll();
    } else {
      std::vector<int64_t> rounds = hideByPriority();
      propagateAll();
      for (int64_t p : rounds) {
        revealPriority(p);
        propagateAll();
      }
    }
    writeBack();
    if (stats) *stats = stats_;
    return !diags_.hasErrors();
  }

private:
  // One fixpoint over the whole module.
  void propagateAll() {
    if (!options_.opPriorities) {
      fixpoint();
      return;
    }
    for (opLevel_ = 0; opLevel_ < 3; ++opLevel_) fixpoint();
    opLevel_ = -1;
  }

  void fixpoint() {
    for (OpId func : m_.functions()) propagateFuncResults(func);
    // Top-down: the stack is filled in reverse so the first op pops first.
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) push(*it);
    while (!stack_.empty()) {
      OpId op = stack_.back();
      stack_.pop_back();
      inStack_[op] = false;
      ++stats_.steps;
      step(op);
    }
    for (OpId func : m_.functions()) propagateFuncResults(func);
  }

  // --- User priorities ----------------------------------------------------------
  // A dimension without a priority has the lowest one.
  static int64_t priorityOf(const DimSharding &d) {
    return d.priority.value_or(std::numeric_limits<int64_t>::max());
  }

  // Before the first round every dimension with a priority above 0 is hidden:
  // empty, left out of every projection, and its axes explicitly replicated
  // so that no other dimension of the tensor takes them. Returns the later
  // rounds' priorities.
  std::vector<int64_t> hideByPriority() {
    std::vector<int64_t> rounds;
    for (uint32_t i = 0; i < slots_.size(); ++i) {
      std::optional<TensorSharding> &s = slots_[i].sharding;
      if (!s) continue;
      const Mesh *mesh = meshOf(*s);
      bool hides = false;
      for (const DimSharding &d : s->dims) hides |= priorityOf(d) != 0;
      if (!hides || !mesh) {
        for (DimSharding &d : s->dims)
          if (d.priority) {
            d.priority.reset();
            slots_[i].changed = true;
          }
        continue;
      }
      originals_.push_back({i, *s});
      slots_[i].hidden.assign(s->dims.size(), false);
      for (size_t k = 0; k < s->dims.size(); ++k) {
        DimSharding &d = s->dims[k];
        int64_t p = priorityOf(d);
        if (p != 0) {
          slots_[i].hidden[k] = true;
          rounds.push_back(p);
          s->replicated.insert(s->replicated.end(), d.axes.begin(), d.axes.end());
          d = DimSharding{};
        }
        d.priority.reset();
      }
      // Sorted but not merged, so that each revealed axis is found again.
      sortByMesh(s->replicated, *mesh);
      slots_[i].changed = true;
    }
    std::sort(rounds.begin(), rounds.end());
    rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
    return rounds;
  }

  // Puts back the user's dimensions of priority `p` (their axes leave the
  // replicated set) for the next round.
  void revealPriority(int64_t p) {
    for (const auto &[slot, original] : originals_) {
      std::optional<TensorSharding> &s = slots_[slot].sharding;
      if (!s) continue;
      AxisList revealed;
      for (size_t d = 0; d < original.dims.size() && d < s->dims.size(); ++d) {
        if (priorityOf(original.dims[d]) != p) continue;
        slots_[slot].hidden[d] = false;
        s->dims[d] = original.dims[d];
        s->dims[d].priority.reset();
        revealed.insert(revealed.end(), original.dims[d].axes.begin(), original.dims[d].axes.end());
      }
      std::erase_if(s->replicated, [&](const AxisRef &a) {
        return std::find(revealed.begin(), revealed.end(), a) != revealed.end();
      });
    }
  }

  // --- Setup -------------------------------------------------------------------
  void collectMeshes() {
    for (BlockId b : m_.regions[m_.region(m_.top, 0)].blocks)
      for (OpId op : m_.blocks[b].ops) {
        if (!m_.isa(op, "sdy.mesh")) continue;
        AttrId name = m_.attr(op, "sym_name"), mesh = m_.attr(op, "mesh");
        if (name != kNoAttr && mesh != kNoAttr && m_.attrs.kind(mesh) == AttrKind::Mesh)
          meshes_[std::string(m_.attrs.stringValue(name))] = *m_.attrs.get(mesh).mesh;
      }
  }

  bool shardableType(TypeId t) const {
    if (!m_.types.isTensor(t)) return false;
    for (int64_t d : m_.types.shape(t))
      if (d == kDynamic) return false;
    return true;
  }

  uint32_t newSlot(Storage storage, OpId op, uint32_t index, const TensorSharding *initial) {
    Slot s;
    s.storage = storage;
    s.op = op;
    s.index = index;
    if (initial) s.sharding = *initial;
    slots_.push_back(std::move(s));
    return uint32_t(slots_.size() - 1);
  }

  void bindValue(ValueId v, uint32_t slot) {
    slotOf_[v] = slot;
    slots_[slot].members.push_back(v);
  }

  static const TensorSharding *asSharding(const Module &m, AttrId a) {
    return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get()
                                                                 : nullptr;
  }

  void buildFunction(OpId func) {
    FuncView f{m_, func};
    std::span<const ValueId> args = f.args();
    for (size_t i = 0; i < args.size(); ++i)
      if (shardableType(m_.type(args[i])))
        bindValue(args[i], newSlot(Storage::FuncArg, func, uint32_t(i),
                                   asSharding(m_, f.argAttr(i, "sdy.sharding"))));
    std::vector<TypeId> resultTypes = f.resultTypes();
    std::vector<uint32_t> &resSlots = funcResultSlots_[func];
    for (size_t i = 0; i < resultTypes.size(); ++i)
      resSlots.push_back(shardableType(resultTypes[i])
                             ? newSlot(Storage::FuncResult, func, uint32_t(i),
                                       asSharding(m_, f.resultAttr(i, "sdy.sharding")))
                             : kNoSlot);
    m_.walk(func, [&](OpId op) { visitOp(op); });
  }

  void visitOp(OpId op) {
    order_.push_back(op);
    std::span<const ValueId> operands = m_.operands(op);
    for (uint32_t i = 0; i < operands.size(); ++i) uses_[operands[i]].push_back({op, i});
    std::string_view name = m_.opName(op);
    if (name == "sdy.data_flow_edge" || name == "sdy.func_data_flow_edge") {
      edgeOps_.push_back(op);
      return;  // bound in buildEdges
    }
    if (name == "func.call")
      if (OpId callee = m_.lookupFunc(m_.attr(op, "callee")); callee != kNone) callsTo_[callee].push_back(op);
    if (name == "sdy.sharding_group") {
      groupOps_.push_back(op);
      return;
    }
    bool attrStored = name == "sdy.sharding_constraint" || name == "sdy.reshard";
    bool computation = name == "sdy.manual_computation" || name == "sdy.named_computation";
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
    // Block arguments of nested regions: a computation's body arguments hold
    // its `in_shardings` (local form); others are shardable only through an
    // edge.
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

  OpId terminatorOf(RegionId r) const {
    const Region &region = m_.regions[r];
    if (region.blocks.empty()) return kNone;
    const std::vector<OpId> &ops = m_.blocks[region.blocks.front()].ops;
    return ops.empty() || !isTerminatorName(m_.opName(ops.back())) ? kNone : ops.back();
  }

  const TensorSharding *listEntry(OpId op, std::string_view attr, size_t i) const {
    AttrId a = m_.attr(op, attr);
    if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
    const std::vector<TensorSharding> &all = m_.attrs.get(a).shardings;
    return i < all.size() ? &all[i] : nullptr;
  }

  void addSource(Edge &e, OpId user, uint32_t index, const ManualAxesView *manual = nullptr) {
    if (user == kNone || index >= m_.numOperands(user)) return;
    e.sources.push_back({slotOf_[m_.operand(user, index)], manual});
    e.sourceUses.push_back({user, index});
  }

  // A `sdy.func_data_flow_edge` on a function argument takes the operand of
  // every call to the function; one on a call result takes what the callee
  // returns. The edge's own `sdy.sharding` holds the sharding, the function
  // argument and call result share it (as Shardy's edge owns it until it is
  // sunk).
  void addFuncEdgeSources(Edge &e, ValueId input) {
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

  bool buildEdges() {
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
      const ValueInfo &info = m_.values[input];
      if (funcEdge) {
        rebind(input, slot);
        addFuncEdgeSources(e, input);
      } else if (info.isBlockArg) {
        // A body argument of a manual / named computation: the op's operand
        // flows into it.
        OpId owner = m_.regions[m_.blocks[info.owner].parent].parent;
        rebind(input, slot);
        if (m_.isa(owner, "sdy.manual_computation")) {
          if (const TensorSharding *in = listEntry(owner, "in_shardings", info.index)) {
            views_.push_back(ManualAxesView::of(*in, manualAxesOf(m_, owner)));
            e.target.manual = &views_.back();
          }
        }
        addSource(e, owner, info.index);
      } else {
        OpId owner = info.owner;
        uint32_t i = info.index;
        rebind(input, slot);
        std::string_view n = m_.opName(owner);
        if (n == "stablehlo.while") {
          for (uint32_t r = 0; r < m_.numRegions(owner); ++r)
            for (BlockId b : m_.regions[m_.region(owner, r)].blocks)
              if (i < m_.blocks[b].args.size()) rebind(m_.blocks[b].args[i], slot);
          addSource(e, owner, i);
          if (m_.numRegions(owner) > 1) addSource(e, terminatorOf(m_.region(owner, 1)), i);
        } else if (n == "stablehlo.case" || n == "stablehlo.if") {
          for (uint32_t r = 0; r < m_.numRegions(owner); ++r) addSource(e, terminatorOf(m_.region(owner, r)), i);
        } else if (n == "stablehlo.optimization_barrier") {
          addSource(e, owner, i);
        } else if (n == "sdy.manual_computation" || n == "sdy.named_computation") {
          const ManualAxesView *manual = nullptr;
          if (n == "sdy.manual_computation")
            if (const TensorSharding *o = listEntry(owner, "out_shardings", i)) {
              views_.push_back(ManualAxesView::of(*o, manualAxesOf(m_, owner)));
              manual = &views_.back();
            }
          if (m_.numRegions(owner) > 0) addSource(e, terminatorOf(m_.region(owner, 0)), i, manual);
        }
      }
      for (const Use &u : e.sourceUses) edgesOfUse_[{u.user, u.index}].push_back(uint32_t(edges_.size()));
      edgeIndex_[edgeOp] = uint32_t(edges_.size());
      edges_.push_back(std::move(e));
    }
    return true;
  }

  // Moves `v` to the edge's slot (its own slot, if any, stays unused).
  void rebind(ValueId v, uint32_t slot) {
    if (!shardableType(m_.type(v))) return;
    uint32_t old = slotOf_[v];
    if (old != kNoSlot) {
      std::vector<ValueId> &mem = slots_[old].members;
      std::erase(mem, v);
      // A value that carried a sharding of its own hands it to the edge when
      // the edge has none yet.
      if (!slots_[slot].sharding && slots_[old].sharding && slots_[old].storage != Storage::None)
        slots_[slot].sharding = slots_[old].sharding;
    }
    bindValue(v, slot);
  }

  void buildGroups() {
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
        const std::optional<TensorSharding> &s = slots_[slot].sharding;
        if (!s || isFullyOpenUnsharded(*s)) continue;
        if (!common) common = &*s;
        else agree &= *common == *s;
      }
      if (!common || !agree) continue;
      TensorSharding shared = *common;
      for (uint32_t slot : members)
        if (slots_[slot].storage != Storage::None &&
            (!slots_[slot].sharding || !(*slots_[slot].sharding == shared))) {
          slots_[slot].sharding = shared;
          slots_[slot].changed = true;
        }
    }
  }

  // --- Worklist -----------------------------------------------------------------
  void push(OpId op) {
    if (op == kNone) return;
    if (inStack_.size() <= op) inStack_.resize(m_.ops.size(), false);
    if (inStack_[op]) return;
    inStack_[op] = true;
    stack_.push_back(op);
  }

  // Requeues every step that reads a value of `slot`, except `current`.
  void notify(uint32_t slot, OpId current) {
    auto enqueue = [&](OpId op) {
      if (op != current) push(op);
    };
    for (ValueId v : slots_[slot].members) {
      const ValueInfo &info = m_.values[v];
      if (info.isBlockArg) enqueue(m_.regions[m_.blocks[info.owner].parent].parent);
      else enqueue(info.owner);
      for (const Use &u : uses_[v]) {
        auto it = edgesOfUse_.find({u.user, u.index});
        if (it != edgesOfUse_.end()) {
          for (uint32_t e : it->second) enqueue(edges_[e].op);
        } else if (isTerminatorName(m_.opName(u.user))) enqueue(m_.parentOp(u.user));
        else enqueue(u.user);
      }
    }
  }

  // Valid until the next call (rules of ops the cache does not memoize are
  // rebuilt each time).
  const OpShardingRule *ruleOf(OpId op) {
    if (!rules_) {
      RuleOptions ro;
      ro.conservativePropagation = options_.conservative;
      rules_.emplace(m_, ro, nullptr);
    }
    return rules_->get(op);
  }

  // --- Op priorities ---------------------------------------------------------------
  // Whether every tensor of the rule is the op's iteration space itself, one
  // pass-through factor per dimension (add, negate, sharding_constraint...).
  static bool isElementwise(const OpShardingRule &rule) {
    if (rule.results.empty()) return false;
    const OpShardingRule::TensorFactors &first = rule.results.front();
    for (const OpShardingRule::DimFactors &d : first)
      if (d.size() != 1 || rule.kind(d.front()) != FactorKind::PassThrough) return false;
    for (const auto *list : {&rule.operands, &rule.results})
      for (const OpShardingRule::TensorFactors &t : *list)
        if (t != first) return false;
    return true;
  }

  // Shardy's op-priority schedule: level 0 only elementwise ops, reshapes,
  // transposes and edges (dynamic slices forward only); level 1 adds every
  // pass-through factor (broadcasts backward only); level 2 everything. A
  // level allows the union of its own and the earlier levels' directions.
  PropagationDirection opDirection(OpId op, const OpShardingRule *rule, size_t factor) const {
    if (opLevel_ < 0) return PropagationDirection::Both;
    std::string_view n = m_.opName(op);
    PropagationDirection d = PropagationDirection::None;
    if (n == "sdy.data_flow_edge" || n == "sdy.func_data_flow_edge" || n == "stablehlo.reshape" ||
        n == "stablehlo.transpose" ||
        (rule && isElementwise(*rule)))
      d = PropagationDirection::Both;
    else if (n == "stablehlo.dynamic_slice" || n == "stablehlo.dynamic_update_slice")
      d = PropagationDirection::Forward;
    if (opLevel_ >= 1) {
      PropagationDirection d1 = PropagationDirection::Both;
      if (rule && rule->kind(int32_t(factor)) != FactorKind::PassThrough) d1 = PropagationDirection::None;
      else if (n == "stablehlo.broadcast_in_dim") d1 = PropagationDirection::Backward;
      d = unionOf(d, d1);
    }
    if (opLevel_ >= 2) d = PropagationDirection::Both;
    return d;
  }

  void step(OpId op) {
    std::string_view name = m_.opName(op);
    if (name == "sdy.data_flow_edge" || name == "sdy.func_data_flow_edge") {
      auto it = edgeIndex_.find(op);
      if (it == edgeIndex_.end()) return;
      const Edge &e = edges_[it->second];
      propagate(op, identityRule(m_.types.shape(m_.type(m_.result(op, 0))), e.sources.size()), e.sources,
                {e.target}, [&](size_t f) { return opDirection(op, nullptr, f); });
      return;
    }
    if (name == "sdy.propagation_barrier") {
      if (m_.numOperands(op) != 1 || m_.numResults(op) != 1) return;
      PropagationDirection dir = barrierDirection(op);
      if (dir == PropagationDirection::None) return;
      propagate(op, identityRule(m_.types.shape(m_.type(m_.result(op, 0))), 1), {{slotOf_[m_.operand(op, 0)]}},
                {{slotOf_[m_.result(op, 0)]}},
                [&](size_t f) { return intersectionOf(dir, opDirection(op, nullptr, f)); });
      return;
    }
    if (isDataFlowOp(m_, op) || isTerminatorName(name)) return;
    const OpShardingRule *rule = ruleOf(op);
    if (!rule || rule->operands.size() != m_.numOperands(op) || rule->results.size() != m_.numResults(op))
      return;
    std::vector<Participant> operands, results;
    for (ValueId v : m_.operands(op)) operands.push_back({slotOf_[v]});
    for (uint32_t i = 0; i < m_.numResults(op); ++i) results.push_back({slotOf_[m_.result(op, i)]});
    if (propagate(op, *rule, operands, results, [&](size_t f) { return opDirection(op, rule, f); }) &&
        options_.keepShardingRules)
      rulesToKeep_.push_back(op);
  }

  PropagationDirection barrierDirection(OpId op) const {
    AttrId a = m_.attr(op, "allowed_direction");
    std::string text = a == kNoAttr ? "" : m_.attrs.get(a).text;
    if (text.find("FORWARD") != std::string::npos) return PropagationDirection::Forward;
    if (text.find("BACKWARD") != std::string::npos) return PropagationDirection::Backward;
    if (text.find("BOTH") != std::string::npos) return PropagationDirection::Both;
    return PropagationDirection::None;
  }

  // Only public functions: a private function's results are reached through
  // its call sites (as Shardy leaves them to call edges).
  void propagateFuncResults(OpId func) {
    AttrId vis = m_.attr(func, "sym_visibility");
    if (vis != kNoAttr && m_.attrs.stringValue(vis) == "private") return;
    FuncView f{m_, func};
    OpId ret = f.returnOp();
    if (ret == kNone) return;
    const std::vector<uint32_t> &resSlots = funcResultSlots_[func];
    for (uint32_t i = 0; i < m_.numOperands(ret) && i < resSlots.size(); ++i) {
      ValueId v = m_.operand(ret, i);
      if (resSlots[i] == kNoSlot || slotOf_[v] == kNoSlot) continue;
      propagate(func, identityRule(m_.types.shape(m_.type(v)), 1), {{slotOf_[v]}}, {{resSlots[i]}}, {});
    }
  }

  // --- One propagation step ---------------------------------------------------------
  const Mesh *meshOf(const TensorSharding &s) const {
    if (s.inlineMesh) return &*s.inlineMesh;
    auto it = meshes_.find(s.meshName);
    return it == meshes_.end() ? nullptr : &it->second;
  }

  static bool isEmptyMesh(const Mesh &mesh) { return mesh.axes.empty() && mesh.deviceIds.empty(); }

  // The sharding a participant shows in the step's (global) view; converted
  // ones (manual computation edges) live in `scratch`.
  const TensorSharding *view(const Participant &p, std::deque<TensorSharding> &scratch) const {
    if (p.slot == kNoSlot || !slots_[p.slot].sharding) return nullptr;
    const TensorSharding &s = *slots_[p.slot].sharding;
    if (!p.manual) return &s;
    scratch.push_back(p.manual->toGlobal(s));
    return &scratch.back();
  }

  // `direction` per factor; empty means Both.
  bool propagate(OpId op, const OpShardingRule &rule, const std::vector<Participant> &operands,
                 const std::vector<Participant> &results,
                 const std::function<PropagationDirection(size_t)> &direction) {
    std::deque<TensorSharding> scratch;
    std::vector<const TensorSharding *> views;
    for (const Participant &p : operands) views.push_back(view(p, scratch));
    for (const Participant &p : results) views.push_back(view(p, scratch));
    // The common mesh: empty meshes (no axes, no devices) defer to any other;
    // two different non-empty meshes stop propagation through this step.
    const Mesh *mesh = nullptr;
    const TensorSharding *meshSource = nullptr;
    for (const TensorSharding *s : views) {
      if (!s) continue;
      const Mesh *other = meshOf(*s);
      if (!other) return false;
      if (!mesh || isEmptyMesh(*mesh)) {
        mesh = other;
        meshSource = s;
      } else if (!(*other == *mesh) && !isEmptyMesh(*other)) {
        return false;
      }
    }
    if (!mesh || mesh->axes.empty()) return false;
    // Copied: the updates below may overwrite the sharding they come from.
    const std::string meshName = meshSource->meshName;
    const std::optional<Mesh> inlineMesh = meshSource->inlineMesh;
    const Mesh meshValue = *mesh;

    OpProjection projection;
    for (size_t i = 0; i < operands.size(); ++i)
      projection.operands.push_back(projectTensor(views[i], rule.operands[i], rule, meshValue));
    for (size_t i = 0; i < results.size(); ++i)
      projection.results.push_back(projectTensor(views[operands.size() + i], rule.results[i], rule, meshValue));
    // Hidden dimensions (user priorities) drop out of the projection.
    for (size_t t = 0; t < projection.numTensors(); ++t) {
      bool isOperand = t < operands.size();
      const Participant &p = isOperand ? operands[t] : results[t - operands.size()];
      if (p.slot == kNoSlot || slots_[p.slot].hidden.empty()) continue;
      const OpShardingRule::TensorFactors &mapping =
          isOperand ? rule.operands[t] : rule.results[t - operands.size()];
      for (size_t d = 0; d < mapping.size() && d < slots_[p.slot].hidden.size(); ++d)
        if (slots_[p.slot].hidden[d])
          for (int32_t f : mapping[d]) projection.tensor(t).factors[size_t(f)].present = false;
    }
    FactorPropagationParams params;
    params.strategy = options_.strategy;
    params.conservative = options_.conservative;
    params.direction = direction;
    if (params.strategy == FactorStrategy::Aggressive)
      for (const Participant &p : operands) params.tensorElements.push_back(elementsOf(p));
    if (params.strategy == FactorStrategy::Aggressive)
      for (const Participant &p : results) params.tensorElements.push_back(elementsOf(p));
    std::vector<bool> changed = propagateFactors(projection, rule, meshValue, params);

    bool any = false;
    for (size_t t = 0; t < changed.size(); ++t) {
      if (!changed[t]) continue;
      bool isOperand = t < operands.size();
      const Participant &p = isOperand ? operands[t] : results[t - operands.size()];
      if (p.slot == kNoSlot || slots_[p.slot].storage == Storage::None) continue;
      const OpShardingRule::TensorFactors &mapping =
          isOperand ? rule.operands[t] : rule.results[t - operands.size()];
      TensorSharding s = toTensorSharding(projection.tensor(t), mapping, rule, meshName, meshValue);
      s.inlineMesh = inlineMesh;
      if (p.manual) s = p.manual->toLocal(std::move(s));
      const std::optional<TensorSharding> &old = slots_[p.slot].sharding;
      const std::vector<bool> &hidden = slots_[p.slot].hidden;
      for (size_t d = 0; d < hidden.size() && d < s.dims.size(); ++d)
        if (hidden[d] && old && d < old->dims.size()) s.dims[d] = old->dims[d];
      bool emptyAxes = true;
      for (const DimSharding &d : s.dims) emptyAxes &= d.axes.empty();
      if ((!old && emptyAxes) || (old && *old == s)) continue;
      setSlot(p.slot, std::move(s), op);
      any = true;
    }
    return any;
  }

  int64_t elementsOf(const Participant &p) const {
    if (p.slot == kNoSlot || slots_[p.slot].members.empty()) return 1;
    return m_.types.numElements(m_.type(slots_[p.slot].members.front()));
  }

  void setSlot(uint32_t slot, TensorSharding s, OpId current) {
    ++stats_.updates;
    slots_[slot].sharding = s;
    slots_[slot].changed = true;
    notify(slot, current);
    int64_t g = slots_[slot].group;
    if (g < 0) return;
    for (uint32_t other : groups_[g]) {
      if (other == slot || slots_[other].storage == Storage::None) continue;
      if (slots_[other].sharding && *slots_[other].sharding == s) continue;
      slots_[other].sharding = s;
      slots_[other].changed = true;
      notify(other, current);
    }
  }

  // --- Write-back ------------------------------------------------------------------
  void writeBack() {
    std::map<OpId, std::vector<uint32_t>> perOp;
    for (uint32_t i = 0; i < slots_.size(); ++i) {
      const Slot &s = slots_[i];
      if (!s.changed || !s.sharding) continue;
      switch (s.storage) {
      case Storage::None: break;
      case Storage::FuncArg: MutableFuncView{m_, s.op}.setArgAttr(s.index, "sdy.sharding", m_.attrs.sharding(*s.sharding)); break;
      case Storage::FuncResult:
        MutableFuncView{m_, s.op}.setResultAttr(s.index, "sdy.sharding", m_.attrs.sharding(*s.sharding));
        break;
      case Storage::OpAttr: m_.setAttr(s.op, "sharding", m_.attrs.sharding(*s.sharding)); break;
      case Storage::OpResult: perOp[s.op].push_back(i); break;
      case Storage::InSharding:
      case Storage::OutSharding: {
        std::string_view list = s.storage == Storage::InSharding ? "in_shardings" : "out_shardings";
        AttrId a = m_.attr(s.op, list);
        if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::ShardingPerValue) break;
        std::vector<TensorSharding> all = m_.attrs.get(a).shardings;
        if (s.index >= all.size()) break;
        all[s.index] = s.manual ? s.manual->toGlobal(*s.sharding) : *s.sharding;
        m_.setAttr(s.op, list, m_.attrs.shardingPerValue(std::move(all)));
        break;
      }
      }
    }
    for (const auto &[op, changedSlots] : perOp) {
      std::vector<TensorSharding> all;
      AttrId existing = m_.attr(op, "sdy.sharding");
      if (existing != kNoAttr && m_.attrs.kind(existing) == AttrKind::ShardingPerValue)
        all = m_.attrs.get(existing).shardings;
      const TensorSharding &any = *slots_[changedSlots.front()].sharding;
      all.resize(m_.numResults(op));
      for (uint32_t i = 0; i < m_.numResults(op); ++i) {
        if (!all[i].dims.empty() || !all[i].meshName.empty() || all[i].inlineMesh) continue;
        TypeId t = m_.type(m_.result(op, i));
        all[i] = TensorSharding::open(any.meshName, m_.types.isTensor(t) ? size_t(m_.types.rank(t)) : 0);
        all[i].inlineMesh = any.inlineMesh;
      }
      for (uint32_t slot : changedSlots) all[slots_[slot].index] = *slots_[slot].sharding;
      m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue(std::move(all)));
    }
    for (OpId op : rulesToKeep_)
      if (!m_.hasAttr(op, "sdy.sharding_rule"))
        if (const OpShardingRule *rule = ruleOf(op)) m_.setAttr(op, "sdy.sharding_rule", m_.attrs.shardingRule(*rule));
  }

  Module &m_;
  const PropagationOptions &options_;
  Diagnostics &diags_;
  PropagationStats stats_;
  std::map<std::string, Mesh> meshes_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> slotOf_;
  std::map<OpId, std::vector<uint32_t>> funcResultSlots_;
  std::vector<std::vector<Use>> uses_;
  std::optional<RuleCache> rules_;
  std::vector<OpId> order_, edgeOps_, groupOps_, rulesToKeep_;
  std::deque<ManualAxesView> views_;
  std::vector<std::pair<uint32_t, TensorSharding>> originals_;
  int opLevel_ = -1;  // op-priority level of the running fixpoint, -1: none
  std::vector<Edge> edges_;
  // A function's return value feeds the edge of every call's result.
  std::map<std::pair<OpId, uint32_t>, std::vector<uint32_t>> edgesOfUse_;
  std::map<OpId, std::vector<OpId>> callsTo_;  // func.func -> its calls
  std::map<OpId, uint32_t> edgeIndex_;
  std::map<int64_t, std::vector<uint32_t>> groups_;
  std::vector<OpId> stack_;
  std::vector<bool> inStack_;
};

bool runPass(Module &m, const PassOptions &opts, Diagnostics &diags, FactorStrategy strategy) {
  PropagationOptions options;
  options.strategy = strategy;
  options.conservative = opts.getBool("conservative-propagation", false);
  options.keepShardingRules = opts.getBool("keep-sharding-rules", false);
  return propagateShardings(m, options, diags);
}

PassRegistration basicReg("sdy-basic-propagate",
                          "Propagate shardings with Shardy's basic factor strategy",
                          [](Module &m, const PassOptions &o, Diagnostics &d) {
                            return runPass(m, o, d, FactorStrategy::Basic);
                          });
PassRegistration opPriorityReg(
    "sdy-op-priority-propagate",
    "Propagate in three rounds of op priority (elementwise/reshape/transpose first, "
    "then pass-through factors, then all), each with the aggressive strategy",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      PropagationOptions options;
      options.strategy = FactorStrategy::Aggressive;
      options.opPriorities = true;
      options.conservative = o.getBool("conservative-propagation", false);
      options.keepShardingRules = o.getBool("keep-sharding-rules", false);
      return propagateShardings(m, options, d);
    });
PassRegistration userPriorityReg(
    "sdy-user-priority-propagate",
    "Propagate in rounds of user priority (p0 first, dimensions without one last), "
    "each round with op priorities and the aggressive strategy",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      PropagationOptions options;
      options.strategy = FactorStrategy::Aggressive;
      options.userPriorities = true;
      options.opPriorities = true;
      options.conservative = o.getBool("conservative-propagation", false);
      options.keepShardingRules = o.getBool("keep-sharding-rules", false);
      return propagateShardings(m, options, d);
    });
PassRegistration aggressiveReg(
    "sdy-aggressive-propagate",
    "Propagate shardings resolving conflicts across factors in favour of larger tensors",
    [](Module &m, const PassOptions &o, Diagnostics &d) {
      return runPass(m, o, d, FactorStrategy::Aggressive);
    });

}  // namespace

bool propagateShardings(Module &m, const PropagationOptions &options, Diagnostics &diags,
                        PropagationStats *stats) {
  Propagator p(m, options, diags);
  return p.run(stats);
}

}  // namespace autopart
