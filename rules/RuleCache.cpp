#include "rules/RuleCache.h"

namespace autopart {

RuleCache::RuleCache(const Module &m, const RuleOptions &options, Diagnostics *diags)
    : m_(m), options_(options), diags_(diags) {
  ignoredAttrs_[0] = m.names.find("sdy.sharding");
  ignoredAttrs_[1] = m.names.find("mhlo.sharding");
}

size_t RuleCache::KeyHash::operator()(const std::vector<uint32_t> &k) const {
  // FNV-1a over the words.
  uint64_t h = 1469598103934665603ull;
  for (uint32_t w : k) {
    h ^= w;
    h *= 1099511628211ull;
  }
  return size_t(h);
}

bool RuleCache::cacheable(OpId op) const {
  return !opInfo(m_, op).ruleReadsContext;
}

void RuleCache::buildKey(OpId op) {
  key_.clear();
  key_.push_back(m_.ops[op].name);
  key_.push_back(m_.numOperands(op));
  for (ValueId v : m_.operands(op)) key_.push_back(m_.type(v));
  key_.push_back(m_.numResults(op));
  for (uint32_t i = 0; i < m_.numResults(op); ++i) key_.push_back(m_.type(m_.result(op, i)));
  for (const NamedAttr &a : m_.attributes(op)) {
    if (a.name == ignoredAttrs_[0] || a.name == ignoredAttrs_[1]) continue;
    key_.push_back(a.name);
    key_.push_back(a.value);
  }
}

const OpShardingRule *RuleCache::get(OpId op) {
  if (!cacheable(op)) {
    uncached_ = getOpShardingRule(m_, op, options_, diags_);
    return uncached_ ? &*uncached_ : nullptr;
  }
  buildKey(op);
  auto it = index_.find(key_);
  if (it != index_.end()) {
    ++hits_;
    const std::optional<OpShardingRule> &r = rules_[it->second];
    return r ? &*r : nullptr;
  }
  ++misses_;
  rules_.push_back(getOpShardingRule(m_, op, options_, diags_));
  index_.emplace(key_, rules_.size() - 1);
  return rules_.back() ? &*rules_.back() : nullptr;
}

}  // namespace autopart
