// Which values the per-value refinement (search/Refine.h) moves together.
// Kept apart from the moves so the grouping, the part that decides what the
// refinement can express at all, is a plain function of the program and the
// action space that tests can check without pricing a single plan.
//
// A unit is a value and the elementwise ops that follow it (same shape, as
// the ILP merges them): `h = conv(x, w); b = add(h, bias); r = max(b, 0)` is
// one unit {h, b, r}, so moving it never reshards inside the chain. A
// scatter's or reduce's result heads a unit like any op's; only control flow
// (isDataFlowOp) keeps its results with its regions. Units that look alike
// a few producers deep (layer 3 and layer 17 of an unrolled model) form a
// class; units an elementwise op joins (`m2 = b1 * m + (1 - b1) * g` joins
// the gradient's unit to the moment's) form a group, and alike groups form
// a class too. Name windows are a name's member values in program order,
// for the window moves.
//
//   y = (logistic(x·w1 + b1))·w2 + x   (tests/search/SearchFixtures.h mlpStep)
//   units:   {x·w1, +b1, logistic}  {broadcast b1}  {·w2, +x}  {w1, w1 - mu} ...
//   classes: one per unit (none alike), then the group
//            {x·w1, +b1, logistic} + {broadcast b1}, joined by the add
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "search/Action.h"

namespace autopart {

struct RefineUnit {
  std::vector<ValueId> values;  // head first, then its followers in program order
};

// Units that move as one: every value of every unit gets the same candidate.
struct RefineClass {
  std::vector<uint32_t> units;  // indices into RefineUnits::units
  // Every placement of the search axes on the first unit's head
  // (search/AxisPlacements.h), replicated (nullopt) first.
  std::vector<std::optional<TensorSharding>> candidates;
};

struct RefineUnits {
  std::vector<RefineUnit> units;  // arguments first, then op results in program order
  std::vector<int32_t> unitOf;    // per ValueId: its unit, -1 when it never moves
  // The classes of alike units in program order of their first unit (each
  // unit in exactly one), then the classes of alike groups (a unit in at
  // most one).
  std::vector<RefineClass> classes;
  // Per name with a movable member: (value, dimension) in value order, one
  // per value.
  std::vector<std::vector<DimRef>> nameMembers;
};

// A value the refinement may re-shard: a ranked tensor, neither fixed by the
// input nor set in the space's base state.
bool refinementMovable(const ActionSpace &space, ValueId v);

// The units, classes and name windows of the space's entry function.
// Deterministic: the same space gives the same lists in the same order.
RefineUnits buildRefineUnits(const ActionSpace &space);

}  // namespace autopart
