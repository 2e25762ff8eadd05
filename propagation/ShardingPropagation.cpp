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
#include "propagation/PropagationGraph.h"
#include "propagation/ShardingGroups.h"
#include "rules/OpShardingRuleRegistry.h"
#include "rules/RuleCache.h"

namespace autopart {

namespace {

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
    graph_.emplace(m_);

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
    for (auto it = graph_->ops().rbegin(); it != graph_->ops().rend(); ++it) push(*it);
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
    for (uint32_t i = 0; i < graph_->numSlots(); ++i) {
      std::optional<TensorSharding> &s = graph_->slot(i).sharding;
      if (!s) continue;
      const Mesh *mesh = graph_->meshOf(*s);
      bool hides = false;
      for (const DimSharding &d : s->dims) hides |= priorityOf(d) != 0;
      if (!hides || !mesh) {
        for (DimSharding &d : s->dims)
          if (d.priority) {
            d.priority.reset();
            graph_->slot(i).changed = true;
          }
        continue;
      }
      originals_.push_back({i, *s});
      graph_->slot(i).hidden.assign(s->dims.size(), false);
      for (size_t k = 0; k < s->dims.size(); ++k) {
        DimSharding &d = s->dims[k];
        int64_t p = priorityOf(d);
        if (p != 0) {
          graph_->slot(i).hidden[k] = true;
          rounds.push_back(p);
          s->replicated.insert(s->replicated.end(), d.axes.begin(), d.axes.end());
          d = DimSharding{};
        }
        d.priority.reset();
      }
      // Sorted but not merged, so that each revealed axis is found again.
      sortByMesh(s->replicated, *mesh);
      graph_->slot(i).changed = true;
    }
    std::sort(rounds.begin(), rounds.end());
    rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
    return rounds;
  }

