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
// The priority passes build on this class: they override `propagate` to run
// the fixpoint several times (OpPriorityPropagation.h,
// UserPriorityPropagation.h) and `direction` to limit which factors move in
// each run. Registered here as `-sdy-basic-propagate`.
#pragma once

#include <deque>
#include <functional>
#include <optional>
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
  void push(OpId op);
  void notify(uint32_t slot, OpId current);
  const OpShardingRule *ruleOf(OpId op);
  void step(OpId op);
  PropagationDirection barrierDirection(OpId op) const;
  void propagateFuncResults(OpId func);
  const TensorSharding *view(const Participant &p, std::deque<TensorSharding> &scratch) const;
  const TensorSharding *meshSourceOf(const std::vector<const TensorSharding *> &views) const;
  OpProjection project(const std::vector<const TensorSharding *> &views, const OpShardingRule &rule,
                       const std::vector<Participant> &operands, const std::vector<Participant> &results,
                       const Mesh &mesh) const;
  bool propagateThrough(OpId op, const OpShardingRule &rule, const std::vector<Participant> &operands,
                        const std::vector<Participant> &results,
                        const std::function<PropagationDirection(size_t)> &directionOf);
  void setSlot(uint32_t slot, TensorSharding s, OpId current);
  void writeBack();
  void writeListEntry(const Slot &s);
  void writeOpResults(OpId op, const std::vector<uint32_t> &changedSlots);

  Module &m_;
  const PropagationOptions options_;
  Diagnostics &diags_;
  PropagationStats stats_;
  std::optional<PropagationGraph> graph_;
  std::optional<RuleCache> rules_;
  std::vector<OpId> rulesToKeep_;
  std::vector<OpId> stack_;
  std::vector<bool> inStack_;
};

}  // namespace autopart
