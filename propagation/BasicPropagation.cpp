#include "propagation/BasicPropagation.h"

#include <algorithm>
#include <string>

#include "ir/Pass.h"
#include "propagation/ShardingGroups.h"
#include "rules/OpShardingRuleRegistry.h"

namespace autopart {

namespace {

// The rule of a step that passes a tensor through unchanged (edges, barriers,
// function results): one factor per dimension.
OpShardingRule makeIdentityRule(const std::vector<int64_t> &shape, size_t numOperands) {
  OpShardingRule rule;
  OpShardingRule::TensorFactors mapping;
  for (int64_t size : shape) mapping.push_back({rule.addFactor(size)});
  rule.operands.assign(numOperands, mapping);
  rule.results.push_back(mapping);
  return rule;
}

bool isEmptyMesh(const Mesh &mesh) { return mesh.axes.empty() && mesh.deviceIds.empty(); }

}  // namespace

size_t BasicPropagation::KeyHash::operator()(const std::vector<uint64_t> &k) const {
  uint64_t h = k.size();
  for (uint64_t w : k) h = (h ^ w) * 0x9e3779b97f4a7c15ULL + (h >> 29);
  return size_t(h ^ (h >> 32));
}

bool BasicPropagation::run(PropagationStats *stats) {
  if (m_.top == kNone) return true;
  isolateConflictingShardingGroups(m_, diags_);
  graph_.emplace(m_);
  classifyOps();
  propagate();
  writeBack();
  if (stats) *stats = stats_;
  return !diags_.hasErrors();
}

PropagationDirection BasicPropagation::direction(OpId, const OpShardingRule *, size_t) const {
  return PropagationDirection::Both;
}

void BasicPropagation::fixpoint() {
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

// Each op's kind once, so that a step reads no op name.
void BasicPropagation::classifyOps() {
  kinds_.assign(m_.ops.size(), StepKind::None);
  stepRules_.assign(m_.ops.size(), nullptr);
  inStack_.assign(m_.ops.size(), false);
  elementwise_.assign(m_.ops.size(), false);
  stepDirection_ = [this](size_t f) { return dirs_[f]; };
  for (OpId op : graph_->ops()) {
    std::string_view name = m_.opName(op);
    elementwise_[op] = graph_->infoOf(op).category == OpCategory::Elementwise || name == "sdy.sharding_constraint";
    StepKind &kind = kinds_[op];
    if (name == "sdy.data_flow_edge" || name == "sdy.func_data_flow_edge") {
      if (const Edge *e = graph_->edgeOf(op)) {
        kind = StepKind::Edge;
        stepRules_[op] = &identityRule(m_.type(m_.result(op, 0)), e->sources.size());
      }
    } else if (name == "sdy.propagation_barrier") {
      if (m_.numOperands(op) == 1 && m_.numResults(op) == 1 && barrierDirection(op) != PropagationDirection::None) {
        kind = StepKind::Barrier;
        stepRules_[op] = &identityRule(m_.type(m_.result(op, 0)), 1);
      }
    } else if (const OpInfo &info = graph_->infoOf(op);
               !isDataFlowKind(info) && info.category != OpCategory::Terminator) {
      kind = info.ruleReadsContext ? StepKind::ContextRule : StepKind::Rule;
    }
  }
}

const OpShardingRule &BasicPropagation::identityRule(TypeId type, size_t numOperands) {
  auto [it, added] = identityIndex_.try_emplace(uint64_t(type) << 32 | uint64_t(numOperands), identityRules_.size());
  if (added) identityRules_.push_back(makeIdentityRule(m_.types.shape(type), numOperands));
  return identityRules_[it->second];
}

// --- Worklist --------------------------------------------------------------------------
void BasicPropagation::push(OpId op) {
  if (op == kNone) return;
  if (inStack_.size() <= op) inStack_.resize(m_.ops.size(), false);
  if (inStack_[op]) return;
  inStack_[op] = true;
  stack_.push_back(op);
}

// Requeues every step that reads a value of `slot`, except `current`.
void BasicPropagation::notify(uint32_t slot, OpId current) {
  for (OpId op : graph_->stepsReading(slot))
    if (op != current) push(op);
}

// Valid until the next call (rules of ops the cache does not memoize are
// rebuilt each time).
const OpShardingRule *BasicPropagation::ruleOf(OpId op) {
  if (!rules_) {
    RuleOptions ro;
    ro.conservativePropagation = options_.conservative;
    rules_.emplace(m_, ro, nullptr);
  }
  return rules_->get(op);
}

// The rule of a Rule / ContextRule op when it fits the op; a memoized one is
// looked up only at the op's first step.
const OpShardingRule *BasicPropagation::stepRuleOf(OpId op) {
  if (kinds_[op] == StepKind::RuleReady) return stepRules_[op];
  const OpShardingRule *rule = ruleOf(op);
  if (!rule || rule->operands.size() != m_.numOperands(op) || rule->results.size() != m_.numResults(op))
    rule = nullptr;
  if (kinds_[op] == StepKind::Rule) {
    kinds_[op] = rule ? StepKind::RuleReady : StepKind::None;
    stepRules_[op] = rule;
  }
  return rule;
}

// --- Steps -----------------------------------------------------------------------------
void BasicPropagation::step(OpId op) {
  switch (op < kinds_.size() ? kinds_[op] : StepKind::None) {
  case StepKind::None: return;
  case StepKind::Edge: {
    const Edge *e = graph_->edgeOf(op);
    propagateThrough(op, nullptr, *stepRules_[op], e->sources, {&e->target, 1}, PropagationDirection::Both, false,
                     /*memoize=*/true);
    return;
  }
  case StepKind::Barrier: {
    Participant in{graph_->slotOf(m_.operand(op, 0))}, out{graph_->slotOf(m_.result(op, 0))};
    propagateThrough(op, nullptr, *stepRules_[op], {&in, 1}, {&out, 1}, barrierDirection(op), false,
                     /*memoize=*/true);
    return;
  }
  case StepKind::Rule:
  case StepKind::RuleReady:
  case StepKind::ContextRule: break;
  }
  const OpShardingRule *rule = stepRuleOf(op);
  if (!rule) return;
  operands_.clear();
  results_.clear();
  for (ValueId v : m_.operands(op)) operands_.push_back({graph_->slotOf(v)});
  for (uint32_t i = 0; i < m_.numResults(op); ++i) results_.push_back({graph_->slotOf(m_.result(op, i))});
  // A memoized rule is shared by equal ops, so its address names it; a
  // context rule is rebuilt per op and is not memoized.
  bool memoize = kinds_[op] == StepKind::RuleReady;
  if (propagateThrough(op, rule, *rule, operands_, results_, PropagationDirection::Both, false, memoize) &&
      options_.keepShardingRules)
    rulesToKeep_.push_back(op);
}

PropagationDirection BasicPropagation::barrierDirection(OpId op) const {
  AttrId a = m_.attr(op, "allowed_direction");
  std::string text = a == kNoAttr ? "" : m_.attrs.get(a).text;
  if (text.find("FORWARD") != std::string::npos) return PropagationDirection::Forward;
  if (text.find("BACKWARD") != std::string::npos) return PropagationDirection::Backward;
  if (text.find("BOTH") != std::string::npos) return PropagationDirection::Both;
  return PropagationDirection::None;
}

// Only public functions: a private function's results are reached through
// its call sites (as Shardy leaves them to call edges).
void BasicPropagation::propagateFuncResults(OpId func) {
  AttrId vis = m_.attr(func, "sym_visibility");
  if (vis != kNoAttr && m_.attrs.stringValue(vis) == "private") return;
  FuncView f{m_, func};
  OpId ret = f.returnOp();
  if (ret == kNone) return;
  const std::vector<uint32_t> &resSlots = graph_->funcResultSlots(func);
  for (uint32_t i = 0; i < m_.numOperands(ret) && i < resSlots.size(); ++i) {
    ValueId v = m_.operand(ret, i);
    if (resSlots[i] == kNoSlot || graph_->slotOf(v) == kNoSlot) continue;
    Participant in{graph_->slotOf(v)}, out{resSlots[i]};
    propagateThrough(func, nullptr, identityRule(m_.type(v), 1), {&in, 1}, {&out, 1}, PropagationDirection::Both,
                     /*allFactors=*/true, /*memoize=*/true);
  }
}

// --- One propagation step --------------------------------------------------------------
// The sharding a participant shows in the step's (global) view; converted
// ones (manual computation edges) live in `globalViews_` until the next step.
const TensorSharding *BasicPropagation::view(const Participant &p) {
  if (p.slot == kNoSlot) return nullptr;
  const TensorSharding *s = graph_->slot(p.slot).sharding;
  if (!s || !p.manual) return s;
  globalViews_.push_back(p.manual->toGlobal(*s));
  return &globalViews_.back();
}

// The sharding whose mesh the step uses: empty meshes (no axes, no devices)
// defer to any other; two different non-empty meshes, an unknown mesh, or no
// mesh with axes stop propagation through the step (nullptr).
const TensorSharding *BasicPropagation::meshSourceOf() const {
  const Mesh *mesh = nullptr;
  const TensorSharding *meshSource = nullptr;
  for (const TensorSharding *s : views_) {
    if (!s) continue;
    const Mesh *other = graph_->meshOf(*s);
    if (!other) return nullptr;
    if (!mesh || isEmptyMesh(*mesh)) {
      mesh = other;
      meshSource = s;
    } else if (other != mesh && !(*other == *mesh) && !isEmptyMesh(*other)) {
      return nullptr;
    }
  }
  if (!mesh || mesh->axes.empty()) return nullptr;
  return meshSource;
}

// The step's tensors seen per factor, into `projection_`.
void BasicPropagation::project(const OpShardingRule &rule, std::span<const Participant> operands,
                               std::span<const Participant> results, const Mesh &mesh) {
  OpProjection &projection = projection_;
  projection.operands.resize(operands.size());
  projection.results.resize(results.size());
  for (size_t i = 0; i < operands.size(); ++i)
    projectTensor(projection.operands[i], views_[i], rule.operands[i], rule, mesh);
  for (size_t i = 0; i < results.size(); ++i)
    projectTensor(projection.results[i], views_[operands.size() + i], rule.results[i], rule, mesh);
}

// Returns whether any slot changed. `rule` is what `direction` is asked
// about (nullptr for edges, barriers and function results), `stepRule` the
// rule the step projects onto. With `memoize` (a `stepRule` that lives as
// long as the pass and stands for every op it was built for), the outcome is
// looked up in `memo_` first.
bool BasicPropagation::propagateThrough(OpId op, const OpShardingRule *rule, const OpShardingRule &stepRule,
                                        std::span<const Participant> operands, std::span<const Participant> results,
                                        PropagationDirection barrier, bool allFactors, bool memoize) {
  globalViews_.clear();
  views_.clear();
  bool anySharded = false;
  for (const Participant &p : operands) {
    views_.push_back(view(p));
    anySharded |= views_.back() != nullptr;
    memoize &= !p.manual;
  }
  for (const Participant &p : results) {
    views_.push_back(view(p));
    anySharded |= views_.back() != nullptr;
    memoize &= !p.manual;
  }
  // No sharding, no mesh: nothing can move (most steps of a sparsely
  // annotated program; cheaper than a memo lookup).
  if (!anySharded) return false;
  dirs_.resize(stepRule.numFactors());
  for (size_t f = 0; f < dirs_.size(); ++f)
    dirs_[f] = allFactors ? PropagationDirection::Both : intersectionOf(barrier, direction(op, rule, f));
  const TensorSharding *const *outcome;
  if (memoize) {
    // Everything the outcome depends on: the rule, each factor's direction,
    // the kind of op and the (interned) shardings of the step's tensors.
    key_.clear();
    key_.push_back(uint64_t(reinterpret_cast<uintptr_t>(&stepRule)));
    key_.push_back(uint64_t(allFactors) | uint64_t(elementwise_[op]) << 1 | uint64_t(operands.size()) << 2);
    for (PropagationDirection d : dirs_) key_.push_back(uint64_t(d));
    for (const TensorSharding *v : views_) key_.push_back(uint64_t(reinterpret_cast<uintptr_t>(v)));
    auto [it, added] = memo_.try_emplace(key_, uint32_t(memoOutcomes_.size()));
    if (added) {
      memoOutcomes_.resize(memoOutcomes_.size() + views_.size(), nullptr);
      computeStep(op, stepRule, operands, results, allFactors, &memoOutcomes_[it->second]);
    }
    outcome = &memoOutcomes_[it->second];
  } else {
    outcomes_.assign(views_.size(), nullptr);
    computeStep(op, stepRule, operands, results, allFactors, outcomes_.data());
    outcome = outcomes_.data();
  }

  bool any = false;
  for (size_t t = 0; t < views_.size(); ++t) {
    const TensorSharding *s = outcome[t];
    if (!s) continue;
    const Participant &p = t < operands.size() ? operands[t] : results[t - operands.size()];
    if (p.slot == kNoSlot || graph_->slot(p.slot).storage == Storage::None) continue;
    if (p.manual) s = graph_->intern(p.manual->toLocal(*s));
    const TensorSharding *old = graph_->slot(p.slot).sharding;
    bool emptyAxes = true;
    for (const DimSharding &d : s->dims) emptyAxes &= d.axes.empty();
    if ((!old && emptyAxes) || old == s) continue;
    setSlot(p.slot, s, op);
    any = true;
  }
  return any;
}

// The step's new (global, interned) sharding per tensor, operands then
// results, into `out` (left null where a tensor does not change).
void BasicPropagation::computeStep(OpId op, const OpShardingRule &stepRule, std::span<const Participant> operands,
                                   std::span<const Participant> results, bool allFactors,
                                   const TensorSharding **out) {
  const TensorSharding *meshSource = meshSourceOf();
  if (!meshSource) return;
  // Copied: interning below may not move it, but the mesh of an inline
  // sharding is kept apart from the table all the same.
  meshName_ = meshSource->meshName;
  inlineMesh_ = meshSource->inlineMesh;
  const Mesh &meshValue = inlineMesh_ ? *inlineMesh_ : *graph_->meshOf(*meshSource);

  project(stepRule, operands, results, meshValue);
  FactorPropagationParams &params = params_;
  params.strategy = options_.strategy;
  params.conservative = options_.conservative;
  if (allFactors) params.direction = nullptr;
  else params.direction = stepDirection_;
  params.elementwiseOp = elementwise_[op];
  OpProjection &projection = projection_;
  const std::vector<bool> &changed = propagateFactors(projection, stepRule, meshValue, params, factorScratch_);
  for (size_t t = 0; t < changed.size(); ++t) {
    if (!changed[t]) continue;
    bool isOperand = t < operands.size();
    const OpShardingRule::TensorFactors &mapping =
        isOperand ? stepRule.operands[t] : stepRule.results[t - operands.size()];
    TensorSharding s = toTensorSharding(projection.tensor(t), mapping, stepRule, meshName_, meshValue);
    s.inlineMesh = inlineMesh_;
    out[t] = graph_->intern(std::move(s));
  }
}

// Sharding group members follow the slot that changed.
void BasicPropagation::setSlot(uint32_t slot, const TensorSharding *s, OpId current) {
  ++stats_.updates;
  Slot &changed = graph_->slot(slot);
  changed.sharding = s;
  changed.changed = true;
  notify(slot, current);
  int64_t g = changed.group;
  if (g < 0) return;
  for (uint32_t other : graph_->groupMembers(g)) {
    Slot &o = graph_->slot(other);
    if (other == slot || o.storage == Storage::None) continue;
    if (o.sharding == s) continue;
    o.sharding = s;
    o.changed = true;
    notify(other, current);
  }
}

// --- Write-back ------------------------------------------------------------------------
void BasicPropagation::writeBack() {
  std::vector<std::pair<OpId, uint32_t>> perOp;  // (op, slot), grouped by op below
  for (uint32_t i = 0; i < graph_->numSlots(); ++i) {
    const Slot &s = graph_->slot(i);
    if (!s.changed || !s.sharding) continue;
    switch (s.storage) {
    case Storage::None: break;
    case Storage::FuncArg:
      MutableFuncView{m_, s.op}.setArgAttr(s.index, "sdy.sharding", shardingAttr(s.sharding));
      break;
    case Storage::FuncResult:
      MutableFuncView{m_, s.op}.setResultAttr(s.index, "sdy.sharding", shardingAttr(s.sharding));
      break;
    case Storage::OpAttr: m_.setAttr(s.op, "sharding", shardingAttr(s.sharding)); break;
    case Storage::OpResult: perOp.push_back({s.op, i}); break;
    case Storage::InSharding:
    case Storage::OutSharding: writeListEntry(s); break;
    }
  }
  std::stable_sort(perOp.begin(), perOp.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t i = 0, j = 0; i < perOp.size(); i = j) {
    while (j < perOp.size() && perOp[j].first == perOp[i].first) ++j;
    writeOpResults(perOp[i].first, std::span(perOp).subspan(i, j - i));
  }
  for (OpId op : rulesToKeep_)
    if (!m_.hasAttr(op, "sdy.sharding_rule"))
      if (const OpShardingRule *rule = ruleOf(op)) m_.setAttr(op, "sdy.sharding_rule", m_.attrs.shardingRule(*rule));
}

// `in_shardings[index]` / `out_shardings[index]` of a computation, in the
// global form.
void BasicPropagation::writeListEntry(const Slot &s) {
  std::string_view list = s.storage == Storage::InSharding ? "in_shardings" : "out_shardings";
  AttrId a = m_.attr(s.op, list);
  if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::ShardingPerValue) return;
  std::vector<TensorSharding> all = m_.attrs.get(a).shardings;
  if (s.index >= all.size()) return;
  all[s.index] = s.manual ? s.manual->toGlobal(*s.sharding) : *s.sharding;
  m_.setAttr(s.op, list, m_.attrs.shardingPerValue(std::move(all)));
}

// The op's `sdy.sharding` list; results without a sharding yet get an open
// one on the mesh of a changed result. Interning an attribute prints it, and
// most ops repeat a few lists, so the list is looked up by what it is made
// of first: the op's old list, the changed results' (interned) shardings and
// the other results' types.
void BasicPropagation::writeOpResults(OpId op, std::span<const std::pair<OpId, uint32_t>> changedSlots) {
  AttrId existing = m_.attr(op, "sdy.sharding");
  if (existing != kNoAttr && m_.attrs.kind(existing) != AttrKind::ShardingPerValue) existing = kNoAttr;
  const TensorSharding *any = graph_->slot(changedSlots.front().second).sharding;
  uint32_t numResults = m_.numResults(op);
  key_.assign(numResults + 3, 0);
  key_[0] = existing;
  key_[1] = uint64_t(reinterpret_cast<uintptr_t>(any));
  key_[2] = numResults;
  for (uint32_t i = 0; i < numResults; ++i) key_[3 + i] = uint64_t(m_.type(m_.result(op, i))) << 1 | 1;
  for (const auto &[owner, slot] : changedSlots)
    key_[3 + graph_->slot(slot).index] = uint64_t(reinterpret_cast<uintptr_t>(graph_->slot(slot).sharding));
  auto [it, added] = listAttrs_.try_emplace(key_, kNoAttr);
  if (added) {
    std::vector<TensorSharding> all;
    if (existing != kNoAttr) all = m_.attrs.get(existing).shardings;
    all.resize(numResults);
    for (uint32_t i = 0; i < numResults; ++i) {
      if (!all[i].dims.empty() || !all[i].meshName.empty() || all[i].inlineMesh) continue;
      TypeId t = m_.type(m_.result(op, i));
      all[i] = TensorSharding::open(any->meshName, m_.types.isTensor(t) ? size_t(m_.types.rank(t)) : 0);
      all[i].inlineMesh = any->inlineMesh;
    }
    for (const auto &[owner, slot] : changedSlots) all[graph_->slot(slot).index] = *graph_->slot(slot).sharding;
    it->second = m_.attrs.shardingPerValue(std::move(all));
  }
  m_.setAttr(op, "sdy.sharding", it->second);
}

// The `#sdy.sharding` attribute of an interned sharding, printed once.
AttrId BasicPropagation::shardingAttr(const TensorSharding *s) {
  auto [it, added] = shardingAttrs_.try_emplace(s, kNoAttr);
  if (added) it->second = m_.attrs.sharding(*s);
  return it->second;
}

namespace {

PassRegistration basicReg("sdy-basic-propagate", "Propagate shardings with Shardy's basic factor strategy",
                          [](Module &m, const PassOptions &o, Diagnostics &d) {
                            std::optional<PropagationOptions> options =
                                propagationPassOptions(o, PropagationPass::Basic, d);
                            return options && BasicPropagation(m, *options, d).run();
                          },
                          propagationOptionSpecs(PropagationPass::Basic));

}  // namespace

}  // namespace autopart
