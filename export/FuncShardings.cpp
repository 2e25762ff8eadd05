#include "export/FuncShardings.h"

namespace autopart {

namespace {

const TensorSharding *asSharding(const Module &m, AttrId a) {
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) return nullptr;
  return m.attrs.get(a).sharding.get();
}

// The list for `types`, entries from `get`, the missing ones fully open.
template <typename Get>
std::optional<std::vector<TensorSharding>> completeList(const Module &m, const std::vector<TypeId> &types, Get get) {
  const TensorSharding *first = nullptr;
  for (size_t i = 0; i < types.size() && !first; ++i) first = get(i);
  if (!first) return std::nullopt;
  std::vector<TensorSharding> all;
  all.reserve(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    const TensorSharding *s = get(i);
    all.push_back(s ? *s : fullyOpenLike(m, *first, types[i]));
  }
  return all;
}

}  // namespace

TensorSharding fullyOpenLike(const Module &m, const TensorSharding &like, TypeId t) {
  TensorSharding open = TensorSharding::open(like.meshName, m.types.isTensor(t) ? size_t(m.types.rank(t)) : 0);
  open.inlineMesh = like.inlineMesh;
  return open;
}

bool setValueSharding(Module &m, ValueId v, const TensorSharding &s) {
  const ValueInfo &info = m.values[v];
  if (info.isBlockArg) {
    RegionId region = m.blocks[info.owner].parent;
    OpId func = region == kNone ? kNone : m.regions[region].parent;
    if (func == kNone || !m.isa(func, "func.func") || FuncView{m, func}.entry() != info.owner) return false;
    MutableFuncView(m, func).setArgAttr(info.index, "sdy.sharding", m.attrs.sharding(s));
    return true;
  }
  OpId op = info.owner;
  std::vector<TensorSharding> all;
  AttrId old = m.attr(op, "sdy.sharding");
  if (old != kNoAttr && m.attrs.kind(old) == AttrKind::ShardingPerValue &&
      m.attrs.get(old).shardings.size() == m.numResults(op)) {
    all = m.attrs.get(old).shardings;
  } else {
    for (uint32_t r = 0; r < m.numResults(op); ++r) all.push_back(fullyOpenLike(m, s, m.type(m.result(op, r))));
  }
  all[info.index] = s;
  m.setAttr(op, "sdy.sharding", m.attrs.shardingPerValue(std::move(all)));
  return true;
}

const TensorSharding *funcArgSharding(const Module &m, OpId func, size_t i) {
  return asSharding(m, FuncView{m, func}.argAttr(i, "sdy.sharding"));
}

const TensorSharding *funcResultSharding(const Module &m, OpId func, size_t i) {
  return asSharding(m, FuncView{m, func}.resultAttr(i, "sdy.sharding"));
}

std::optional<std::vector<TensorSharding>> funcArgShardings(const Module &m, OpId func) {
  FuncView f{m, func};
  std::vector<TypeId> types;
  for (ValueId a : f.args()) types.push_back(m.type(a));
  return completeList(m, types, [&](size_t i) { return funcArgSharding(m, func, i); });
}

std::optional<std::vector<TensorSharding>> funcResultShardings(const Module &m, OpId func) {
  return completeList(m, FuncView{m, func}.resultTypes(), [&](size_t i) { return funcResultSharding(m, func, i); });
}

}  // namespace autopart
