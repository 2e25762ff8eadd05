// Basic propagation: the fixpoint every propagation pass is made of, and the
// write-back of its results. A step is one op with a sharding rule, one
// data-flow edge, one `sdy.propagation_barrier` or one function's results;
// it projects its tensors' shardings onto factors, lets the factor strategy
// (FactorPropagation.h) choose the axes per factor and writes the tensors
// that gained axes into their slots (PropagationGraph.h). A worklist
// revisits the steps that read a changed slot until nothing changes. At the
// end every changed slot is written back as an `sdy.sharding` (or as the
// `sharding` / `in_shardings` / `out_shardings` attribute that holds it).
//
//   %0 = stablehlo.add %arg0, %arg1   (%arg0 [{"a"}, {}], %arg1 open)
//   %1 = stablehlo.negate %0
//   every op is queued top-down: add gives %arg1 and %0 [{"a", ?}, {?}]
//   (a change requeues the readers of %0, here negate, already queued);
//   negate gives %1 [{"a", ?}, {?}]; the function result takes it from the
//   return in the identity step that ends the fixpoint.
//
// Costs are per program, not per step: the graph's tables are flat arrays,
// each op's kind and rule are looked up once, slots hold interned shardings
// (equal ones are one pointer), and a step's outcome is memoized by its rule,
// directions and those pointers, so repeated layers cost a lookup each
// (docs/propagation-speed.md).
//
// The priority passes build on this class: they override `propagate` to run
// the fixpoint several times (OpPriorityPropagation.h,
// UserPriorityPropagation.h) and `direction` to limit which factors move in
// each run. Registered here as `-sdy-basic-propagate`.
#pragma once

#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/Module.h"
#include "propagation/FactorPropagation.h"
#include "propagation/PropagationGraph.h"
#include "propagation/ShardingPropagation.h"
#include "rules/RuleCache.h"
#include "support/Diagnostics.h"

namespace autopart {

class BasicPropagation {
public:
  BasicPropagation(Module &m, const PropagationOptions &options, Diagnostics &diags)
      : m_(m), options_(options), diags_(diags) {}
  virtual ~BasicPropagation() = default;
  BasicPropagation(const BasicPropagation &) = delete;
  BasicPropagation &operator=(const BasicPropagation &) = delete;

  // Builds the graph, propagates (`propagate`) and writes the shardings
  // back. Returns false when `diags` holds errors.
  bool run(PropagationStats *stats = nullptr);

protected:
  // Everything between building the graph and writing back: one fixpoint.
  virtual void propagate() { fixpoint(); }
  // The directions in which factor `factor` of `op` may propagate; `rule` is
  // nullptr for edges and barriers (one factor per dimension). Both here.
  virtual PropagationDirection direction(OpId op, const OpShardingRule *rule, size_t factor) const;

  // Function results, every op top-down, then the worklist until it is
  // empty, then function results again.
  void fixpoint();

  const Module &module() const { return m_; }
  const PropagationOptions &options() const { return options_; }
  PropagationGraph &graph() { return *graph_; }

private:
  // What a step of each op does; found once per op.
  enum class StepKind : uint8_t { None, Edge, Barrier, Rule, RuleReady, ContextRule };

  void classifyOps();
  void push(OpId op);
  void notify(uint32_t slot, OpId current);
  const OpShardingRule *ruleOf(OpId op);
  const OpShardingRule *stepRuleOf(OpId op);
  const OpShardingRule &identityRule(TypeId type, size_t numOperands);
  void step(OpId op);
  PropagationDirection barrierDirection(OpId op) const;
  void propagateFuncResults(OpId func);
  const TensorSharding *view(const Participant &p);
  const TensorSharding *meshSourceOf() const;
  void project(const OpShardingRule &rule, std::span<const Participant> operands,
               std::span<const Participant> results, const Mesh &mesh);
  // The step's directions come from `direction` (intersected with
  // `barrier`) unless `allFactors`, which lets every factor move both ways.
  bool propagateThrough(OpId op, const OpShardingRule *rule, const OpShardingRule &stepRule,
                        std::span<const Participant> operands, std::span<const Participant> results,
                        PropagationDirection barrier = PropagationDirection::Both, bool allFactors = false,
                        bool memoize = false);
  void computeStep(OpId op, const OpShardingRule &stepRule, std::span<const Participant> operands,
                   std::span<const Participant> results, bool allFactors, const TensorSharding **out);
  void setSlot(uint32_t slot, const TensorSharding *s, OpId current);
  void writeBack();
  void writeListEntry(const Slot &s);
  void writeOpResults(OpId op, std::span<const std::pair<OpId, uint32_t>> changedSlots);
  AttrId shardingAttr(const TensorSharding *s);

  Module &m_;
  const PropagationOptions options_;
  Diagnostics &diags_;
  PropagationStats stats_;
  std::optional<PropagationGraph> graph_;
  std::optional<RuleCache> rules_;
  std::vector<OpId> rulesToKeep_;
  std::vector<OpId> stack_;
  std::vector<bool> inStack_;

  // Per op: its kind and, once known, the rule its steps use.
  std::vector<StepKind> kinds_;
  std::vector<const OpShardingRule *> stepRules_;
  // Identity rules by (type, number of operands); stable addresses.
  std::unordered_map<uint64_t, size_t> identityIndex_;
  std::deque<OpShardingRule> identityRules_;

  // Scratch of one step, reused by the next.
  std::vector<Participant> operands_, results_;
  std::vector<const TensorSharding *> views_;
  std::deque<TensorSharding> globalViews_;
  OpProjection projection_;
  FactorPropagationScratch factorScratch_;
  FactorPropagationParams params_;
  std::function<PropagationDirection(size_t)> stepDirection_;  // reads dirs_
  std::vector<PropagationDirection> dirs_;                      // per factor of the step
  std::vector<const TensorSharding *> outcomes_;
  std::string meshName_;
  std::optional<Mesh> inlineMesh_;

  // Steps are pure functions of their rule, directions and interned
  // shardings; equal ops with equal shardings (every layer of a model, every
  // block of a chain) share one outcome: per tensor, its new sharding or
  // null, at memoOutcomes_[memo_[key]].
  struct KeyHash {
    size_t operator()(const std::vector<uint64_t> &k) const;
  };
  std::vector<uint64_t> key_;
  std::unordered_map<std::vector<uint64_t>, uint32_t, KeyHash> memo_;
  std::vector<const TensorSharding *> memoOutcomes_;
  std::vector<bool> elementwise_;  // per op: params.elementwiseOp

  // Written-back attributes by what they are made of (see writeOpResults).
  std::unordered_map<std::vector<uint64_t>, AttrId, KeyHash> listAttrs_;
  std::unordered_map<const TensorSharding *, AttrId> shardingAttrs_;
};

}  // namespace autopart
