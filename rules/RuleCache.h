// A memo of the rule registry for whole-program passes. Real programs repeat
// a handful of op shapes thousands of times (every layer of a transformer,
// every step of an unrolled loop), and building a rule allocates a vector per
// dimension, so the analysis of a 100k-op program spent most of its time
// rebuilding identical rules. Ops are keyed by what their rule can depend on:
// the op name, operand and result types, and attributes (interned, so ids
// compare by value), minus the shardings that annotate the op. Ops whose rule
// also looks at their neighbours or body (concatenate: are the operands
// slices? dynamic_update_slice: are the indices constant? custom_call:
// X64Combine feeding a rng_bit_generator; scatter: is the update computation
// all-reducible?) are not memoized.
//
//   RuleCache rules(m, options, &diags);
//   for (OpId op : ops)
//     if (const OpShardingRule *r = rules.get(op)) ...   // nullptr: no rule
//
// Pointers to memoized rules stay valid for the cache's lifetime; the rule of
// an op that is not memoized is valid until the next `get`.
#pragma once

#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include "rules/OpShardingRuleRegistry.h"

namespace autopart {

class RuleCache {
public:
  RuleCache(const Module &m, const RuleOptions &options = {}, Diagnostics *diags = nullptr);

  const OpShardingRule *get(OpId op);

  // Whether `op`'s rule is shared with every op of the same key (pointer
  // equality of two memoized rules then means equal keys).
  bool isMemoized(OpId op) const { return cacheable(op); }

  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

private:
  struct KeyHash {
    size_t operator()(const std::vector<uint32_t> &k) const;
  };
  bool cacheable(OpId op) const;
  void buildKey(OpId op);

  const Module &m_;
  RuleOptions options_;
  Diagnostics *diags_;
  NameId ignoredAttrs_[2];  // sdy.sharding, mhlo.sharding: no effect on rules
  std::vector<uint32_t> key_;       // reused buffer
  std::unordered_map<std::vector<uint32_t>, size_t, KeyHash> index_;
  std::deque<std::optional<OpShardingRule>> rules_;  // stable addresses
  std::optional<OpShardingRule> uncached_;
  size_t hits_ = 0, misses_ = 0;
};

}  // namespace autopart
