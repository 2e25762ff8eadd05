#include "ir/Clone.h"

#include <unordered_map>

namespace autopart {

namespace {

OpId cloneWith(Module &m, OpId op, std::unordered_map<ValueId, ValueId> &inner,
               const std::function<ValueId(ValueId)> &map) {
  auto lookup = [&](ValueId v) {
    auto it = inner.find(v);
    return it != inner.end() ? it->second : map(v);
  };
  std::vector<ValueId> operands;
  for (ValueId v : m.operands(op)) operands.push_back(lookup(v));
  std::vector<TypeId> types;
  for (uint32_t r = 0; r < m.numResults(op); ++r) types.push_back(m.type(m.result(op, r)));
  std::vector<NamedAttr> attrs(m.attributes(op).begin(), m.attributes(op).end());
  OpId copy = m.createOp(m.opName(op), operands, types, attrs);
  m.ops[copy].srcOffset = m.ops[op].srcOffset;
  m.ops[copy].loc = m.ops[op].loc;
  std::vector<RegionId> regions;
  for (uint32_t r = 0; r < m.numRegions(op); ++r) {
    RegionId from = m.region(op, r);
    RegionId to = m.createRegion();
    std::vector<BlockId> blocks = m.regions[from].blocks;  // copied: createBlock grows `blocks`
    for (BlockId b : blocks) {
      BlockId nb = m.createBlock(to);
      std::vector<ValueId> args = m.blocks[b].args;
      for (ValueId a : args) inner[a] = m.addBlockArg(nb, m.type(a));
      std::vector<OpId> ops = m.blocks[b].ops;
      for (OpId inOp : ops) {
        OpId c = cloneWith(m, inOp, inner, map);
        for (uint32_t i = 0; i < m.numResults(inOp); ++i) inner[m.result(inOp, i)] = m.result(c, i);
        m.ops[c].parent = nb;
        m.blocks[nb].ops.push_back(c);
      }
    }
    regions.push_back(to);
  }
  if (!regions.empty()) m.attachRegions(copy, regions);
  return copy;
}

}  // namespace

OpId cloneOp(Module &m, OpId op, const std::function<ValueId(ValueId)> &map) {
  std::unordered_map<ValueId, ValueId> inner;
  return cloneWith(m, op, inner, map);
}

}  // namespace autopart
