#include "sim/ShardingMap.h"

#include "ir/ValueSharding.h"

namespace autopart {

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
    for (ValueId arg : FuncView{m, func}.args())
      if (const TensorSharding *s = valueSharding(m, arg)) map.values_[arg] = *s;
    m.walk(func, [&](OpId op) {
      // The simulator costs a computation's results and body arguments as
      // unsharded (its memory figures rest on that), so their in/out
      // shardings are not read here.
      if (m.isa(op, "sdy.manual_computation") || m.isa(op, "sdy.named_computation")) return;
      for (uint32_t i = 0; i < m.numResults(op); ++i)
        if (const TensorSharding *s = valueSharding(m, m.result(op, i))) map.values_[m.result(op, i)] = *s;
      for (uint32_t r = 0; r < m.numRegions(op); ++r)
        for (BlockId b : m.regions[m.region(op, r)].blocks)
          for (ValueId arg : m.blocks[b].args)
            if (const TensorSharding *s = valueSharding(m, arg)) map.values_[arg] = *s;
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

const Mesh *ShardingMap::computationMesh(const Module &m, OpId op) const {
  for (const char *list : {"in_shardings", "out_shardings"}) {
    AttrId a = m.attr(op, list);
    if (a == kNoAttr) continue;
    const AttrStorage &s = m.attrs.get(a);
    if (s.kind == AttrKind::ShardingPerValue && !s.shardings.empty())
      if (const Mesh *found = mesh(s.shardings[0])) return found;
    if (s.kind == AttrKind::Sharding && s.sharding)
      if (const Mesh *found = mesh(*s.sharding)) return found;
  }
  return nullptr;
}

const Mesh *ShardingMap::mesh(const std::string &name) const {
  auto it = meshes_.find(name);
  return it == meshes_.end() ? nullptr : &it->second;
}

}  // namespace autopart
