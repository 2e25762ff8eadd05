#include "search/SearchState.h"

#include <algorithm>
#include <cmath>

#include "sim/Memory.h"

namespace autopart {

bool PlanCost::betterThan(const PlanCost &o) const {
  if (feasible != o.feasible) return feasible;
  // Incremental re-evaluation sums in a different order than a full one:
  // step times within a relative 1e-9 are the same plan cost.
  bool sameStep = std::abs(stepSeconds - o.stepSeconds) <= 1e-9 * std::max(stepSeconds, o.stepSeconds);
  if (!feasible && peakBytes != o.peakBytes) return peakBytes < o.peakBytes;
  if (!sameStep) return stepSeconds < o.stepSeconds;
  return peakBytes < o.peakBytes;
}

namespace {

SimOptions simOptionsFor(const ActionSpace &space) {
  SimOptions o;
  o.entry = std::string(FuncView{*space.m, space.func}.name());
  // The plan writes each result's sharding as its returned value's.
  o.resultsFollowOperands = true;
  return o;
}

ShardingMap initialMap(const ActionSpace &space) {
  ShardingMap map = ShardingMap::fromModule(*space.m);
  map.addMesh(space.meshName, space.mesh);
  for (size_t v = 0; v < space.base.size(); ++v)
    if (space.base[v]) map.set(ValueId(v), *space.base[v]);
  return map;
}

}  // namespace

Simulator simulatorFor(const ActionSpace &space, const DeviceParams &device) {
  return Simulator(*space.m, initialMap(space), device, simOptionsFor(space));
}

SearchState::SearchState(const ActionSpace &space, const DeviceParams &device)
    : space_(&space), current_(space.base), resolved_(space.names->conflicts.size(), false),
      nameAssigned_(space.names->names.size(), 0), sim_(simulatorFor(space, device)),
      func_(space.func), hbmCapacity_(device.hbmCapacity), transient_(space.m->ops.size(), 0) {}

template <typename Fn>
void SearchState::forEachMember(const Action &a, Fn &&fn) const {
  if (a.kind == ActionKind::ResolveConflict) return;
  // Values inside a manual computation that made the axis manual are
  // skipped: they stay as they are, and the plan priced is the one written.
  const std::string &axis = space_->axes[size_t(a.axis)].name;
  const ManualAxes &manual = space_->manual;
  if (a.kind == ActionKind::ShardAtRest) {
    for (const DimRef &d : space_->restGroups[a.target].members)
      if (!manual.binds(d.value, axis)) fn(d.value, d.dim);
    return;
  }
  for (NameId32 name : space_->nameGroups[a.target]) {
    const std::vector<DimRef> &members = space_->names->names[name].members;
    for (size_t i = 0; i < members.size();) {
      size_t j = i + 1;
      while (j < members.size() && members[j].value == members[i].value) ++j;
      uint32_t kept = members[i].dim;
      if (j - i > 1)  // a conflict: the lower dimension unless resolved otherwise
        for (uint32_t c : space_->conflictsOfName[name]) {
          const DimConflict &dc = space_->names->conflicts[c];
          if (dc.value == members[i].value && resolved_[c]) kept = dc.dimB;
        }
      if (!manual.binds(members[i].value, axis)) fn(members[i].value, kept);
      i = j;
    }
  }
}

bool SearchState::canAdd(ValueId v, uint32_t dim, const SearchAxis &axis) const {
  if (space_->fixed[v]) return false;
  const Module &m = *space_->m;
  int64_t size = m.types.shape(m.type(v))[dim];
  int64_t shards = 1;
  if (const std::optional<TensorSharding> &s = current_[v]) {
    // allAxes() without building the list: this runs for every member of
    // every candidate action.
    for (const DimSharding &d : s->dims)
      for (const AxisRef &a : d.axes)
        if (a.name == axis.name) return false;
    for (const std::vector<AxisRef> *list : {&s->replicated, &s->unreduced})
      for (const AxisRef &a : *list)
        if (a.name == axis.name) return false;
    if (dim < s->dims.size()) shards = s->dims[dim].shardCount(space_->mesh);
  }
  return size % (shards * axis.size) == 0;
}

bool SearchState::legal(uint32_t id) const {
  const Action &a = space_->actions[id];
  if (a.kind == ActionKind::ResolveConflict) {
    for (uint32_t c : space_->conflictGroups[a.target]) {
      if (resolved_[c] || nameAssigned_[space_->names->conflicts[c].name] > 0) return false;
      for (uint32_t o : space_->conflictSiblings[c])
        if (resolved_[o]) return false;
    }
    return true;
  }
  const SearchAxis &axis = space_->axes[size_t(a.axis)];
  bool ok = true;
  forEachMember(a, [&](ValueId v, uint32_t d) { ok = ok && canAdd(v, d, axis); });
  return ok;
}

void SearchState::addAxis(ValueId v, uint32_t dim, const SearchAxis &axis) {
  std::optional<TensorSharding> &s = current_[v];
  if (!s) s = TensorSharding::closed(space_->meshName, size_t(space_->m->types.rank(space_->m->type(v))));
  std::vector<AxisRef> &axes = s->dims[dim].axes;
  const std::optional<TensorSharding> &b = space_->base[v];
  size_t p = b && dim < b->dims.size() ? b->dims[dim].axes.size() : 0;
  while (p < axes.size() && space_->mesh.axisIndex(axes[p].name) < axis.meshIndex) ++p;
  axes.insert(axes.begin() + std::ptrdiff_t(p), AxisRef{axis.name, 0, 0});
  sim_.setSharding(v, s);
}

void SearchState::removeAxis(ValueId v, const SearchAxis &axis) {
  std::optional<TensorSharding> &s = current_[v];
  if (!s) return;
  bool any = false;
  for (DimSharding &d : s->dims) {
    std::erase_if(d.axes, [&](const AxisRef &a) { return a.name == axis.name && !a.isSubAxis(); });
    any |= !d.axes.empty();
  }
  if (!any && !space_->base[v]) s.reset();
  sim_.setSharding(v, s);
}

void SearchState::apply(uint32_t id) {
  const Action &a = space_->actions[id];
  path_.push_back(id);
  if (a.kind == ActionKind::ResolveConflict) {
    for (uint32_t c : space_->conflictGroups[a.target]) resolved_[c] = true;
    return;
  }
  if (a.kind == ActionKind::ShardName)
    for (NameId32 n : space_->nameGroups[a.target]) ++nameAssigned_[n];
  const SearchAxis &axis = space_->axes[size_t(a.axis)];
  forEachMember(a, [&](ValueId v, uint32_t d) { addAxis(v, d, axis); });
}

void SearchState::undo() {
  if (path_.empty()) return;
  const Action &a = space_->actions[path_.back()];
  path_.pop_back();
  if (a.kind == ActionKind::ResolveConflict) {
    for (uint32_t c : space_->conflictGroups[a.target]) resolved_[c] = false;
    return;
  }
  if (a.kind == ActionKind::ShardName)
    for (NameId32 n : space_->nameGroups[a.target]) --nameAssigned_[n];
  const SearchAxis &axis = space_->axes[size_t(a.axis)];
  // The axis appears once per tensor and only this action put it on the
  // values it touches, so removing it by name restores them.
  forEachMember(a, [&](ValueId v, uint32_t) { removeAxis(v, axis); });
}

void SearchState::reset() {
  while (!path_.empty()) undo();
}

size_t SearchState::applyAll(const std::vector<uint32_t> &ids) {
  size_t n = 0;
  for (uint32_t id : ids)
    if (legal(id)) {
      apply(id);
      ++n;
    }
  return n;
}

std::vector<uint32_t> SearchState::key() const {
  std::vector<uint32_t> k = path_;
  std::sort(k.begin(), k.end());
  return k;
}

PlanCost pricePlan(Simulator &sim, const Module &m, OpId func, double hbmCapacity, std::vector<int64_t> &scratch) {
  StepSummary step = sim.evaluate();
  // Collective buffers are live while their op runs.
  std::vector<OpId> touched;
  for (size_t i = 0; i < sim.sites().size(); ++i)
    for (const Collective &c : sim.siteCost(i).collectives) {
      OpId op = sim.sites()[i].op;
      if (scratch[op] == 0) touched.push_back(op);
      scratch[op] += c.bytes;
    }
  MemoryReport mem =
      analyzeMemory(m, func, sim.shardings(), [&](OpId op) { return scratch[op]; }, /*describePeak=*/false);
  for (OpId op : touched) scratch[op] = 0;
  PlanCost c;
  c.stepSeconds = step.stepSeconds;
  c.computeSeconds = step.computeSeconds;
  c.commSeconds = step.commSeconds;
  c.peakBytes = mem.peakBytes;
  c.feasible = double(mem.peakBytes) <= hbmCapacity;
  return c;
}

PlanCost SearchState::evaluate() {
  ++evaluations_;
  return pricePlan(sim_, *space_->m, func_, hbmCapacity_, transient_);
}

SearchState::Improvement SearchState::bestImprovingAction(const PlanCost &than,
                                                         std::chrono::steady_clock::time_point deadline,
                                                         int64_t except) {
  Improvement best{-1, than};
  for (uint32_t id = 0; id < space_->size(); ++id) {
    if (std::chrono::steady_clock::now() >= deadline) break;
    if (int64_t(id) == except || !legal(id)) continue;
    apply(id);
    PlanCost c = evaluate();
    undo();
    if (c.betterThan(best.cost)) best = {int64_t(id), c};
  }
  return best;
}

std::vector<std::pair<size_t, uint32_t>> SearchState::shardedArgumentDims() const {
  std::vector<std::pair<size_t, uint32_t>> out;
  std::span<const ValueId> args = FuncView{*space_->m, func_}.args();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::optional<TensorSharding> &s = current_[args[i]];
    if (!s) continue;
    const std::optional<TensorSharding> &b = space_->base[args[i]];
    for (size_t d = 0; d < s->dims.size(); ++d) {
      size_t before = b && d < b->dims.size() ? b->dims[d].axes.size() : 0;
      if (s->dims[d].axes.size() > before) out.push_back({i, uint32_t(d)});
    }
  }
  return out;
}

}  // namespace autopart