  // Puts back the user's dimensions of priority `p` (their axes leave the
  // replicated set) for the next round.
  void revealPriority(int64_t p) {
    for (const auto &[slot, original] : originals_) {
      std::optional<TensorSharding> &s = graph_->slot(slot).sharding;
      if (!s) continue;
      AxisList revealed;
      for (size_t d = 0; d < original.dims.size() && d < s->dims.size(); ++d) {
        if (priorityOf(original.dims[d]) != p) continue;
        graph_->slot(slot).hidden[d] = false;
        s->dims[d] = original.dims[d];
        s->dims[d].priority.reset();
        revealed.insert(revealed.end(), original.dims[d].axes.begin(), original.dims[d].axes.end());
      }
      std::erase_if(s->replicated, [&](const AxisRef &a) {
        return std::find(revealed.begin(), revealed.end(), a) != revealed.end();
      });
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
    for (ValueId v : graph_->slot(slot).members) {
      const ValueInfo &info = m_.values[v];
      if (info.isBlockArg) enqueue(m_.regions[m_.blocks[info.owner].parent].parent);
      else enqueue(info.owner);
      for (const Use &u : graph_->usesOf(v)) {
        if (const std::vector<OpId> *edgeOps = graph_->edgesReading(u.user, u.index)) {
          for (OpId edgeOp : *edgeOps) enqueue(edgeOp);
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
      const Edge *edge = graph_->edgeOf(op);
      if (!edge) return;
      const Edge &e = *edge;
      propagate(op, identityRule(m_.types.shape(m_.type(m_.result(op, 0))), e.sources.size()), e.sources,
                {e.target}, [&](size_t f) { return opDirection(op, nullptr, f); });
      return;
    }
    if (name == "sdy.propagation_barrier") {
      if (m_.numOperands(op) != 1 || m_.numResults(op) != 1) return;
      PropagationDirection dir = barrierDirection(op);
      if (dir == PropagationDirection::None) return;
      propagate(op, identityRule(m_.types.shape(m_.type(m_.result(op, 0))), 1), {{graph_->slotOf(m_.operand(op, 0))}},
                {{graph_->slotOf(m_.result(op, 0))}},
                [&](size_t f) { return intersectionOf(dir, opDirection(op, nullptr, f)); });
      return;
    }
    if (isDataFlowOp(m_, op) || isTerminatorName(name)) return;
    const OpShardingRule *rule = ruleOf(op);
    if (!rule || rule->operands.size() != m_.numOperands(op) || rule->results.size() != m_.numResults(op))
      return;
    std::vector<Participant> operands, results;
    for (ValueId v : m_.operands(op)) operands.push_back({graph_->slotOf(v)});
    for (uint32_t i = 0; i < m_.numResults(op); ++i) results.push_back({graph_->slotOf(m_.result(op, i))});
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
    const std::vector<uint32_t> &resSlots = graph_->funcResultSlots(func);
    for (uint32_t i = 0; i < m_.numOperands(ret) && i < resSlots.size(); ++i) {
      ValueId v = m_.operand(ret, i);
      if (resSlots[i] == kNoSlot || graph_->slotOf(v) == kNoSlot) continue;
      propagate(func, identityRule(m_.types.shape(m_.type(v)), 1), {{graph_->slotOf(v)}}, {{resSlots[i]}}, {});
    }
  }

  // --- One propagation step ---------------------------------------------------------
  static bool isEmptyMesh(const Mesh &mesh) { return mesh.axes.empty() && mesh.deviceIds.empty(); }

  // The sharding a participant shows in the step's (global) view; converted
  // ones (manual computation edges) live in `scratch`.
  const TensorSharding *view(const Participant &p, std::deque<TensorSharding> &scratch) const {
    if (p.slot == kNoSlot || !graph_->slot(p.slot).sharding) return nullptr;
    const TensorSharding &s = *graph_->slot(p.slot).sharding;
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
      const Mesh *other = graph_->meshOf(*s);
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
      if (p.slot == kNoSlot || graph_->slot(p.slot).hidden.empty()) continue;
      const OpShardingRule::TensorFactors &mapping =
          isOperand ? rule.operands[t] : rule.results[t - operands.size()];
      for (size_t d = 0; d < mapping.size() && d < graph_->slot(p.slot).hidden.size(); ++d)
        if (graph_->slot(p.slot).hidden[d])
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
      if (p.slot == kNoSlot || graph_->slot(p.slot).storage == Storage::None) continue;
      const OpShardingRule::TensorFactors &mapping =
          isOperand ? rule.operands[t] : rule.results[t - operands.size()];
      TensorSharding s = toTensorSharding(projection.tensor(t), mapping, rule, meshName, meshValue);
      s.inlineMesh = inlineMesh;
      if (p.manual) s = p.manual->toLocal(std::move(s));
      const std::optional<TensorSharding> &old = graph_->slot(p.slot).sharding;
      const std::vector<bool> &hidden = graph_->slot(p.slot).hidden;
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
    if (p.slot == kNoSlot || graph_->slot(p.slot).members.empty()) return 1;
    return m_.types.numElements(m_.type(graph_->slot(p.slot).members.front()));
  }

  void setSlot(uint32_t slot, TensorSharding s, OpId current) {
    ++stats_.updates;
    graph_->slot(slot).sharding = s;
    graph_->slot(slot).changed = true;
    notify(slot, current);
    int64_t g = graph_->slot(slot).group;
    if (g < 0) return;
    for (uint32_t other : graph_->groupMembers(g)) {
      if (other == slot || graph_->slot(other).storage == Storage::None) continue;
      if (graph_->slot(other).sharding && *graph_->slot(other).sharding == s) continue;
      graph_->slot(other).sharding = s;
      graph_->slot(other).changed = true;
      notify(other, current);
    }
  }

  // --- Write-back ------------------------------------------------------------------
  void writeBack() {
    std::map<OpId, std::vector<uint32_t>> perOp;
    for (uint32_t i = 0; i < graph_->numSlots(); ++i) {
      const Slot &s = graph_->slot(i);
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
      const TensorSharding &any = *graph_->slot(changedSlots.front()).sharding;
      all.resize(m_.numResults(op));
      for (uint32_t i = 0; i < m_.numResults(op); ++i) {
        if (!all[i].dims.empty() || !all[i].meshName.empty() || all[i].inlineMesh) continue;
        TypeId t = m_.type(m_.result(op, i));
        all[i] = TensorSharding::open(any.meshName, m_.types.isTensor(t) ? size_t(m_.types.rank(t)) : 0);
        all[i].inlineMesh = any.inlineMesh;
      }
      for (uint32_t slot : changedSlots) all[graph_->slot(slot).index] = *graph_->slot(slot).sharding;
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
  std::optional<PropagationGraph> graph_;
  std::optional<RuleCache> rules_;
  std::vector<OpId> rulesToKeep_;
  std::vector<std::pair<uint32_t, TensorSharding>> originals_;
  int opLevel_ = -1;  // op-priority level of the running fixpoint, -1: none
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
