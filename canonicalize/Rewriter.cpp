#include "canonicalize/Rewriter.h"

#include <algorithm>

#include "ir/Clone.h"
#include "ir/MeshLookup.h"

namespace autopart::canonicalize {

Rewriter::Rewriter(Module &module) : m(module) {
  grow();
  if (m.top != kNone) m.walk(m.top, [&](OpId op) { addUses(op); });
}

void Rewriter::grow() {
  if (users_.size() < m.values.size()) users_.resize(m.values.size());
  if (erased_.size() < m.ops.size()) {
    erased_.resize(m.ops.size(), 0);
    position_.resize(m.ops.size(), 0);
    queued_.resize(m.ops.size(), 0);
  }
  if (positionsValid_.size() < m.blocks.size()) positionsValid_.resize(m.blocks.size(), 0);
}

void Rewriter::addUses(OpId op) {
  grow();
  for (ValueId v : m.operands(op)) users_[v].push_back(op);
}

void Rewriter::dropUses(OpId op) {
  for (ValueId v : m.operands(op)) {
    std::vector<OpId> &list = users_[v];
    auto it = std::find(list.begin(), list.end(), op);
    if (it != list.end()) list.erase(it);
  }
}

bool Rewriter::resultsUnused(OpId op) const {
  for (uint32_t r = 0; r < m.numResults(op); ++r)
    if (!unused(m.result(op, r))) return false;
  return true;
}

bool Rewriter::isBeforeInBlock(OpId a, OpId b) {
  BlockId block = m.ops[a].parent;
  grow();
  if (!positionsValid_[block]) {
    const std::vector<OpId> &list = m.blocks[block].ops;
    for (uint32_t i = 0; i < list.size(); ++i) position_[list[i]] = i;
    positionsValid_[block] = 1;
  }
  return position_[a] < position_[b];
}

const Mesh *Rewriter::mesh(const TensorSharding &s) {
  if (s.inlineMesh) return &*s.inlineMesh;
  auto it = meshes_.find(s.meshName);
  if (it != meshes_.end()) return it->second;
  const Mesh *found = meshNamed(m, s.meshName);
  meshes_.emplace(s.meshName, found);
  return found;
}

OpId Rewriter::createAt(OpId near, std::string_view name, const std::vector<ValueId> &operands,
                        const std::vector<TypeId> &resultTypes, const std::vector<NamedAttr> &attrs) {
  OpId op = m.createOp(name, operands, resultTypes, attrs);
  // New ops point at the source of the op they stand in for, so diagnostics
  // on them (the verifier's) land somewhere meaningful.
  m.ops[op].srcOffset = m.ops[near].srcOffset;
  m.ops[op].loc = m.ops[near].loc;
  return op;
}

OpId Rewriter::createBefore(OpId before, std::string_view name, const std::vector<ValueId> &operands,
                            const std::vector<TypeId> &resultTypes, const std::vector<NamedAttr> &attrs) {
  OpId op = createAt(before, name, operands, resultTypes, attrs);
  moveBefore(op, before);
  addUses(op);
  enqueue(op);
  return op;
}

void Rewriter::placeAfter(OpId op, OpId after) {
  grow();
  BlockId block = m.ops[after].parent;
  std::vector<OpId> &list = m.blocks[block].ops;
  auto it = std::find(list.begin(), list.end(), after);
  list.insert(it + 1, op);
  m.ops[op].parent = block;
  noteEdited(block);
}

OpId Rewriter::createAfter(OpId after, std::string_view name, const std::vector<ValueId> &operands,
                           const std::vector<TypeId> &resultTypes, const std::vector<NamedAttr> &attrs) {
  OpId op = createAt(after, name, operands, resultTypes, attrs);
  placeAfter(op, after);
  addUses(op);
  enqueue(op);
  return op;
}

OpId Rewriter::cloneAfter(OpId op, OpId after) {
  OpId copy = cloneOp(m, op, [](ValueId v) { return v; });
  placeAfter(copy, after);
  addUses(copy);
  m.walk(copy, [&](OpId inner) { addUses(inner); });
  enqueue(copy);
  return copy;
}

void Rewriter::setOperand(OpId op, uint32_t i, ValueId v) {
  ValueId old = m.operand(op, i);
  if (old == v) return;
  std::vector<OpId> &list = users_[old];
  auto it = std::find(list.begin(), list.end(), op);
  if (it != list.end()) list.erase(it);
  m.setOperand(op, i, v);
  users_[v].push_back(op);
  changed_ = true;
  enqueue(op);
  if (OpId def = m.definingOp(old); def != kNone && users_[old].size() <= 1) enqueue(def);
}

void Rewriter::setOperands(OpId op, const std::vector<ValueId> &vs) {
  std::vector<ValueId> old(m.operands(op).begin(), m.operands(op).end());
  dropUses(op);
  m.setOperands(op, vs);
  addUses(op);
  changed_ = true;
  enqueue(op);
  for (ValueId v : old)
    if (OpId def = m.definingOp(v); def != kNone && users_[v].size() <= 1) enqueue(def);
}

void Rewriter::setAttr(OpId op, std::string_view name, AttrId value) {
  if (m.attr(op, name) == value) return;
  m.setAttr(op, name, value);
  changed_ = true;
  enqueue(op);
}

void Rewriter::replaceAllUsesWith(ValueId from, ValueId to) {
  if (from == to) return;
  grow();
  std::vector<OpId> list = std::move(users_[from]);
  users_[from].clear();
  for (OpId user : list) {
    for (uint32_t i = 0; i < m.numOperands(user); ++i)
      if (m.operand(user, i) == from) m.setOperand(user, i, to);
  }
  // `list` holds a user once per use, which is what users_[to] must gain.
  for (OpId user : list) {
    users_[to].push_back(user);
    enqueue(user);
  }
  if (OpId def = m.definingOp(to); def != kNone) enqueue(def);
  changed_ = true;
}

void Rewriter::replaceOp(OpId op, const std::vector<ValueId> &with) {
  for (uint32_t r = 0; r < m.numResults(op) && r < with.size(); ++r) replaceAllUsesWith(m.result(op, r), with[r]);
  eraseOp(op);
}

void Rewriter::eraseOp(OpId op) {
  grow();
  std::vector<ValueId> operands(m.operands(op).begin(), m.operands(op).end());
  m.walk(op, [&](OpId inner) {
    dropUses(inner);
    erased_[inner] = 1;
  });
  dropUses(op);
  erased_[op] = 1;
  BlockId block = m.ops[op].parent;
  m.eraseOp(op);
  if (block != kNone) noteEdited(block);
  // What read the erased op's operands may have lost its last other user
  // (dead now) or be left with a single one (a one-use pattern applies).
  for (ValueId v : operands) {
    if (users_[v].size() > 1) continue;
    if (OpId def = m.definingOp(v); def != kNone) enqueue(def);
    if (users_[v].size() == 1) enqueue(users_[v][0]);
  }
}

void Rewriter::moveBefore(OpId op, OpId before) {
  grow();
  BlockId from = m.ops[op].parent;
  if (from != kNone) {
    m.eraseOp(op);
    noteEdited(from);
  }
  BlockId block = m.ops[before].parent;
  m.insertOp(block, op, before);
  noteEdited(block);
}

void Rewriter::eraseBlockArgs(BlockId block, const std::vector<bool> &drop) {
  std::vector<ValueId> &args = m.blocks[block].args;
  std::vector<ValueId> kept;
  for (size_t i = 0; i < args.size(); ++i)
    if (i >= drop.size() || !drop[i]) kept.push_back(args[i]);
  for (uint32_t i = 0; i < kept.size(); ++i) m.values[kept[i]].index = i;
  args = std::move(kept);
  changed_ = true;
}

void Rewriter::enqueue(OpId op) {
  grow();
  if (erased_[op] || queued_[op]) return;
  queued_[op] = 1;
  worklist_.push_back(op);
}

std::optional<OpId> Rewriter::pop() {
  while (!worklist_.empty()) {
    OpId op = worklist_.back();
    worklist_.pop_back();
    queued_[op] = 0;
    if (!erased_[op]) return op;
  }
  return std::nullopt;
}

}  // namespace autopart::canonicalize
