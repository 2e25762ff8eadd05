// Helpers every rule builder shares: shapes, integer attributes, the
// pointwise rule, and the once-per-op-kind warning for ops without a rule.
#include "rules/RuleFamilies.h"

#include <mutex>
#include <set>

namespace autopart {
namespace rules {

std::vector<int64_t> shapeOf(const Module &m, ValueId v) {
  TypeId t = m.type(v);
  return m.types.isTensor(t) ? m.types.shape(t) : std::vector<int64_t>{};
}

std::vector<int64_t> intsAttr(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
}

int64_t intAttr(const Module &m, OpId op, std::string_view name, int64_t dflt) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr) return dflt;
  const AttrStorage &s = m.attrs.get(a);
  return s.kind == AttrKind::Integer || s.kind == AttrKind::Bool ? s.intValue : dflt;
}

OpShardingRule pointwise(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  b.addPointwise(shapeOf(m, m.result(op, 0)));
  return b.build();
}


void warnOnce(Diagnostics *diags, const Module &m, OpId op, const std::string &key,
              const std::string &message) {
  if (!diags) return;
  static std::mutex mu;
  static std::set<std::pair<const Module *, std::string>> seen;
  std::lock_guard<std::mutex> lock(mu);
  if (!seen.insert({&m, key}).second) return;
  diags->warning(m, op, message);
}

}  // namespace rules
}  // namespace autopart
