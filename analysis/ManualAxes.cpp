#include "analysis/ManualAxes.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "ir/ValueSharding.h"

namespace autopart {

namespace {

// Interns sorted axis-name sets; set 0 is the empty one.
class SetPool {
public:
  explicit SetPool(std::vector<std::vector<std::string>> &sets) : sets_(sets) {
    sets_.assign(1, {});
    index_.emplace(std::vector<std::string>{}, 0);
  }

  uint32_t unite(uint32_t set, const std::vector<std::string> &axes) {
    if (axes.empty()) return set;
    std::vector<std::string> merged = sets_[set];
    merged.insert(merged.end(), axes.begin(), axes.end());
    std::sort(merged.begin(), merged.end());
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    if (merged.size() == sets_[set].size()) return set;
    auto [it, inserted] = index_.try_emplace(merged, uint32_t(sets_.size()));
    if (inserted) sets_.push_back(std::move(merged));
    return it->second;
  }

private:
  std::vector<std::vector<std::string>> &sets_;
  std::map<std::vector<std::string>, uint32_t> index_;
};

// The function an op runs as part of itself: a call's callee, a
// composite's decomposition.
OpId calledFunc(const Module &m, OpId op) {
  if (m.isa(op, "func.call")) return m.lookupFunc(m.attr(op, "callee"));
  if (m.isa(op, "stablehlo.composite")) return m.lookupFunc(m.attr(op, "decomposition"));
  return kNone;
}

}  // namespace

ManualAxes::ManualAxes(const Module &m) : m_(&m), setOfBlock_(m.blocks.size(), 0) {
  SetPool pool(sets_);
  std::unordered_map<OpId, uint32_t> funcSet;
  std::vector<OpId> work = m.functions();
  std::vector<std::pair<BlockId, uint32_t>> stack;
  std::vector<std::string> none;
  while (!work.empty()) {
    OpId func = work.back();
    work.pop_back();
    uint32_t outer = funcSet[func];
    for (uint32_t r = 0; r < m.numRegions(func); ++r)
      for (BlockId b : m.regions[m.region(func, r)].blocks) stack.push_back({b, outer});
    while (!stack.empty()) {
      auto [block, set] = stack.back();
      stack.pop_back();
      setOfBlock_[block] = set;
      for (OpId op : m.blocks[block].ops) {
        if (OpId callee = calledFunc(m, op); callee != kNone && set != 0) {
          uint32_t &calleeSet = funcSet[callee];
          uint32_t grown = pool.unite(calleeSet, sets_[set]);
          if (grown != calleeSet) {
            // A set only grows, so a callee is walked again at most once
            // per mesh axis.
            calleeSet = grown;
            work.push_back(callee);
          }
        }
        if (m.numRegions(op) == 0) continue;
        uint32_t inner = m.isa(op, "sdy.manual_computation") ? pool.unite(set, manualAxesOf(m, op)) : set;
        for (uint32_t r = 0; r < m.numRegions(op); ++r)
          for (BlockId b : m.regions[m.region(op, r)].blocks) stack.push_back({b, inner});
      }
    }
  }
}

std::span<const std::string> ManualAxes::ofBlock(BlockId block) const {
  if (block >= setOfBlock_.size()) return {};
  return sets_[setOfBlock_[block]];
}

std::span<const std::string> ManualAxes::ofOp(OpId op) const {
  if (!m_ || op >= m_->ops.size()) return {};
  return ofBlock(m_->ops[op].parent);
}

std::span<const std::string> ManualAxes::of(ValueId v) const {
  if (none() || v >= m_->values.size()) return {};
  const ValueInfo &info = m_->values[v];
  return info.isBlockArg ? ofBlock(info.owner) : ofOp(info.owner);
}

bool ManualAxes::binds(ValueId v, std::string_view axis) const {
  for (const std::string &a : of(v))
    if (a == axis) return true;
  return false;
}

bool ManualAxes::conflicts(ValueId v, const TensorSharding &s) const {
  std::span<const std::string> bound = of(v);
  if (bound.empty()) return false;
  auto named = [&](const AxisRef &a) { return std::find(bound.begin(), bound.end(), a.name) != bound.end(); };
  for (const DimSharding &d : s.dims)
    if (std::any_of(d.axes.begin(), d.axes.end(), named)) return true;
  return std::any_of(s.replicated.begin(), s.replicated.end(), named) ||
         std::any_of(s.unreduced.begin(), s.unreduced.end(), named);
}

}  // namespace autopart
