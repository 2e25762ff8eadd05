#include "propagation/ShardingGroups.h"

#include <algorithm>
#include <map>

#include "rules/OpInfo.h"

namespace autopart {

namespace {

// The sharding stored for `v` in the module (func argument, op result,
// constraint or edge), or null.
const TensorSharding *storedSharding(const Module &m, ValueId v) {
  const ValueInfo &info = m.values[v];
  if (info.isBlockArg) {
    OpId owner = m.regions[m.blocks[info.owner].parent].parent;
    if (opInfo(m, owner).dataFlow == DataFlow::Computation) {
      AttrId a = m.attr(owner, "in_shardings");
      if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
      const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
      return info.index < all.size() ? &all[info.index] : nullptr;
    }
    if (!m.isa(owner, "func.func")) return nullptr;
    AttrId a = FuncView{m, owner}.argAttr(info.index, "sdy.sharding");
    return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get() : nullptr;
  }
  OpId op = info.owner;
  std::string_view n = m.opName(op);
  if (n == "sdy.sharding_constraint" || n == "sdy.reshard" || n == "sdy.data_flow_edge") {
    AttrId a = m.attr(op, "sharding");
    return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get() : nullptr;
  }
  AttrId a = m.attr(op, "sdy.sharding");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
  const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
  return info.index < all.size() ? &all[info.index] : nullptr;
}

OpId owningOp(const Module &m, ValueId v) {
  const ValueInfo &info = m.values[v];
  return info.isBlockArg ? m.regions[m.blocks[info.owner].parent].parent : info.owner;
}

}  // namespace

bool isFullyOpenUnsharded(const TensorSharding &s) {
  for (const DimSharding &d : s.dims)
    if (d.closed || !d.axes.empty()) return false;
  return s.replicated.empty() && s.unreduced.empty();
}

size_t isolateConflictingShardingGroups(Module &m, Diagnostics &diags) {
  // Members per group, in program order.
  std::map<int64_t, std::vector<OpId>> groups;
  for (OpId func : m.functions())
    m.walk(func, [&](OpId op) {
      if (!m.isa(op, "sdy.sharding_group") || m.numOperands(op) != 1) return;
      AttrId id = m.attr(op, "group_id");
      if (id != kNoAttr) groups[m.attrs.get(id).intValue].push_back(op);
    });
  size_t inserted = 0;
  for (const auto &[groupId, members] : groups) {
    const TensorSharding *common = nullptr;
    bool conflict = false;
    for (OpId g : members) {
      const TensorSharding *s = storedSharding(m, m.operand(g, 0));
      if (!s || isFullyOpenUnsharded(*s)) continue;
      if (!common) common = s;
      else if (!(*common == *s)) conflict = true;
    }
    if (!conflict) continue;
    diags.warning(m, owningOp(m, m.operand(members.front(), 0)),
                  "The initial operand shardings on the sharding groups of groupID: " +
                      std::to_string(groupId) +
                      " do not match; every member gets an open sharding constraint");
    TensorSharding open = TensorSharding::open(common->meshName, common->rank());
    open.inlineMesh = common->inlineMesh;
    AttrId openAttr = m.attrs.sharding(open);
    for (OpId g : members) {
      ValueId v = m.operand(g, 0);
      const ValueInfo &info = m.values[v];
      OpId c = m.createOp("sdy.sharding_constraint", {v}, {m.type(v)},
                          {{m.names.get("sharding"), openAttr}});
      m.ops[c].srcOffset = m.ops[g].srcOffset;
      if (info.isBlockArg) {
        const std::vector<OpId> &ops = m.blocks[info.owner].ops;
        m.insertOp(info.owner, c, ops.empty() ? kNone : ops.front());
      } else {
        const std::vector<OpId> &ops = m.blocks[m.ops[info.owner].parent].ops;
        auto it = std::find(ops.begin(), ops.end(), info.owner);
        m.insertOp(m.ops[info.owner].parent, c, it == ops.end() || it + 1 == ops.end() ? kNone : *(it + 1));
      }
      m.replaceAllUsesWith(v, m.result(c), m.enclosingFunc(c));
      m.setOperand(c, 0, v);
      ++inserted;
    }
  }
  return inserted;
}

}  // namespace autopart
