// Op-priority propagation: the basic fixpoint run three times, each time
// through more of the program, so that shardings first spread along the ops
// that cannot disagree about them (elementwise ops, reshapes, transposes,
// data-flow edges) before the ops where factors compete (dot_general,
// broadcast, reduce...) decide. Shardy's `-sdy-op-priority-propagate`, with
// the aggressive factor strategy:
//
//   %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
//   %1 = stablehlo.add %0, %arg2
//   with %arg0 [{"a"}, {}] and %arg2 [{"b"}, {}]:
//   level 0 runs only the add: %0 and %1 take [{"b", ?}, {?}] from %arg2;
//   later levels find the dot's row factor in conflict ("a" against "b")
//   and leave %0 as it is. One fixpoint over everything (the aggressive
//   pass) visits the dot first and gives %0 [{"a", ?}, {?}] instead.
//
// Each level allows the union of its own and the earlier levels' directions
// per factor (`direction`); with `PropagationOptions::opPriorities` off it is
// the basic fixpoint, once.
#pragma once

#include "propagation/BasicPropagation.h"

namespace autopart {

class OpPriorityPropagation : public BasicPropagation {
public:
  using BasicPropagation::BasicPropagation;

protected:
  void propagate() override;
  PropagationDirection direction(OpId op, const OpShardingRule *rule, size_t factor) const override;

private:
  static constexpr int kNumLevels = 3;
  int level_ = -1;  // the level of the running fixpoint; -1: none
};

}  // namespace autopart
