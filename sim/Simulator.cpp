#include "sim/Simulator.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/CarriedState.h"
#include "analysis/LoopSums.h"
#include "ir/ValueSharding.h"
#include "rules/OpShardingRuleRegistry.h"
#include "rules/RuleCache.h"
#include "sim/Flops.h"
#include "sim/TripCount.h"

namespace autopart {

namespace {

OpId pickEntry(const Module &m, const std::string &name) {
  std::vector<OpId> funcs = m.functions();
  if (funcs.empty()) return kNone;
  std::string want = name.empty() ? "main" : name;
  for (OpId f : funcs)
    if (FuncView{m, f}.name() == want) return f;
  return name.empty() ? funcs.front() : kNone;
}

}  // namespace

Simulator::Simulator(const Module &m, ShardingMap shardings, DeviceParams device, SimOptions options)
    : m_(m), shardings_(std::move(shardings)), device_(std::move(device)), options_(std::move(options)) {
  if (!options_.achievableThroughput) {
    device_.matmul = {};
    device_.hbmEfficiency = 1;
    device_.kernelLaunchSeconds = 0;
  }
  entry_ = pickEntry(m, options_.entry);
  if (!shardings_.meshes().empty()) defaultMesh_ = shardings_.meshes().begin()->first;
  if (entry_ == kNone) {
    warnings_.push_back("no function to simulate");
    return;
  }
  FuncView f{m, entry_};
  for (size_t i = 0; i < f.numResults(); ++i) {
    AttrId a = f.resultAttr(i, "sdy.sharding");
    declaredResults_.push_back(a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get()
                                                                                    : nullptr);
  }
  carriedArgs_.assign(f.numResults(), kNone);
  if (options_.chargeCarriedState) {
    std::vector<int64_t> carried = autopart::carriedArguments(m, entry_);
    for (size_t i = 0; i < carried.size(); ++i)
      if (carried[i] >= 0) carriedArgs_[i] = f.args()[size_t(carried[i])];
  }
  addBlock(f.entry(), 1, 0);
  RuleCache cache(m);
  std::unordered_map<const OpShardingRule *, uint32_t> shared;
  siteRule_.reserve(sites_.size());
  siteClass_.reserve(sites_.size());
  for (const Site &s : sites_) {
    const OpShardingRule *r = cache.get(s.op);
    if (r && cache.isMemoized(s.op)) {
      auto [it, inserted] = shared.emplace(r, uint32_t(rules_.size()));
      if (inserted) rules_.push_back(*r);
      siteRule_.push_back(it->second);
      siteClass_.push_back(it->second);
      continue;
    }
    siteRule_.push_back(uint32_t(rules_.size()));
    siteClass_.push_back(kNoClass);
    rules_.push_back(r ? std::optional<OpShardingRule>(*r) : std::nullopt);
  }
  {
    std::vector<OpId> siteOps;
    siteOps.reserve(sites_.size());
    for (const Site &s : sites_) siteOps.push_back(s.op);
    kernels_ = formKernels(m, siteOps, blockSites_, options_.fuse);
    blockSites_ = {};
  }
  size_t numKernels = kernels_.kernels.size();
  kernelSeconds_.assign(numKernels, 0);
  kernelBytes_.assign(numKernels, 0);
  kernelStale_.assign(numKernels, 1);
  staleKernels_.resize(numKernels);
  for (size_t k = 0; k < numKernels; ++k) staleKernels_[k] = uint32_t(k);
  positionSeconds_.assign(sites_.size(), 0);
  fenwick_.assign(sites_.size() + 1, 0);
  commSlot_.assign(sites_.size(), -1);
  indexCollectiveWindows();
  shardingId_.assign(m.values.size(), 0);
  for (ValueId v = 0; v < m.values.size(); ++v) noteSharding(v);
  costs_.resize(sites_.size());
  siteFlops_.resize(sites_.size());
  valid_.assign(sites_.size(), false);
  stale_.reserve(sites_.size());
  for (size_t i = 0; i < sites_.size(); ++i) stale_.push_back(i);
  indexUses();
}

void Simulator::addBlock(BlockId b, double multiplier, int depth, double manualDevices) {
  size_t instance = blockSites_.size();
  blockSites_.emplace_back();
  for (OpId op : m_.blocks[b].ops) {
    blockSites_[instance].push_back(uint32_t(sites_.size()));
    DataFlow flow = opInfo(m_, op).dataFlow;
    double innerDevices = manualDevices;
    if (m_.isa(op, "sdy.manual_computation"))
      if (const Mesh *mesh = shardings_.computationMesh(m_, op))
        for (const std::string &axis : manualAxesOf(m_, op))
          innerDevices *= double(std::max<int64_t>(1, mesh->axisSize(axis)));
    auto addRegion = [&](uint32_t r, double mult) {
      for (BlockId inner : m_.regions[m_.region(op, r)].blocks) addBlock(inner, mult, depth + 1, innerDevices);
    };
    size_t self = sites_.size();
    sites_.push_back({op, multiplier, manualDevices});
    if (flow == DataFlow::Loop && m_.numRegions(op) == 2) {
      std::optional<int64_t> trips = staticTripCount(m_, op);
      double n = trips ? double(*trips) : options_.unknownTripCount;
      if (!trips) {
        ++unknownTrips_;
        warnings_.push_back(m_.where(op) + ": while loop without a static trip count, assumed " +
                            std::to_string(options_.unknownTripCount));
      }
      addRegion(0, multiplier * (n + 1));
      size_t bodyBegin = sites_.size();
      addRegion(1, multiplier * n);
      findSunkReductions(op, self, bodyBegin, n);
    } else if (flow == DataFlow::Branch && m_.numRegions(op)) {
      for (uint32_t r = 0; r < m_.numRegions(op); ++r) addRegion(r, multiplier / m_.numRegions(op));
    } else if (flow == DataFlow::Computation) {
      for (uint32_t r = 0; r < m_.numRegions(op); ++r) addRegion(r, multiplier);
    } else if (flow == DataFlow::Call && depth < 32) {
      OpId f = m_.lookupFunc(m_.attr(op, "callee"));
      if (f != kNone) addBlock(FuncView{m_, f}.entry(), multiplier, depth + 1, manualDevices);
    }
  }
}

void Simulator::findSunkReductions(OpId loop, size_t loopSite, size_t bodyBegin, double trips) {
  if (sunkOf_.size() < sites_.size()) sunkOf_.resize(sites_.size(), -1);
  if (trips <= 1) return;
  if (!loopSums_) loopSums_ = std::make_shared<const LoopSums>(m_, entry_);
  // The ops computing each summed part, then one pass over the body's sites
  // (a loop may carry a thousand gradient sums).
  std::unordered_map<OpId, uint32_t> partOf;  // defining op -> loop result
  for (uint32_t j = 0; j < m_.numResults(loop); ++j)
    if (const LoopSum *sum = loopSums_->of(m_.result(loop, j))) partOf.emplace(m_.definingOp(sum->part), j);
  for (size_t i = bodyBegin; i < sites_.size() && !partOf.empty(); ++i) {
    auto it = partOf.find(sites_[i].op);
    if (it == partOf.end()) continue;
    sunkOf_[i] = int32_t(sunk_.size());
    sunk_.push_back({uint32_t(loopSite), uint32_t(sites_.size()), it->second, trips});
    partOf.erase(it);
  }
}

double Simulator::siteCommSeconds(size_t site, const OpCost &c) const {
  if (site >= sunkOf_.size() || sunkOf_[site] < 0) return c.commSeconds;
  const SunkReduction &r = sunk_[size_t(sunkOf_[site])];
  OpId op = sites_[site].op;
  double seconds = c.commSeconds;
  for (size_t j = 0; j < c.collectives.size(); ++j)
    if (c.collectives[j].kind == CollectiveKind::AllReduce && c.collectives[j].value == m_.result(op, 0))
      seconds -= c.collectiveSeconds[j] * (1 - 1 / r.trips);
  return seconds;
}

bool Simulator::isEntryReturn(OpId op) const {
  return m_.isa(op, "func.return") && m_.parentOp(op) == entry_;
}

void Simulator::indexUses() {
  // The entry's return also reads the arguments its results carry over.
  uses_ = buildCsr(m_.values.size(), [&](auto &&emit) {
    for (uint32_t i = 0; i < sites_.size(); ++i) {
      OpId op = sites_[i].op;
      for (ValueId v : m_.operands(op)) emit(v, i);
      for (uint32_t r = 0; r < m_.numResults(op); ++r) emit(m_.result(op, r), i);
      if (isEntryReturn(op))
        for (ValueId a : carriedArgs_)
          if (a != kNone) emit(a, i);
    }
  });
}

size_t Simulator::KeyHash::operator()(const std::vector<uint32_t> &k) const {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the words
  for (uint32_t w : k) {
    h ^= w;
    h *= 1099511628211ull;
  }
  return size_t(h);
}

void Simulator::noteSharding(ValueId v) {
  if (v >= shardingId_.size()) return;
  const TensorSharding *s = shardings_.get(v);
  if (!s) {
    shardingId_[v] = 0;
    return;
  }
  auto [it, inserted] = internedShardings_.emplace(s->str(), uint32_t(internedShardings_.size() + 1));
  shardingId_[v] = it->second;
}

bool Simulator::buildMemoKey(size_t i) {
  if (siteClass_[i] == kNoClass) return false;
  OpId op = sites_[i].op;
  memoKey_.clear();
  memoKey_.push_back(siteClass_[i]);
  for (ValueId v : m_.operands(op)) memoKey_.push_back(shardingId_[v]);
  for (uint32_t r = 0; r < m_.numResults(op); ++r) memoKey_.push_back(shardingId_[m_.result(op, r)]);
  return true;
}

namespace {

// A memoized cost names the values its collectives move on the op it was
// computed for; these are the same positions on `to`.
void renameCollectiveValues(const Module &m, OpId from, OpId to, OpCost &cost) {
  for (Collective &c : cost.collectives) {
    if (c.value == kNone) continue;
    ValueId renamed = kNone;
    for (uint32_t k = 0; k < m.numOperands(from) && renamed == kNone; ++k)
      if (m.operand(from, k) == c.value) renamed = m.operand(to, k);
    for (uint32_t k = 0; k < m.numResults(from) && renamed == kNone; ++k)
      if (m.result(from, k) == c.value) renamed = m.result(to, k);
    c.value = renamed;
  }
}

// Bounds the memo during a long search; refilling it is cheap.
constexpr size_t kMaxMemoEntries = size_t(1) << 20;

}  // namespace

void Simulator::evaluateSite(size_t i) {
  const Site &s = sites_[i];
  if (valid_[i]) {
    const OpCost &old = costs_[i];
    comm_ -= siteCommSeconds(i, old) * s.multiplier;
    localFlops_ -= old.flops * s.multiplier;
  } else {
    siteFlops_[i] = opFlops(m_, s.op);
    globalFlops_ += siteFlops_[i] * s.multiplier * s.manualDevices;
  }
  bool entryReturn = isEntryReturn(s.op);
  if (entryReturn) {
    returnTargets_.assign(declaredResults_.size(), {});
    for (size_t r = 0; r < returnTargets_.size(); ++r) {
      ReturnTarget &t = returnTargets_[r];
      t.declared = !options_.resultsFollowOperands &&
                   !(options_.undeclaredResultsFollowOperands && declaredResults_[r] == nullptr);
      t.result = declaredResults_[r];
      t.carried = carriedArgs_[r] != kNone;
      if (t.carried) t.argument = shardings_.get(carriedArgs_[r]);
    }
  }
  bool memoizable = !entryReturn && buildMemoKey(i);
  auto hit = memoizable ? memo_.find(memoKey_) : memo_.end();
  if (hit != memo_.end()) {
    const auto &[from, cost] = memoCosts_[hit->second];
    costs_[i] = cost;
    if (from != s.op) renameCollectiveValues(m_, from, s.op, costs_[i]);
    ++memoHits_;
  } else {
    const std::optional<OpShardingRule> &rule = rules_[siteRule_[i]];
    costs_[i] = costOp(m_, s.op, rule ? &*rule : nullptr, shardings_, device_,
                       entryReturn ? &returnTargets_ : nullptr, &siteFlops_[i]);
    if (memoizable) {
      if (memo_.size() >= kMaxMemoEntries) {
        memo_.clear();
        memoCosts_.clear();
      }
      memo_.emplace(memoKey_, uint32_t(memoCosts_.size()));
      memoCosts_.emplace_back(s.op, costs_[i]);
    }
  }
  valid_[i] = true;
  ++evaluatedSites_;
  const OpCost &c = costs_[i];
  comm_ += siteCommSeconds(i, c) * s.multiplier;
  localFlops_ += c.flops * s.multiplier;
  markKernelsStale(i);
  noteCollectives(i);
}

void Simulator::markKernelsStale(size_t site) {
  summaryValid_ = false;
  for (uint32_t k : kernels_.memberships.row(site)) {
    if (kernelStale_[k]) continue;
    kernelStale_[k] = 1;
    staleKernels_.push_back(k);
  }
}

void Simulator::refreshKernels() {
  double hbm = device_.hbmBandwidth * device_.hbmEfficiency;
  for (uint32_t k : staleKernels_) {
    const Kernel &kernel = kernels_.kernels[k];
    double peak = 0, bytes = 0;
    for (uint32_t s : kernel.members)
      if (kernels_.owner[s] == k) peak += costs_[s].peakSeconds;
    for (const KernelRead &r : kernel.reads) {
      const OpCost &reader = costs_[r.site];
      if (r.operand >= reader.operandBytes.size()) continue;
      double b = reader.operandBytes[r.operand];
      if (r.sliced && !reader.resultBytes.empty()) b = std::min(b, reader.resultBytes[0]);
      bytes += b;
    }
    const OpCost &root = costs_[kernel.root];
    if (kernel.writtenOperand >= 0) {
      if (size_t(kernel.writtenOperand) < root.operandBytes.size()) bytes += root.operandBytes[size_t(kernel.writtenOperand)];
    } else {
      for (double b : root.resultBytes) bytes += b;
    }
    double seconds = kernel.kind == KernelKind::Bitcast ? 0 : std::max(peak, bytes / hbm) + device_.kernelLaunchSeconds;
    double mult = sites_[kernel.root].multiplier;
    kernelTotal_ += (seconds - kernelSeconds_[k]) * mult;
    kernelSeconds_[k] = seconds;
    kernelBytes_[k] = bytes;
    addPositionSeconds(kernel.root, seconds * mult - positionSeconds_[kernel.root]);
    kernelStale_[k] = 0;
  }
  staleKernels_.clear();
}

void Simulator::addPositionSeconds(size_t site, double delta) {
  if (delta == 0) return;
  positionSeconds_[site] += delta;
  for (size_t i = site + 1; i < fenwick_.size(); i += i & (~i + 1)) fenwick_[i] += delta;
}

class Simulator::Clock final : public ComputeClock {
public:
  explicit Clock(const Simulator &sim) : sim_(sim) {}
  double before(int64_t p) const override {
    double sum = 0;
    for (size_t i = size_t(p); i > 0; i -= i & (~i + 1)) sum += sim_.fenwick_[i];
    return sum;
  }
  int64_t size() const override { return int64_t(sim_.sites_.size()); }

private:
  const Simulator &sim_;
};

void Simulator::noteCollectives(size_t site) {
  bool has = !costs_[site].collectives.empty();
  int32_t slot = commSlot_[site];
  if (has == (slot >= 0)) return;
  if (has) {
    commSlot_[site] = int32_t(commSites_.size());
    commSites_.push_back(uint32_t(site));
    return;
  }
  uint32_t last = commSites_.back();
  commSites_[size_t(slot)] = last;
  commSlot_[last] = slot;
  commSites_.pop_back();
  commSlot_[site] = -1;
}

void Simulator::indexCollectiveWindows() {
  size_t n = sites_.size();
  operandBegin_.assign(n + 1, 0);
  resultBegin_.assign(n + 1, 0);
  operandDef_.clear();
  resultUse_.clear();
  std::vector<int32_t> lastDef(m_.values.size(), -1), pending(m_.values.size(), -1);
  for (size_t i = 0; i < n; ++i) {
    OpId op = sites_[i].op;
    operandBegin_[i] = uint32_t(operandDef_.size());
    for (ValueId v : m_.operands(op)) {
      operandDef_.push_back(lastDef[v]);
      if (pending[v] >= 0 && resultUse_[size_t(pending[v])] < 0) resultUse_[size_t(pending[v])] = int32_t(i);
    }
    resultBegin_[i] = uint32_t(resultUse_.size());
    for (uint32_t r = 0; r < m_.numResults(op); ++r) {
      ValueId v = m_.result(op, r);
      lastDef[v] = int32_t(i);
      pending[v] = int32_t(resultUse_.size());
      resultUse_.push_back(-1);
    }
  }
  operandBegin_[n] = uint32_t(operandDef_.size());
  resultBegin_[n] = uint32_t(resultUse_.size());
}

void Simulator::collectEvents() {
  events_.clear();
  int64_t end = int64_t(sites_.size());
  for (uint32_t i : commSites_) {
    const OpCost &c = costs_[i];
    OpId op = sites_[i].op;
    double mult = sites_[i].multiplier;
    for (size_t j = 0; j < c.collectives.size(); ++j) {
      const Collective &col = c.collectives[j];
      ScheduledCollective e;
      e.kind = col.kind;
      e.axes = &col.axes;
      e.seconds = c.collectiveSeconds[j] * mult;
      e.latencySeconds = j < c.collectiveLatency.size() ? c.collectiveLatency[j] * mult : 0;
      e.bytes = double(col.bytes);
      e.ready = -1;
      e.deadline = int64_t(i);
      e.order = (uint64_t(i) << 16) | uint64_t(j);
      bool found = false;
      if (i < sunkOf_.size() && sunkOf_[i] >= 0 && col.kind == CollectiveKind::AllReduce && col.value == m_.result(op, 0)) {
        // Sunk out of the loop: once, after its last iteration.
        const SunkReduction &r = sunk_[size_t(sunkOf_[i])];
        e.seconds /= r.trips;
        e.latencySeconds /= r.trips;
        int32_t use = resultUse_[resultBegin_[r.loopSite] + r.result];
        e.ready = int64_t(r.loopEnd) - 1;
        e.deadline = use < 0 ? end : std::max<int64_t>(use, e.ready);
        found = true;
      }
      for (uint32_t r = 0; r < m_.numResults(op) && !found; ++r)
        if (m_.result(op, r) == col.value) {
          int32_t use = resultUse_[resultBegin_[i] + r];
          e.ready = int64_t(i);
          e.deadline = use < 0 ? end : use;
          found = true;
        }
      for (uint32_t k = 0; k < m_.numOperands(op) && !found; ++k)
        if (m_.operand(op, k) == col.value) {
          e.ready = operandDef_[operandBegin_[i] + k];
          found = true;
        }
      events_.push_back(e);
    }
  }
}

StepSummary Simulator::summary() {
  if (summaryValid_) return lastSummary_;
  refreshKernels();
  StepSummary s;
  s.computeSeconds = kernelTotal_;
  if (options_.schedule) {
    collectEvents();
    CombineThresholds combine;
    if (options_.combine)
      combine = {device_.allReduceCombineBytes, device_.allGatherCombineBytes, device_.reduceScatterCombineBytes};
    schedule_ = scheduleOnClock(Clock(*this), events_, combine, options_.synchronousCollectives);
    s.commSeconds = schedule_.commSeconds;
    s.exposedCommSeconds = schedule_.exposedSeconds;
    s.stepSeconds = schedule_.stepSeconds;
    s.combinedCollectives = schedule_.combined;
  } else {
    s.commSeconds = comm_;
    s.stepSeconds = kernelTotal_ + comm_ - options_.overlap * std::min(kernelTotal_, comm_);
    s.exposedCommSeconds = s.stepSeconds - kernelTotal_;
  }
  s.localFlops = localFlops_;
  s.globalFlops = globalFlops_;
  s.unknownTripCounts = unknownTrips_;
  lastSummary_ = s;
  summaryValid_ = true;
  return s;
}

StepSummary Simulator::evaluate() {
  // Several changed values may share a site; evaluate each once (sorted here,
  // not per setSharding, so changing n values costs n log n, not n^2).
  std::sort(stale_.begin(), stale_.end());
  stale_.erase(std::unique(stale_.begin(), stale_.end()), stale_.end());
  for (size_t i : stale_) evaluateSite(i);
  stale_.clear();
  return summary();
}

void Simulator::invalidateAll() {
  memo_.clear();
  memoCosts_.clear();
  stale_.clear();
  for (size_t i = 0; i < sites_.size(); ++i) stale_.push_back(i);
}

void Simulator::markStale(ValueId v) {
  for (uint32_t site : uses_.row(v)) stale_.push_back(site);
}

void Simulator::setSharding(ValueId v, std::optional<TensorSharding> s) {
  if (s)
    shardings_.set(v, std::move(*s));
  else
    shardings_.clear(v);
  noteSharding(v);
  markStale(v);
}

double Simulator::deltaAssign(std::span<const DimRef> dims, const AxisRef &axis) {
  double before = evaluate().stepSeconds;
  // The state comes back exactly as it was, so does its summary.
  StepSummary savedSummary = lastSummary_;
  ScheduleResult savedSchedule = schedule_;
  std::vector<std::pair<ValueId, std::optional<TensorSharding>>> saved;
  for (const DimRef &d : dims) {
    const TensorSharding *cur = shardings_.get(d.value);
    if (std::none_of(saved.begin(), saved.end(), [&](const auto &p) { return p.first == d.value; }))
      saved.emplace_back(d.value, cur ? std::optional<TensorSharding>(*cur) : std::nullopt);
    TensorSharding next = cur ? *cur
                              : TensorSharding::closed(defaultMesh_, size_t(std::max<int64_t>(0, m_.types.rank(m_.type(d.value)))));
    if (d.dim >= next.dims.size()) continue;
    next.dims[d.dim].axes.push_back(axis);
    shardings_.set(d.value, std::move(next));
    noteSharding(d.value);
  }
  std::vector<size_t> touched;
  for (const auto &p : saved)
    for (uint32_t site : uses_.row(p.first)) touched.push_back(site);
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());

  std::vector<OpCost> oldCosts;
  oldCosts.reserve(touched.size());
  double k0 = comm_, f0 = localFlops_;
  for (size_t i : touched) {
    oldCosts.push_back(costs_[i]);
    evaluateSite(i);
  }
  double after = summary().stepSeconds;

  for (auto &p : saved) {
    if (p.second)
      shardings_.set(p.first, std::move(*p.second));
    else
      shardings_.clear(p.first);
    noteSharding(p.first);
  }
  for (size_t j = 0; j < touched.size(); ++j) {
    costs_[touched[j]] = std::move(oldCosts[j]);
    markKernelsStale(touched[j]);
    noteCollectives(touched[j]);
  }
  refreshKernels();
  lastSummary_ = savedSummary;
  schedule_ = std::move(savedSchedule);
  summaryValid_ = true;
  comm_ = k0;
  localFlops_ = f0;
  return after - before;
}

}  // namespace autopart
