// The propagation graph: what sharding propagation walks over, built once
// per module before any step runs. Every shardable value (a static-shaped
// tensor) is bound to a slot, which holds the value's current sharding and
// says where it is written back. Values that must carry the same sharding
// share one slot: a data-flow edge ties the value it ends at (a while result,
// its block arguments, the edge's own result) to the edge's slot, and
// sharding groups tie their members' slots together. The graph also records
// who reads each value (uses, and the edges that read a use), so the worklist
// knows which steps to revisit when a slot changes.
//
//   %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) ...
//   %1 = sdy.data_flow_edge %0#0 sharding=S : tensor<32x96xf32>
//   ->
//   slot k (OpAttr of the edge, starts as S): %0#0, %iterArg (cond and body),
//   and %1; edge k reads %arg0 (the while's operand 0) and the body's
//   `stablehlo.return` operand 0.
//
// Storage only: the graph changes no sharding after it is built (the
// propagation layers write slots, BasicPropagation.h writes them back).
// Everything per value or per slot lives in flat arrays allocated once per
// program (compressed rows, support/Csr.h): the members of each slot, the
// uses of each value and the steps that read each slot, so a propagation
// step allocates nothing to find its neighbours.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ir/Module.h"
#include "propagation/DataFlowEdges.h"
#include "rules/OpInfo.h"
#include "support/Csr.h"

namespace autopart {

inline constexpr uint32_t kNoSlot = kNone;

// Where a slot's sharding lives in the module, for the final write-back.
enum class Storage : uint8_t {
  None,        // not stored (e.g. a while block argument without an edge)
  FuncArg,     // func argument `sdy.sharding`
  FuncResult,  // func result `sdy.sharding`
  OpResult,    // `sdy.sharding` per result of `op`
  OpAttr,      // the `sharding` attribute of `op` (constraints, edges)
  InSharding,  // `in_shardings[index]` of a computation, for its body argument
  OutSharding, // `out_shardings[index]` of a computation, for its result
};

// One sharding shared by one or more values: a data-flow edge ties the while
// result, its block arguments and the edge's own result to one slot (the
// values are `PropagationGraph::membersOf`).
struct Slot {
  // Interned in the graph's table (`PropagationGraph::intern`): equal
  // shardings are one pointer, so steps compare and copy pointers.
  const TensorSharding *sharding = nullptr;
  Storage storage = Storage::None;
  OpId op = kNone;     // func for FuncArg/FuncResult, owner otherwise
  uint32_t index = 0;  // argument / result number
  bool changed = false;
  // For InSharding of a manual computation: the body sees the local form.
  const ManualAxesView *manual = nullptr;
  int64_t group = -1;  // sharding group id
};

// A tensor taking part in a propagation step: its slot, and for the local
// side of a manual computation edge, the manual axes its sharding lacks.
struct Participant {
  uint32_t slot = kNoSlot;
  const ManualAxesView *manual = nullptr;
};

struct Use {
  OpId user;
  uint32_t index;
};

// A data-flow edge: the values flowing in (sources) and the slot they end at
// (target).
struct Edge {
  OpId op = kNone;
  std::vector<Participant> sources;
  Participant target;
  std::vector<Use> sourceUses;
};

// Hash-consing of the shardings propagation holds: one copy of each distinct
// sharding per program, at a stable address. A 200k-op chain holds a handful
// of distinct shardings, so slots stay small and "did this change" is a
// pointer comparison.
class ShardingTable {
public:
  const TensorSharding *intern(TensorSharding s) { return &*set_.insert(std::move(s)).first; }
  const TensorSharding *intern(const TensorSharding *s) { return s ? intern(TensorSharding(*s)) : nullptr; }

private:
  struct Hash {
    size_t operator()(const TensorSharding &s) const;
  };
  std::unordered_set<TensorSharding, Hash> set_;
};

class PropagationGraph {
public:
  // Builds the graph of every function of `m` (which must have a top op).
  explicit PropagationGraph(const Module &m);
  // Slots and edges point into the graph's own storage.
  PropagationGraph(const PropagationGraph &) = delete;
  PropagationGraph &operator=(const PropagationGraph &) = delete;

  // The one copy of `s` (see ShardingTable); slots hold only such pointers.
  const TensorSharding *intern(TensorSharding s) { return shardings_.intern(std::move(s)); }

