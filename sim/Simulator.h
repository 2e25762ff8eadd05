// Step time of a sharded program on one device and its incremental
// re-evaluation for the search. The program is flattened once into "sites"
// in program order (while bodies times their trip count, called functions
// inlined, case branches averaged); each site's OpCost (sim/CostModel.h) is
// cached, and changing a value's sharding re-evaluates only the sites that
// read or define it.
//
//   Simulator sim(m, ShardingMap::fromModule(m), device);
//   StepSummary s = sim.evaluate();             // every site once
//   DimRef dims[] = {{x, 0}, {h, 0}};           // one named dimension
//   double d = sim.deltaAssign(dims, AxisRef{"data"});
//   // d < 0: sharding that dimension over "data" makes the step faster;
//   // the simulator's state is unchanged afterwards.
//
// Sites are grouped into the kernels XLA's fusion passes form
// (sim/Kernels.h): a kernel costs its members' FLOPs at achievable throughput
// or the bytes crossing its boundary, whichever is slower, plus launch. Step
// time is the two-stream schedule of sim/StepSchedule.h: collectives run
// asynchronously and only the part the compute stream waits for counts.
// SimOptions can switch each part off to measure what it changes.
//
// Programs repeat themselves (every layer of a transformer is the same ops on
// the same shapes), so site costs are memoized: two sites whose ops have the
// same memoized rule (rules/RuleCache.h: same name, types and attributes) and
// whose operands and results carry the same shardings cost the same. A
// 96-layer model then costs about as much to evaluate as one layer. The memo
// is dropped by invalidateAll, so a "full" evaluation starts from nothing.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/LoopSums.h"
#include "analysis/NamedDimensions.h"
#include "sim/CostModel.h"
#include "sim/Kernels.h"
#include "sim/StepSchedule.h"
#include "support/Csr.h"

namespace autopart {

struct SimOptions {
  // Group ops into XLA's fused kernels (off: every op is a kernel).
  bool fuse = true;
  // Matmul efficiency by shape, achievable HBM bandwidth and kernel launch
  // (off: every kernel at datasheet peak, no launch cost).
  bool achievableThroughput = true;
  // Two-stream schedule with asynchronous collectives (off: step = compute
  // + communication - overlap * min(compute, communication)).
  bool schedule = true;
  // XLA's collective combiners (needs `schedule`).
  bool combine = true;
  // Collectives block the compute stream where they are needed instead of
  // running asynchronously (sim/StepSchedule.h; needs `schedule`): how
  // frameworks without a latency-hiding scheduler run them.
  bool synchronousCollectives = false;
  // Without `schedule`: fraction of min(compute, communication) hidden.
  double overlap = 0;
  // Trip count assumed for loops without a recognisable counter (flagged).
  double unknownTripCount = 1;
  // Function to simulate; empty: "main", else the first function.
  std::string entry;
  // The entry function's results take their returned values' shardings (a
  // planner writes them so) instead of the declared ones, so returning costs
  // no reshard.
  bool resultsFollowOperands = false;
  // The same for results without a declared sharding only (a declared one is
  // still a target): the ILP baseline prices its plans so.
  bool undeclaredResultsFollowOperands = false;
  // A result that carries an argument to the next step (analysis/CarriedState.h)
  // and is returned sharded differently from that argument pays for the
  // reshard the next call makes.
  bool chargeCarriedState = true;
};

struct StepSummary {
  double computeSeconds = 0;
  double commSeconds = 0;
  double exposedCommSeconds = 0;  // communication the compute stream waits for
  int combinedCollectives = 0;
  double stepSeconds = 0;
  double localFlops = 0;   // per device, per step
  double globalFlops = 0;  // whole program (unsharded), per step
  int unknownTripCounts = 0;
};


class Simulator {
public:
  struct Site {
    OpId op;
    double multiplier;  // executions per step
    // Devices that each run their own slice of it: inside an
    // sdy.manual_computation the shapes are one device's, so the program's
    // (global) FLOPs are the local ones times the manual axes' devices.
    double manualDevices = 1;
  };

  Simulator(const Module &m, ShardingMap shardings, DeviceParams device, SimOptions options = {});

  // Re-evaluates the sites made stale by setSharding (all of them the first
  // time) and returns the totals.
  StepSummary evaluate();
  // Marks every site stale: the next evaluate() is a full one.
  void invalidateAll();
  void setSharding(ValueId v, std::optional<TensorSharding> s);
  // Change in step seconds from appending `axis` (minor-most) to the given
  // dimensions' shardings; the state is restored before returning.
  double deltaAssign(std::span<const DimRef> dims, const AxisRef &axis);

