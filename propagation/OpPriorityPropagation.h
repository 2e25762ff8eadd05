// Op-priority propagation: the basic fixpoint run five times, each time
// through more of the program, so that shardings first spread along the ops
// that cannot disagree about them (elementwise ops, reshapes, transposes,
// data-flow edges) before the ops where factors compete (dot_general,
// broadcast, reduce...) decide. Shardy's `-sdy-op-priority-propagate`, with
// the aggressive factor strategy. The levels (each allows the union of its
// own and the earlier levels' directions per factor, `direction`):
//
//   0  elementwise ops, reshapes, transposes, data-flow edges and offload
//      custom calls (dynamic slices forward only), unless a non-scalar operand
//      has other uses: sharding one user of a shared value would make every
//      other user reshard it
//   1  the same ops whatever their operands' uses
//   2  every pass-through factor (broadcasts backward only)
//   3  everything but a broadcast's forward direction
//   4  everything
//
//   %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
//   %1 = stablehlo.add %0, %arg2
//   with %arg0 [{"a"}, {}] and %arg2 [{"b"}, {}]:
//   level 0 runs only the add: %0 and %1 take [{"b", ?}, {?}] from %arg2;
//   later levels find the dot's row factor in conflict ("a" against "b")
//   and leave %0 as it is. One fixpoint over everything (the aggressive
//   pass) visits the dot first and gives %0 [{"a", ?}, {?}] instead.
//
// With `PropagationOptions::opPriorities` off it is the basic fixpoint, once.
#pragma once

#include <vector>

#include "propagation/BasicPropagation.h"

namespace autopart {

class OpPriorityPropagation : public BasicPropagation {
public:
  using BasicPropagation::BasicPropagation;

protected:
  void propagate() override;
  PropagationDirection direction(OpId op, const OpShardingRule *rule, size_t factor) const override;

private:
  // Whether some non-scalar operand of each op has more than one use
  // (found once, before the first level).
  void findSharedOperands();

  static constexpr int kNumLevels = 5;
  int level_ = -1;  // the level of the running fixpoint; -1: none
  std::vector<bool> sharedOperand_;  // per OpId
};

}  // namespace autopart
