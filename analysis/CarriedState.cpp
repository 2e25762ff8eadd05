#include "analysis/CarriedState.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "rules/OpShardingRuleRegistry.h"

namespace autopart {

namespace {

// Beyond a few ops a result is no longer "the argument, updated": an Adam
// step reaches its parameter in one op and its moments in two.
constexpr int kMaxDepth = 6;
// Values visited per result, so a result computed from the whole program
// costs a bounded walk.
constexpr size_t kMaxVisited = 512;

}  // namespace

std::vector<int64_t> carriedArguments(const Module &m, OpId func) {
  FuncView f{m, func};
  OpId ret = f.returnOp();
  std::span<const ValueId> args = f.args();
  std::vector<int64_t> carried(f.numResults(), -1);
  if (ret == kNone) return carried;
  std::vector<bool> argTaken(args.size(), false);

  for (size_t a = 0; a < args.size(); ++a) {
    AttrId alias = f.argAttr(a, "tf.aliasing_output");
    if (alias == kNoAttr || m.attrs.kind(alias) != AttrKind::Integer) continue;
    int64_t r = m.attrs.get(alias).intValue;
    if (r < 0 || size_t(r) >= carried.size() || carried[size_t(r)] >= 0) continue;
    if (m.type(args[a]) != m.type(m.operand(ret, uint32_t(r)))) continue;
    carried[size_t(r)] = int64_t(a);
    argTaken[a] = true;
  }

  std::unordered_map<ValueId, size_t> argIndex;
  for (size_t a = 0; a < args.size(); ++a) argIndex.emplace(args[a], a);
  // (depth, result, argument) for every argument a result reaches.
  std::vector<std::tuple<int, size_t, size_t>> candidates;
  std::vector<std::pair<ValueId, int>> queue;
  // Per value, the result whose walk last reached it (+1).
  std::vector<uint32_t> seenBy(m.values.size(), 0);
  size_t visited = 0;
  for (size_t r = 0; r < carried.size() && r < m.numOperands(ret); ++r) {
    if (carried[r] >= 0) continue;
    ValueId start = m.operand(ret, uint32_t(r));
    TypeId type = m.type(start);
    if (!m.types.isTensor(type)) continue;
    queue.assign(1, {start, 0});
    seenBy[start] = uint32_t(r + 1);
    visited = 1;
    for (size_t head = 0; head < queue.size(); ++head) {
      auto [v, depth] = queue[head];
      if (auto it = argIndex.find(v); it != argIndex.end()) {
        candidates.emplace_back(depth, r, it->second);
        continue;
      }
      OpId def = m.definingOp(v);
      if (def == kNone || depth >= kMaxDepth) continue;
      // Only through operands laid out as the result (elementwise, in the
      // registry's terms): a matmul's output is not its input, updated.
      std::optional<OpShardingRule> rule = getOpShardingRule(m, def);
      uint32_t resultIndex = 0;
      while (resultIndex < m.numResults(def) && m.result(def, resultIndex) != v) ++resultIndex;
      if (!rule || rule->operands.size() != m.numOperands(def) || resultIndex >= rule->results.size()) continue;
      for (uint32_t j = 0; j < m.numOperands(def); ++j) {
        ValueId u = m.operand(def, j);
        if (rule->operands[j] != rule->results[resultIndex]) continue;
        if (m.type(u) != type || visited >= kMaxVisited || seenBy[u] == r + 1) continue;
        seenBy[u] = uint32_t(r + 1);
        ++visited;
        queue.emplace_back(u, depth + 1);
      }
    }
  }
  std::sort(candidates.begin(), candidates.end());
  for (auto [depth, r, a] : candidates) {
    if (carried[r] >= 0 || argTaken[a]) continue;
    carried[r] = int64_t(a);
    argTaken[a] = true;
  }
  return carried;
}

}  // namespace autopart