  // The mesh `s` names (or its inline mesh); nullptr when unknown.
  const Mesh *meshOf(const TensorSharding &s) const;

  size_t numSlots() const { return slots_.size(); }
  Slot &slot(uint32_t i) { return slots_[i]; }
  const Slot &slot(uint32_t i) const { return slots_[i]; }
  // kNoSlot for values that are not shardable.
  uint32_t slotOf(ValueId v) const { return slotOf_[v]; }
  // The values bound to slot `i`, in the order they were bound.
  std::span<const ValueId> membersOf(uint32_t i) const { return members_.row(i); }
  // The steps to revisit when slot `i` changes, per member: the op that
  // defines it (or owns it as a block argument), then per use the edges that
  // read the use, else the op owning a terminator that uses it, else the
  // user. Repeats are kept (the worklist skips queued ops).
  std::span<const OpId> stepsReading(uint32_t i) const { return readers_.row(i); }
  // Per result of `func`, its slot (kNoSlot when not shardable).
  const std::vector<uint32_t> &funcResultSlots(OpId func) const;
  // The slots of sharding group `group`.
  const std::vector<uint32_t> &groupMembers(int64_t group) const;

  // The op table's row of `op` (rules/OpInfo.h), looked up once per op name.
  const OpInfo &infoOf(OpId op) const;

  // Every op nested in a function, functions in order, each in pre-order.
  const std::vector<OpId> &ops() const { return order_; }
  std::span<const Use> usesOf(ValueId v) const {
    return {uses_.data() + useBegin_[v], useBegin_[v + 1] - useBegin_[v]};
  }
  // The edge of an edge op; nullptr when it has none.
  const Edge *edgeOf(OpId edgeOp) const;
  // The edge ops that read operand `index` of `user` as a source; empty
  // when none does (the use then feeds `user` itself).
  std::span<const OpId> edgesReading(OpId user, uint32_t index) const;

private:
  void collectMeshes();
  bool shardableType(TypeId t) const;
  uint32_t newSlot(Storage storage, OpId op, uint32_t index, const TensorSharding *initial);
  void bindValue(ValueId v, uint32_t slot);
  void rebind(ValueId v, uint32_t slot);
  void buildFunction(OpId func);
  void visitOp(OpId op);
  void bindResults(OpId op, std::string_view name);
  void bindBlockArgs(OpId op, bool computation);
  OpId terminatorOf(RegionId r) const;
  const TensorSharding *listEntry(OpId op, std::string_view attr, size_t i) const;
  void addSource(Edge &e, OpId user, uint32_t index, const ManualAxesView *manual = nullptr);
  void addFuncEdgeSources(Edge &e, ValueId input);
  void addOwnerSources(Edge &e, uint32_t slot, ValueId input);
  void buildEdges();
  void buildGroups();
  void buildUses();
  void buildMembers();
  void buildReaders();

  // An edge op reading operand `index` of `user`.
  struct EdgeUse {
    OpId user;
    uint32_t index;
    OpId edgeOp;
  };

  const Module &m_;
  ShardingTable shardings_;
  // Few per program: found by a linear search, no string map per lookup.
  std::vector<std::pair<std::string, Mesh>> meshes_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> slotOf_;
  // The order in which each value was bound (members keep it).
  std::vector<uint32_t> bindOrder_;
  uint32_t numBinds_ = 0;
  std::map<OpId, std::vector<uint32_t>> funcResultSlots_;
  // Uses of value v: uses_[useBegin_[v] .. useBegin_[v + 1]), in op order.
  std::vector<uint32_t> useBegin_;
  std::vector<Use> uses_;
  Csr members_, readers_;
  std::vector<OpId> order_, edgeOps_, groupOps_;
  std::deque<ManualAxesView> views_;  // stable addresses for Slot/Participant
  std::vector<Edge> edges_;
  std::vector<uint32_t> edgeIndex_;  // per op; kNone for non-edges
  // A function's return value feeds the edge of every call's result; sorted
  // by (user, index), edges in the order they were built.
  std::vector<EdgeUse> edgesOfUse_;
  std::vector<OpId> edgeOpsOfUse_;  // edgesOfUse_[i].edgeOp, as one span per use
  std::map<OpId, std::vector<OpId>> callsTo_;  // func.func -> its calls
  std::map<int64_t, std::vector<uint32_t>> groups_;
  mutable std::vector<const OpInfo *> infoByName_;  // by NameId
};

}  // namespace autopart
