#include "import/ShardingGroupImport.h"

#include <map>
#include <set>
#include <unordered_map>

#include "ir/Pass.h"

namespace autopart {

namespace {

// Union-find over group ids that remembers insertion order; the leader of
// a union is the leader of its first argument (as LLVM's EquivalenceClasses).
class GroupClasses {
public:
  void unite(int64_t a, int64_t b) {
    size_t la = find(index(a)), lb = find(index(b));
    if (la != lb) parent_[lb] = la;
  }
  // New ids 0..N-1, one per class, in insertion order of the leaders.
  std::unordered_map<int64_t, int64_t> renumbering() {
    std::unordered_map<int64_t, int64_t> leaderId, result;
    for (size_t i = 0; i < ids_.size(); ++i)
      if (find(i) == i) leaderId[ids_[i]] = int64_t(leaderId.size());
    for (size_t i = 0; i < ids_.size(); ++i) result[ids_[i]] = leaderId[ids_[find(i)]];
    return result;
  }

private:
  std::vector<int64_t> ids_;
  std::vector<size_t> parent_;
  std::unordered_map<int64_t, size_t> byId_;

  size_t index(int64_t id) {
    auto [it, inserted] = byId_.try_emplace(id, ids_.size());
    if (inserted) {
      ids_.push_back(id);
      parent_.push_back(ids_.size() - 1);
    }
    return it->second;
  }
  size_t find(size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
};

OpId enclosingManual(const Module &m, OpId op) {
  for (OpId p = m.parentOp(op); p != kNone; p = m.parentOp(p))
    if (m.isa(p, "sdy.manual_computation")) return p;
  return kNone;
}

}  // namespace

bool importShardingGroups(Module &m, Diagnostics &diags) {
  if (m.top == kNone) return true;
  std::vector<OpId> groups;
  m.walk(m.top, [&](OpId op) {
    if (m.isa(op, "sdy.sharding_group")) groups.push_back(op);
  });
  if (groups.empty()) return true;
  auto idOf = [&](OpId op) { return m.attrs.get(m.attr(op, "group_id")).intValue; };

  std::map<int64_t, OpId> manualOf;
  std::map<int64_t, TypeId> typeOf;
  std::vector<ValueId> valueOrder;
  std::unordered_map<ValueId, std::vector<OpId>> byValue;
  for (OpId op : groups) {
    ValueId v = m.operand(op, 0);
    int64_t id = idOf(op);
    auto [mit, newGroup] = manualOf.try_emplace(id, enclosingManual(m, op));
    if (!newGroup && mit->second != enclosingManual(m, op)) {
      diags.error(m, op, "ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: " +
                             std::to_string(id));
      return false;
    }
    auto [tit, newShape] = typeOf.try_emplace(id, m.type(v));
    if (!newShape && m.types.shape(tit->second) != m.types.shape(m.type(v))) {
      diags.error(m, op, "ShardingGroupOps values must have the same shape for groupId: " + std::to_string(id));
      return false;
    }
    auto [bit, newValue] = byValue.try_emplace(v);
    if (newValue) valueOrder.push_back(v);
    bit->second.push_back(op);
  }

  GroupClasses classes;
  for (ValueId v : valueOrder) {
    int64_t canonical = idOf(byValue[v].front());
    for (OpId op : byValue[v]) classes.unite(canonical, idOf(op));
  }
  std::unordered_map<int64_t, int64_t> renumber = classes.renumbering();
  std::set<std::pair<int64_t, ValueId>> seen;
  TypeId i64 = m.types.scalar("i64");
  for (ValueId v : valueOrder)
    for (OpId op : byValue[v]) {
      int64_t id = renumber[idOf(op)];
      if (!seen.insert({id, v}).second) {
        m.eraseOp(op);
        continue;
      }
      m.setAttr(op, "group_id", m.attrs.integer(id, i64));
    }
  return true;
}

namespace {

PassRegistration reg("sdy-sharding-group-import", "Validate, merge and renumber sharding groups",
                     [](Module &m, const PassOptions &, Diagnostics &diags) { return importShardingGroups(m, diags); });

}  // namespace

}  // namespace autopart
