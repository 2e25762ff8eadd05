#include "propagation/BasicPropagation.h"

#include <map>
#include <string>

#include "ir/Pass.h"
#include "propagation/ShardingGroups.h"
#include "rules/OpShardingRuleRegistry.h"

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

bool isEmptyMesh(const Mesh &mesh) { return mesh.axes.empty() && mesh.deviceIds.empty(); }

}  // namespace

bool BasicPropagation::run(PropagationStats *stats) {
  if (m_.top == kNone) return true;
  isolateConflictingShardingGroups(m_, diags_);
  graph_.emplace(m_);
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
      } else if (opInfo(m_, u.user).category == OpCategory::Terminator) enqueue(m_.parentOp(u.user));
      else enqueue(u.user);
    }
  }
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

// --- Steps -----------------------------------------------------------------------------
void BasicPropagation::step(OpId op) {
  std::string_view name = m_.opName(op);
  if (name == "sdy.data_flow_edge" || name == "sdy.func_data_flow_edge") {
    const Edge *e = graph_->edgeOf(op);
    if (!e) return;
    propagateThrough(op, identityRule(m_.types.shape(m_.type(m_.result(op, 0))), e->sources.size()), e->sources,
                     {e->target}, [&](size_t f) { return direction(op, nullptr, f); });
    return;
  }
  if (name == "sdy.propagation_barrier") {
    if (m_.numOperands(op) != 1 || m_.numResults(op) != 1) return;
    PropagationDirection dir = barrierDirection(op);
    if (dir == PropagationDirection::None) return;
    propagateThrough(op, identityRule(m_.types.shape(m_.type(m_.result(op, 0))), 1),
                     {{graph_->slotOf(m_.operand(op, 0))}}, {{graph_->slotOf(m_.result(op, 0))}},
                     [&](size_t f) { return intersectionOf(dir, direction(op, nullptr, f)); });
    return;
  }
  if (isDataFlowOp(m_, op) || opInfo(m_, op).category == OpCategory::Terminator) return;
  const OpShardingRule *rule = ruleOf(op);
  if (!rule || rule->operands.size() != m_.numOperands(op) || rule->results.size() != m_.numResults(op))
    return;
  std::vector<Participant> operands, results;
  for (ValueId v : m_.operands(op)) operands.push_back({graph_->slotOf(v)});
  for (uint32_t i = 0; i < m_.numResults(op); ++i) results.push_back({graph_->slotOf(m_.result(op, i))});
  if (propagateThrough(op, *rule, operands, results, [&](size_t f) { return direction(op, rule, f); }) &&
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
    propagateThrough(func, identityRule(m_.types.shape(m_.type(v)), 1), {{graph_->slotOf(v)}}, {{resSlots[i]}}, {});
  }
}

// --- One propagation step --------------------------------------------------------------
// The sharding a participant shows in the step's (global) view; converted
// ones (manual computation edges) live in `scratch`.
const TensorSharding *BasicPropagation::view(const Participant &p, std::deque<TensorSharding> &scratch) const {
  if (p.slot == kNoSlot || !graph_->slot(p.slot).sharding) return nullptr;
  const TensorSharding &s = *graph_->slot(p.slot).sharding;
  if (!p.manual) return &s;
  scratch.push_back(p.manual->toGlobal(s));
  return &scratch.back();
}

// The sharding whose mesh the step uses: empty meshes (no axes, no devices)
// defer to any other; two different non-empty meshes, an unknown mesh, or no
// mesh with axes stop propagation through the step (nullptr).
const TensorSharding *BasicPropagation::meshSourceOf(const std::vector<const TensorSharding *> &views) const {
  const Mesh *mesh = nullptr;
  const TensorSharding *meshSource = nullptr;
  for (const TensorSharding *s : views) {
    if (!s) continue;
    const Mesh *other = graph_->meshOf(*s);
    if (!other) return nullptr;
    if (!mesh || isEmptyMesh(*mesh)) {
      mesh = other;
      meshSource = s;
    } else if (!(*other == *mesh) && !isEmptyMesh(*other)) {
      return nullptr;
    }
  }
  if (!mesh || mesh->axes.empty()) return nullptr;
  return meshSource;
}

// The step's tensors seen per factor.
OpProjection BasicPropagation::project(const std::vector<const TensorSharding *> &views, const OpShardingRule &rule,
                                       const std::vector<Participant> &operands,
                                       const std::vector<Participant> &results, const Mesh &mesh) const {
  OpProjection projection;
  for (size_t i = 0; i < operands.size(); ++i)
    projection.operands.push_back(projectTensor(views[i], rule.operands[i], rule, mesh));
  for (size_t i = 0; i < results.size(); ++i)
    projection.results.push_back(projectTensor(views[operands.size() + i], rule.results[i], rule, mesh));
  return projection;
}

