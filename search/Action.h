// The search's decision space, after TOAST: every action assigns one name of
// the named-dimension analysis (analysis/NamedDimensions.h) to one mesh axis,
// or picks which dimension keeps a conflicting name. A plan is the set of
// actions applied; stopping is the search's own choice, not an action here.
//
//   n2 = the MLP hidden name (w1 dim 1, h dim 1, w2 dim 0, their gradients,
//        optimizer state), mesh data=8, model=4
//   ShardName(n2, model)    every member dimension of n2 split over "model"
//                           (Megatron's column/row split, activations too)
//   ShardAtRest(g, data)    the parameters and optimizer state whose
//                           at-rest dimension has name n2, split over "data"
//                           at the arguments only; the program gathers them
//                           before use (FSDP / ZeRO-3)
//   ResolveConflict(c)      `x @ xᵀ` puts one name on both dimensions of x;
//                           by default the lower dimension keeps it, this
//                           action gives it to the other one
//
// At-rest groups: an argument sharded only where it is stored costs one
// all-gather of the whole argument whichever dimension is split, so each
// non-data argument gets one at-rest dimension per axis (its largest
// dimension divisible by the axis, as FSDP picks it), and the arguments whose
// at-rest dimensions share a name form one group: a weight, its bias and its
// optimizer state move together, as they must to avoid resharding in the
// update. Each group comes twice: the arguments alone (as the fsdp tactic
// shards them), and the arguments with their update (the elementwise chain
// from arguments and gradients to the new parameters the step returns).
//
// Repeated structure: the names of layer 3 and of layer 17 of an unrolled
// model look alike (same size, their members defined by the same kinds of
// ops on the same types at the same dimensions). Such names form one group
// and one action shards them all, as every expert tactic does; at-rest
// groups and conflicts are grouped the same way. A model of L identical
// layers thus has the action space of one layer, not L times it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/ManualAxes.h"
#include "analysis/NamedDimensions.h"
#include "ir/Module.h"
#include "ir/Sharding.h"
#include "tactics/NamePropagation.h"

namespace autopart {

enum class ActionKind : uint8_t { ShardName, ShardAtRest, ResolveConflict };

struct Action {
  ActionKind kind = ActionKind::ShardName;
  // Index into ActionSpace::nameGroups, restGroups or conflictGroups.
  uint32_t target = 0;
  int axis = -1;  // index into ActionSpace::axes; -1 for ResolveConflict
};

struct SearchAxis {
  std::string name;
  int64_t size = 1;
  int meshIndex = 0;  // position in the mesh (canonical axis order)
};

struct RestGroup {
  int axis = 0;
  // Also the optimizer update: the values computed elementwise from the
  // arguments into the function's results (the new parameters and state),
  // as ZeRO-3 keeps them; without it only the arguments are split, as the
  // fsdp tactic does.
  bool withUpdate = false;
  // With the update but the parameters themselves whole (ZeRO-1/2): the
  // optimizer state, the gradients and the update are split.
  bool parametersWhole = false;
  std::vector<DimRef> members;  // (argument, at-rest dimension)
  int64_t bytes = 0;
};

// Everything that does not change during a search: the candidate actions
// (ordered by prior, largest first), the axes, the at-rest groups and which
// values are fixed by the input.
class ActionSpace {
public:
  // `axes`: the mesh axes the search may use (empty: all). `base` is the
  // state the search starts from (earlier tactics, input annotations).
  static ActionSpace build(const Module &m, OpId func, const NamedDimensions &names, const Mesh &mesh,
                           const std::string &meshName, const std::vector<std::string> &axes,
                           const ShardingVector &base);

  const Module *m = nullptr;
  OpId func = kNone;
  const NamedDimensions *names = nullptr;
  Mesh mesh;
  std::string meshName;
  std::vector<SearchAxis> axes;
  std::vector<std::vector<NameId32>> nameGroups;      // alike names, value-disjoint
  std::vector<RestGroup> restGroups;
  std::vector<std::vector<uint32_t>> conflictGroups;  // alike conflicts
  std::vector<Action> actions;
  std::vector<double> prior;       // parallel to actions: bytes the action covers
  std::vector<bool> fixed;         // per ValueId: sharding given by the input
  // The axes enclosing manual computations bind at each value: an action
  // skips such members, and one that would skip all of them is left out.
  ManualAxes manual;
  ShardingVector base;
  // Per conflict: the other conflicts on the same (name, value).
  std::vector<std::vector<uint32_t>> conflictSiblings;
  // Per name: its conflicts.
  std::vector<std::vector<uint32_t>> conflictsOfName;

  size_t size() const { return actions.size(); }
  // `shard n12 (size 4096, 3 tensors: params['w1'] dim 1, ...) on "model"`.
  std::string describe(uint32_t id) const;
};

}  // namespace autopart