  const std::vector<Site> &sites() const { return sites_; }
  const OpCost &siteCost(size_t i) const { return costs_[i]; }
  const KernelPlan &kernels() const { return kernels_; }
  // Time of one execution of kernel k (current shardings; call evaluate() first).
  double kernelSeconds(size_t k) const { return kernelSeconds_[k]; }
  double kernelBytes(size_t k) const { return kernelBytes_[k]; }
  // The schedule behind the last evaluate() (empty unless options.schedule).
  const ScheduleResult &schedule() const { return schedule_; }
  const ShardingMap &shardings() const { return shardings_; }
  const DeviceParams &device() const { return device_; }
  OpId entry() const { return entry_; }
  // Per result of the entry function: the argument it carries to the next
  // step (kNone: none, or not charged).
  const std::vector<ValueId> &carriedArguments() const { return carriedArgs_; }
  const std::vector<std::string> &warnings() const { return warnings_; }
  size_t evaluatedSites() const { return evaluatedSites_; }  // for tests
  size_t memoHits() const { return memoHits_; }

private:
  void addBlock(BlockId b, double multiplier, int depth, double manualDevices = 1);
  void indexCollectiveWindows();
  void refreshKernels();
  void markKernelsStale(size_t site);
  void collectEvents();
  void indexUses();
  bool isEntryReturn(OpId op) const;
  void evaluateSite(size_t i);
  void markStale(ValueId v);
  StepSummary summary();

  const Module &m_;
  ShardingMap shardings_;
  DeviceParams device_;
  SimOptions options_;
  OpId entry_ = kNone;
  std::string defaultMesh_;
  std::vector<Site> sites_;
  // A value only accumulated into a loop's carried sum (`acc' = add acc, x`
  // yielded back): XLA's while-loop all-reduce code motion reduces the sum
  // once after the loop instead of x in every iteration, so an all-reduce of
  // x costs 1/trips and is due where the loop's result is first read.
  struct SunkReduction {
    uint32_t loopSite = 0;   // the while
    uint32_t loopEnd = 0;    // first site after the loop body
    uint32_t result = 0;     // the loop result carrying the sum
    double trips = 1;
  };
  std::vector<SunkReduction> sunk_;
  std::shared_ptr<const LoopSums> loopSums_;  // shared by copies
  std::vector<int32_t> sunkOf_;  // per site: index into sunk_, or -1
  void findSunkReductions(OpId loop, size_t loopSite, size_t bodyBegin, double trips);
  double siteCommSeconds(size_t site, const OpCost &c) const;
  void noteSharding(ValueId v);
  bool buildMemoKey(size_t i);

  // Rules shared by the sites whose op has the same memoized rule; sites of
  // ops whose rule depends on their neighbours get a rule of their own.
  std::vector<std::optional<OpShardingRule>> rules_;
  std::vector<uint32_t> siteRule_;  // per site, index into rules_
  static constexpr uint32_t kNoClass = ~0u;
  std::vector<uint32_t> siteClass_;  // per site: the shared rule, or kNoClass
  // Interned shardings: equal shardings have equal ids (0: none).
  std::vector<uint32_t> shardingId_;
  std::unordered_map<std::string, uint32_t> internedShardings_;
  struct KeyHash {
    size_t operator()(const std::vector<uint32_t> &k) const;
  };
  std::vector<uint32_t> memoKey_;  // reused buffer
  std::unordered_map<std::vector<uint32_t>, uint32_t, KeyHash> memo_;
  std::vector<std::pair<OpId, OpCost>> memoCosts_;  // the op first costed
  size_t memoHits_ = 0;
  std::vector<OpCost> costs_;
  std::vector<std::vector<uint32_t>> blockSites_;  // per block instance, for formKernels
  KernelPlan kernels_;
  std::vector<double> kernelSeconds_, kernelBytes_;
  std::vector<char> kernelStale_;
  std::vector<uint32_t> staleKernels_;
  std::vector<double> positionSeconds_;  // per site: its kernel's time if it is a root
  // positionSeconds_ as a Fenwick tree: the compute clock of the schedule.
  class Clock;
  std::vector<double> fenwick_;
  void addPositionSeconds(size_t site, double delta);
  // Sites whose cost has collectives (swap-removed; slot -1: not listed).
  std::vector<uint32_t> commSites_;
  std::vector<int32_t> commSlot_;
  void noteCollectives(size_t site);
  bool summaryValid_ = false;
  StepSummary lastSummary_;
  double kernelTotal_ = 0;
  // Where each collective's window opens and closes (sim/StepSchedule.h):
  // per site operand, the site defining it (-1: an argument); per site
  // result, the first site reading it (-1: none).
  std::vector<uint32_t> operandBegin_, resultBegin_;
  std::vector<int32_t> operandDef_, resultUse_;
  std::vector<ScheduledCollective> events_;
  ScheduleResult schedule_;
  std::vector<double> siteFlops_;  // global FLOPs of one execution
  std::vector<bool> valid_;
  std::vector<size_t> stale_;
  // Sites that read or define each value (CSR layout).
  Csr uses_;
  std::vector<const TensorSharding *> declaredResults_;
  std::vector<ValueId> carriedArgs_;  // per result: the argument it carries, or kNone
  std::vector<ReturnTarget> returnTargets_;  // reused buffer
  double comm_ = 0, localFlops_ = 0, globalFlops_ = 0;
  int unknownTrips_ = 0;
  size_t evaluatedSites_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace autopart