// `directionOf` per factor; empty means Both. Returns whether any slot
// changed.
bool BasicPropagation::propagateThrough(OpId op, const OpShardingRule &rule, const std::vector<Participant> &operands,
                                        const std::vector<Participant> &results,
                                        const std::function<PropagationDirection(size_t)> &directionOf) {
  std::deque<TensorSharding> scratch;
  std::vector<const TensorSharding *> views;
  for (const Participant &p : operands) views.push_back(view(p, scratch));
  for (const Participant &p : results) views.push_back(view(p, scratch));
  const TensorSharding *meshSource = meshSourceOf(views);
  if (!meshSource) return false;
  // Copied: the updates below may overwrite the sharding they come from.
  const std::string meshName = meshSource->meshName;
  const std::optional<Mesh> inlineMesh = meshSource->inlineMesh;
  const Mesh meshValue = *graph_->meshOf(*meshSource);

  OpProjection projection = project(views, rule, operands, results, meshValue);
  FactorPropagationParams params;
  params.strategy = options_.strategy;
  params.conservative = options_.conservative;
  params.direction = directionOf;
  params.elementwiseOp = opInfo(m_, op).category == OpCategory::Elementwise ||
                         m_.opName(op) == "sdy.sharding_constraint";
  std::vector<bool> changed = propagateFactors(projection, rule, meshValue, params);

  bool any = false;
  for (size_t t = 0; t < changed.size(); ++t) {
    if (!changed[t]) continue;
    bool isOperand = t < operands.size();
    const Participant &p = isOperand ? operands[t] : results[t - operands.size()];
    if (p.slot == kNoSlot || graph_->slot(p.slot).storage == Storage::None) continue;
    const OpShardingRule::TensorFactors &mapping = isOperand ? rule.operands[t] : rule.results[t - operands.size()];
    TensorSharding s = toTensorSharding(projection.tensor(t), mapping, rule, meshName, meshValue);
    s.inlineMesh = inlineMesh;
    if (p.manual) s = p.manual->toLocal(std::move(s));
    const std::optional<TensorSharding> &old = graph_->slot(p.slot).sharding;
    bool emptyAxes = true;
    for (const DimSharding &d : s.dims) emptyAxes &= d.axes.empty();
    if ((!old && emptyAxes) || (old && *old == s)) continue;
    setSlot(p.slot, std::move(s), op);
    any = true;
  }
  return any;
}

// Sharding group members follow the slot that changed.
void BasicPropagation::setSlot(uint32_t slot, TensorSharding s, OpId current) {
  ++stats_.updates;
  graph_->slot(slot).sharding = s;
  graph_->slot(slot).changed = true;
  notify(slot, current);
  int64_t g = graph_->slot(slot).group;
  if (g < 0) return;
  for (uint32_t other : graph_->groupMembers(g)) {
    Slot &o = graph_->slot(other);
    if (other == slot || o.storage == Storage::None) continue;
    if (o.sharding && *o.sharding == s) continue;
    o.sharding = s;
    o.changed = true;
    notify(other, current);
  }
}

// --- Write-back ------------------------------------------------------------------------
void BasicPropagation::writeBack() {
  std::map<OpId, std::vector<uint32_t>> perOp;
  for (uint32_t i = 0; i < graph_->numSlots(); ++i) {
    const Slot &s = graph_->slot(i);
    if (!s.changed || !s.sharding) continue;
    switch (s.storage) {
    case Storage::None: break;
    case Storage::FuncArg:
      MutableFuncView{m_, s.op}.setArgAttr(s.index, "sdy.sharding", m_.attrs.sharding(*s.sharding));
      break;
    case Storage::FuncResult:
      MutableFuncView{m_, s.op}.setResultAttr(s.index, "sdy.sharding", m_.attrs.sharding(*s.sharding));
      break;
    case Storage::OpAttr: m_.setAttr(s.op, "sharding", m_.attrs.sharding(*s.sharding)); break;
    case Storage::OpResult: perOp[s.op].push_back(i); break;
    case Storage::InSharding:
    case Storage::OutSharding: writeListEntry(s); break;
    }
  }
  for (const auto &[op, changedSlots] : perOp) writeOpResults(op, changedSlots);
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
// one on the mesh of a changed result.
void BasicPropagation::writeOpResults(OpId op, const std::vector<uint32_t> &changedSlots) {
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

namespace {

PassRegistration basicReg("sdy-basic-propagate", "Propagate shardings with Shardy's basic factor strategy",
                          [](Module &m, const PassOptions &o, Diagnostics &d) {
                            std::optional<PropagationOptions> options =
                                propagationPassOptions(o, PropagationPass::Basic, d);
                            return options && BasicPropagation(m, *options, d).run();
                          });

}  // namespace

}  // namespace autopart
