#include "export/SingleDeviceReshards.h"

#include <algorithm>

namespace autopart {

namespace {

// The first mesh with axes: where single-device values are handed back.
std::string globalMeshName(const Module &m, const ShardingMap &map) {
  if (m.top == kNone) return "";
  for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
    for (OpId op : m.blocks[b].ops) {
      if (!m.isa(op, "sdy.mesh")) continue;
      std::string name(m.attrs.stringValue(m.attr(op, "sym_name")));
      const Mesh *mesh = map.mesh(name);
      if (mesh && !mesh->axes.empty()) return name;
    }
  return "";
}

bool isMaximal(const ShardingMap &map, const TensorSharding *s) {
  const Mesh *mesh = s ? map.mesh(*s) : nullptr;
  return mesh && mesh->isMaximal();
}

}  // namespace

bool insertSingleDeviceReshards(Module &m, ShardingMap &map, const ReshardBuilder &reshard, OpId func, OpId op) {
  std::optional<TensorSharding> device;
  for (uint32_t r = 0; r < m.numResults(op) && !device; ++r)
    if (const TensorSharding *s = map.get(m.result(op, r)); isMaximal(map, s)) device = *s;
  if (!device) return false;
  std::string global = globalMeshName(m, map);
  if (global.empty()) return false;
  auto replicated = [&](ValueId v) {
    return TensorSharding::closed(global, size_t(std::max<int64_t>(0, m.types.rank(m.type(v)))));
  };

  BlockId block = m.ops[op].parent;
  for (uint32_t i = 0; i < m.numOperands(op); ++i) {
    ValueId v = m.operand(op, i);
    if (!m.types.isTensor(m.type(v))) continue;
    const TensorSharding *s = map.get(v);
    if (s && isMaximal(map, s) && s->meshName == device->meshName) continue;
    ValueId now = v;
    // Off any other mesh or device, or sharded: replicated on the global mesh first.
    if (s && !(s->meshName == global && s->isFullyReplicated()))
      now = reshard(now, replicated(v), block, op, op);
    now = reshard(now, *device, block, op, op);
    m.setOperand(op, i, now);
  }

  // The op computes every tensor result on its device; tokens keep theirs.
  std::vector<TensorSharding> computed;
  std::vector<std::optional<TensorSharding>> annotations;
  for (uint32_t r = 0; r < m.numResults(op); ++r) {
    ValueId v = m.result(op, r);
    const TensorSharding *s = map.get(v);
    annotations.push_back(s ? std::optional<TensorSharding>(*s) : std::nullopt);
    bool tensor = m.types.isTensor(m.type(v));
    computed.push_back(tensor ? *device : s ? *s : TensorSharding::closed(global, 0));
  }
  m.setAttr(op, "sdy.sharding", m.attrs.shardingPerValue(computed));

  // Results are handed back in order, right after the op.
  const std::vector<OpId> &ops = m.blocks[block].ops;
  auto it = std::find(ops.begin(), ops.end(), op);
  OpId next = it == ops.end() || it + 1 == ops.end() ? kNone : *(it + 1);
  for (uint32_t r = 0; r < m.numResults(op); ++r) {
    ValueId v = m.result(op, r);
    if (!m.types.isTensor(m.type(v))) continue;
    std::optional<TensorSharding> annotated = annotations[r];
    if (annotated && isMaximal(map, &*annotated)) annotated.reset();
    map.set(v, *device);
    ValueId back = reshard(v, replicated(v), block, next, op);
    if (annotated && !(annotated->meshName == global && annotated->isFullyReplicated()))
      back = reshard(back, *annotated, block, next, op);
    // Every reader but the first hand-back reads the handed-back value.
    OpId first = m.definingOp(back);
    while (m.operand(first, 0) != v) first = m.definingOp(m.operand(first, 0));
    m.replaceAllUsesWith(v, back, func);
    m.setOperand(first, 0, v);
  }
  return true;
}

}  // namespace autopart
