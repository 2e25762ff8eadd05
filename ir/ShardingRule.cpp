#include "ir/ShardingRule.h"

#include <algorithm>

namespace autopart {

static bool contains(const std::vector<int32_t> &v, int32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

FactorKind OpShardingRule::kind(int32_t factor) const {
  if (contains(reductionFactors, factor)) return FactorKind::Reduction;
  if (contains(needReplicationFactors, factor)) return FactorKind::NeedReplication;
  if (contains(permutationFactors, factor)) return FactorKind::Permutation;
  return FactorKind::PassThrough;
}

bool OpShardingRule::isBlocked(int32_t factor) const {
  return contains(blockedPropagationFactors, factor);
}

std::string OpShardingRule::factorName(size_t index) {
  constexpr size_t kLetters = 'z' - 'i' + 1;
  if (index < kLetters) return std::string(1, char('i' + index));
  return "z_" + std::to_string(index - kLetters + 1);
}

static void appendTensors(std::string &s,
                          const std::vector<OpShardingRule::TensorFactors> &ts) {
  s += '(';
  for (size_t t = 0; t < ts.size(); ++t) {
    if (t) s += ", ";
    s += '[';
    for (size_t d = 0; d < ts[t].size(); ++d) {
      if (d) s += ", ";
      for (int32_t f : ts[t][d]) s += OpShardingRule::factorName(size_t(f));
    }
    s += ']';
  }
  s += ')';
}

static void appendFactorSet(std::string &s, const char *key, std::vector<int32_t> fs) {
  if (fs.empty()) return;
  std::sort(fs.begin(), fs.end());
  s += ' ';
  s += key;
  s += "={";
  for (size_t i = 0; i < fs.size(); ++i) {
    if (i) s += ", ";
    s += OpShardingRule::factorName(size_t(fs[i]));
  }
  s += '}';
}

std::string OpShardingRule::str() const {
  std::string s = "#sdy.op_sharding_rule<";
  appendTensors(s, operands);
  s += "->";
  appendTensors(s, results);
  if (!factorSizes.empty()) {
    s += " {";
    for (size_t f = 0; f < factorSizes.size(); ++f) {
      if (f) s += ", ";
      s += factorName(f) + '=' + std::to_string(factorSizes[f]);
    }
    s += '}';
  }
  appendFactorSet(s, "reduction", reductionFactors);
  appendFactorSet(s, "need_replication", needReplicationFactors);
  appendFactorSet(s, "permutation", permutationFactors);
  appendFactorSet(s, "blocked_propagation", blockedPropagationFactors);
  if (isCustom) s += ", custom";
  return s + '>';
}

}  // namespace autopart
