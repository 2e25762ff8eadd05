#include "sim/ShardingMap.h"

#include "rules/OpInfo.h"

namespace autopart {

const TensorSharding *resultShardingAttr(const Module &m, OpId op, uint32_t i) {
  std::string_view name = m.opName(op);
  if (name == "sdy.reshard" || name == "sdy.sharding_constraint") {
    AttrId a = m.attr(op, "sharding");
    return a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding ? m.attrs.get(a).sharding.get() : nullptr;
  }
  if (name.starts_with("sdy.")) {
    AttrId a = m.attr(op, "out_sharding");
    if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding) return m.attrs.get(a).sharding.get();
  }
  AttrId a = m.attr(op, "sdy.sharding");
  if (a == kNoAttr) return nullptr;
  const AttrStorage &s = m.attrs.get(a);
  if (s.kind == AttrKind::ShardingPerValue && i < s.shardings.size()) return &s.shardings[i];
  if (s.kind == AttrKind::Sharding && i == 0) return s.sharding.get();
  return nullptr;
}

ShardingMap ShardingMap::fromModule(const Module &m) {
  ShardingMap map;
  map.values_.resize(m.values.size());
  if (m.top == kNone) return map;
  for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
    for (OpId op : m.blocks[b].ops) {
      if (!m.isa(op, "sdy.mesh")) continue;
      AttrId name = m.attr(op, "sym_name"), mesh = m.attr(op, "mesh");
      if (name != kNoAttr && mesh != kNoAttr && m.attrs.kind(mesh) == AttrKind::Mesh)
        map.meshes_[std::string(m.attrs.stringValue(name))] = *m.attrs.get(mesh).mesh;
    }
  for (OpId func : m.functions()) {
    FuncView f{m, func};
    std::span<const ValueId> args = f.args();
    for (size_t i = 0; i < args.size(); ++i) {
      AttrId a = f.argAttr(i, "sdy.sharding");
      if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding) map.values_[args[i]] = *m.attrs.get(a).sharding;
    }
    m.walk(func, [&](OpId op) {
      for (uint32_t i = 0; i < m.numResults(op); ++i)
        if (const TensorSharding *s = resultShardingAttr(m, op, i)) map.values_[m.result(op, i)] = *s;
      // Loop-carried block arguments hold what the loop results hold.
      if (opInfo(m, op).dataFlow == DataFlow::Loop)
        for (uint32_t r = 0; r < m.numRegions(op); ++r)
          for (BlockId b : m.regions[m.region(op, r)].blocks) {
            const std::vector<ValueId> &bargs = m.blocks[b].args;
            for (size_t i = 0; i < bargs.size() && i < m.numResults(op); ++i)
              if (const TensorSharding *s = resultShardingAttr(m, op, uint32_t(i))) map.values_[bargs[i]] = *s;
          }
    });
  }
  return map;
}

void ShardingMap::set(ValueId v, TensorSharding s) {
  if (v >= values_.size()) values_.resize(v + 1);
  values_[v] = std::move(s);
}

void ShardingMap::clear(ValueId v) {
  if (v < values_.size()) values_[v].reset();
}

const Mesh *ShardingMap::mesh(const TensorSharding &s) const {
  if (s.inlineMesh) return &*s.inlineMesh;
  return mesh(s.meshName);
}

const Mesh *ShardingMap::mesh(const std::string &name) const {
  auto it = meshes_.find(name);
  return it == meshes_.end() ? nullptr : &it->second;
}

}  // namespace autopart
