// The editing surface the canonicalization patterns share: use lists for
// every value (the Module stores operands only, so "who reads %0" would be a
// scan of the whole function), edits that keep them up to date, and the
// worklist that hears about every change so the driver can revisit what a
// rewrite touched. A pattern sees only this class, never the driver.
//
//   %0 = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
//   %1 = sdy.reshard %0 <@mesh, [{}]> : tensor<8xf32>
//
//   users(%0) == [op of %1]; hasOneUse(%0) is true.
//   setOperand(op of %1, 0, %arg0) moves the use to %arg0, queues both ops,
//   and %0, now unused, is erased by the driver as dead.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/Module.h"

namespace autopart::canonicalize {

class Rewriter {
public:
  explicit Rewriter(Module &m);

  Module &m;

  // --- Uses ----------------------------------------------------------------
  // One entry per use: an op reading `v` twice is listed twice.
  const std::vector<OpId> &users(ValueId v) const { return users_[v]; }
  bool unused(ValueId v) const { return users_[v].empty(); }
  bool hasOneUse(ValueId v) const { return users_[v].size() == 1; }
  bool resultsUnused(OpId op) const;

  // --- Order -----------------------------------------------------------------
  // Whether `a` comes before `b` in the block holding both. Positions are
  // computed per block once and again only after that block was edited.
  bool isBeforeInBlock(OpId a, OpId b);
  bool isErased(OpId op) const { return op < erased_.size() && erased_[op]; }

  // --- Meshes ------------------------------------------------------------------
  // The mesh a sharding names (its inline mesh or the `sdy.mesh` symbol);
  // null when the symbol is unknown.
  const Mesh *mesh(const TensorSharding &s);

  // --- Edits ---------------------------------------------------------------
  // Creates an op placed right before `before` (in its block).
  OpId createBefore(OpId before, std::string_view name, const std::vector<ValueId> &operands,
                    const std::vector<TypeId> &resultTypes, const std::vector<NamedAttr> &attrs);
  // Creates an op placed right after `after` (in its block).
  OpId createAfter(OpId after, std::string_view name, const std::vector<ValueId> &operands,
                   const std::vector<TypeId> &resultTypes, const std::vector<NamedAttr> &attrs);
  // A copy of `op` (regions included) placed right after `after`.
  OpId cloneAfter(OpId op, OpId after);
  void setOperand(OpId op, uint32_t i, ValueId v);
  void setOperands(OpId op, const std::vector<ValueId> &vs);
  void setAttr(OpId op, std::string_view name, AttrId value);
  // Redirects every use of `from` to `to`, queueing the users.
  void replaceAllUsesWith(ValueId from, ValueId to);
  // Replaces each result of `op` by the matching value, then erases `op`.
  void replaceOp(OpId op, const std::vector<ValueId> &with);
  // Removes `op` (and all it contains) from the IR, dropping its uses; the
  // ops defining its operands are queued since they may now be dead.
  void eraseOp(OpId op);
  // Moves `op` from its block to right before `before`.
  void moveBefore(OpId op, OpId before);
  // Drops the block arguments whose flag is set; they must be unused.
  void eraseBlockArgs(BlockId block, const std::vector<bool> &drop);

  // --- Worklist ----------------------------------------------------------------
  // Ops to (re)visit, last in first out, each at most once at a time.
  void enqueue(OpId op);
  std::optional<OpId> pop();
  bool changed() const { return changed_; }
  void clearChanged() { changed_ = false; }

private:
  // A detached op at the source position of `near`.
  OpId createAt(OpId near, std::string_view name, const std::vector<ValueId> &operands,
                const std::vector<TypeId> &resultTypes, const std::vector<NamedAttr> &attrs);
  void addUses(OpId op);
  void dropUses(OpId op);
  void noteEdited(BlockId block) { positionsValid_[block] = false; changed_ = true; }
  void grow();
  void placeAfter(OpId op, OpId after);

  std::vector<std::vector<OpId>> users_;
  std::vector<char> erased_;
  std::vector<uint32_t> position_;   // index of an op in its block
  std::vector<char> positionsValid_; // per block
  std::vector<OpId> worklist_;
  std::vector<char> queued_;
  std::unordered_map<std::string, const Mesh *> meshes_;
  bool changed_ = false;
};

}  // namespace autopart::canonicalize
