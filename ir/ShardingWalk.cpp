#include "ir/ShardingWalk.h"

namespace autopart {

namespace {

// Visits the shardings inside attribute `a` (recursing through arrays and
// dictionaries, where function signatures keep theirs).
void visitAttr(const Module &m, AttrId a, const std::function<void(const TensorSharding &)> &fn) {
  if (a == kNoAttr) return;
  const AttrStorage &s = m.attrs.get(a);
  switch (s.kind) {
  case AttrKind::Sharding:
    fn(*s.sharding);
    return;
  case AttrKind::ShardingPerValue:
    for (const TensorSharding &t : s.shardings) fn(t);
    return;
  case AttrKind::Array:
  case AttrKind::Dict:
    for (AttrId e : s.elems) visitAttr(m, e, fn);
    return;
  default:
    return;
  }
}

// The attribute `a` with its shardings edited by `fn` (the same id when
// none changed). The outermost array or sharding list numbers the slots:
// `arg_attrs` entry i, or the sharding of result i.
AttrId rewriteAttr(Module &m, AttrId a, int depth, size_t slot,
                   const std::function<bool(size_t, TensorSharding &)> &fn) {
  if (a == kNoAttr) return a;
  switch (m.attrs.kind(a)) {
  case AttrKind::Sharding: {
    TensorSharding t = *m.attrs.get(a).sharding;
    return fn(slot, t) ? m.attrs.sharding(std::move(t)) : a;
  }
  case AttrKind::ShardingPerValue: {
    std::vector<TensorSharding> all = m.attrs.get(a).shardings;
    bool any = false;
    for (size_t i = 0; i < all.size(); ++i) any |= fn(depth == 0 ? i : slot, all[i]);
    return any ? m.attrs.shardingPerValue(std::move(all)) : a;
  }
  case AttrKind::Array: {
    std::vector<AttrId> elems = m.attrs.get(a).elems;
    bool any = false;
    for (size_t i = 0; i < elems.size(); ++i) {
      AttrId n = rewriteAttr(m, elems[i], depth + 1, depth == 0 ? i : slot, fn);
      any |= n != elems[i];
      elems[i] = n;
    }
    return any ? m.attrs.array(std::move(elems)) : a;
  }
  case AttrKind::Dict: {
    const AttrStorage &s = m.attrs.get(a);
    std::vector<std::pair<NameId, AttrId>> entries;
    for (size_t i = 0; i < s.keys.size(); ++i) entries.emplace_back(s.keys[i], s.elems[i]);
    bool any = false;
    for (auto &[k, v] : entries) {
      AttrId n = rewriteAttr(m, v, depth + 1, slot, fn);
      any |= n != v;
      v = n;
    }
    return any ? m.attrs.dict(std::move(entries)) : a;
  }
  default:
    return a;
  }
}

}  // namespace

AttrId rewriteShardingsIn(Module &m, AttrId a, const std::function<bool(size_t, TensorSharding &)> &fn) {
  return rewriteAttr(m, a, 0, 0, fn);
}

void forEachShardingIn(const Module &m, AttrId a, const std::function<void(const TensorSharding &)> &fn) {
  visitAttr(m, a, fn);
}

void forEachSharding(const Module &m, const std::function<void(OpId, const TensorSharding &)> &fn) {
  m.walk(m.top, [&](OpId op) {
    for (const NamedAttr &a : m.attributes(op))
      visitAttr(m, a.value, [&](const TensorSharding &s) { fn(op, s); });
  });
}

size_t rewriteShardings(Module &m, const std::function<bool(TensorSharding &)> &fn) {
  size_t changed = 0;
  std::vector<OpId> ops;
  m.walk(m.top, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops) {
    // Collected first: setAttr may reorder the op's attribute list.
    std::vector<std::pair<std::string, AttrId>> edits;
    for (const NamedAttr &a : m.attributes(op)) {
      AttrId n = rewriteAttr(m, a.value, 0, 0, [&](size_t, TensorSharding &t) {
        bool edited = fn(t);
        changed += edited;
        return edited;
      });
      if (n != a.value) edits.emplace_back(std::string(m.names.str(a.name)), n);
    }
    for (auto &[name, value] : edits) m.setAttr(op, name, value);
  }
  return changed;
}

}  // namespace autopart
