// User-priority propagation: the user marks dimensions with priorities
// (`{"a"}p0`, `{?}p1`) to say which shardings should win a conflict; they
// propagate in rounds, p0 first, then p1, ..., then the dimensions without
// a priority, each round a whole op-priority propagation
// (OpPriorityPropagation.h). Until its round a dimension is hidden as Shardy
// hides it: closed and empty (it takes nothing, and an elementwise op's
// operands take no more than such a result holds), its axes explicitly
// replicated so that no other dimension of the tensor takes them. The
// owners of data-flow edges (a manual computation's in/out shardings) keep
// what the user wrote, priorities included: their edges propagate. The
// output drops the priorities. Shardy's `-sdy-user-priority-propagate`:
//
//   %arg0 [{"a"}p1, {}], %arg1 [{"b"}p0, {}], %0 = stablehlo.add %arg0, %arg1
//   round p0 (%arg0's dimension 0 hidden): %0 [{"b", ?}, {?}];
//   round p1: "a" against "b" conflicts, %0 keeps "b".
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "propagation/OpPriorityPropagation.h"

namespace autopart {

class UserPriorityPropagation : public OpPriorityPropagation {
public:
  using OpPriorityPropagation::OpPriorityPropagation;

protected:
  void propagate() override;

private:
  std::vector<int64_t> hideByPriority();
  void revealPriority(int64_t p);

  // The slots that hide dimensions, with their sharding as the user wrote it.
  std::vector<std::pair<uint32_t, TensorSharding>> originals_;
};

}  // namespace autopart
