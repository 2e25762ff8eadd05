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
// none changed); `changed` counts the edits.
AttrId rewriteAttr(Module &m, AttrId a, const std::function<bool(TensorSharding &)> &fn, size_t &changed) {
  if (a == kNoAttr) return a;
  switch (m.attrs.kind(a)) {
  case AttrKind::Sharding: {
    TensorSharding t = *m.attrs.get(a).sharding;
    if (!fn(t)) return a;
    ++changed;
    return m.attrs.sharding(std::move(t));
  }
  case AttrKind::ShardingPerValue: {
    std::vector<TensorSharding> all = m.attrs.get(a).shardings;
    bool any = false;
    for (TensorSharding &t : all)
      if (fn(t)) {
        any = true;
        ++changed;
      }
    return any ? m.attrs.shardingPerValue(std::move(all)) : a;
  }
  case AttrKind::Array: {
    std::vector<AttrId> elems = m.attrs.get(a).elems;
    bool any = false;
    for (AttrId &e : elems) {
      AttrId n = rewriteAttr(m, e, fn, changed);
      any |= n != e;
      e = n;
    }
    return any ? m.attrs.array(std::move(elems)) : a;
  }
  case AttrKind::Dict: {
    const AttrStorage &s = m.attrs.get(a);
    std::vector<std::pair<NameId, AttrId>> entries;
    for (size_t i = 0; i < s.keys.size(); ++i) entries.emplace_back(s.keys[i], s.elems[i]);
    bool any = false;
    for (auto &[k, v] : entries) {
      AttrId n = rewriteAttr(m, v, fn, changed);
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
      AttrId n = rewriteAttr(m, a.value, fn, changed);
      if (n != a.value) edits.emplace_back(std::string(m.names.str(a.name)), n);
    }
    for (auto &[name, value] : edits) m.setAttr(op, name, value);
  }
  return changed;
}

}  // namespace autopart
