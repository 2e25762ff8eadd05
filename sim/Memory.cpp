#include "sim/Memory.h"

#include <algorithm>

#include "analysis/ArgumentRoles.h"
#include "sim/LocalSize.h"

namespace autopart {

namespace {

class Liveness {
public:
  Liveness(const Module &m, const ShardingMap &s, const std::function<int64_t(OpId)> &t)
      : m_(m), shardings_(s), transient_(t), iota_(m.names.find("stablehlo.iota")),
        broadcast_(m.names.find("stablehlo.broadcast_in_dim")), constant_(m.names.find("stablehlo.constant")) {}

  int64_t bytes(ValueId v) const {
    if (fusedIntoConsumers(v)) return 0;
    const TensorSharding *s = shardings_.get(v);
    return localBytes(m_.types, m_.type(v), s, s ? shardings_.mesh(*s) : nullptr);
  }

  int64_t transient(OpId op) const { return transient_ ? transient_(op) : 0; }

  // XLA never materialises an iota, a splat constant or the broadcast of a
  // scalar: instruction fusion duplicates such cheap producers into every
  // consumer (a causal mask is compared from iotas inside the kernel that
  // applies it), so they hold no buffer.
  bool fusedIntoConsumers(ValueId v) const {
    OpId def = m_.definingOp(v);
    if (def == kNone) return false;
    // (By interned name: every value of every walk asks.)
    NameId name = m_.ops[def].name;
    if (name == iota_) return true;
    if (name == broadcast_) return m_.types.rank(m_.type(m_.operand(def, 0))) == 0;
    if (name == constant_)
      return m_.types.numElements(m_.type(v)) > 1 && m_.attrs.isSplat(m_.attr(def, "value"));
    return false;
  }

  // Peak of the buffers defined inside `op`'s regions (their arguments alias
  // the op's operands and are not counted again).
  int64_t nestedPeak(OpId op) const {
    int64_t peak = 0;
    for (uint32_t r = 0; r < m_.numRegions(op); ++r)
      for (BlockId b : m_.regions[m_.region(op, r)].blocks) peak = std::max(peak, blockPeak(b, nullptr));
    return peak;
  }

  // Walks `b`; returns the peak of values defined in it and, with
  // `peakIndex`, where it is.
  int64_t blockPeak(BlockId b, size_t *peakIndex) const {
    const std::vector<OpId> &ops = m_.blocks[b].ops;
    std::vector<std::vector<ValueId>> freeAt(ops.size());
    // A reference into the shared scratch: nested blocks overwrite only
    // entries of values used inside them, which this walk has already read
    // (each value's entry is read once, when it is defined, and a region
    // cannot use a value defined after its op).
    const std::vector<size_t> &last = lastUses(b);
    int64_t live = 0, peak = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      OpId op = ops[i];
      for (uint32_t r = 0; r < m_.numResults(op); ++r) {
        ValueId v = m_.result(op, r);
        if (aliased(v)) continue;
        live += bytes(v);
        size_t end = std::max(last[v], i);
        freeAt[end].push_back(v);
      }
      int64_t now = live + transient(op) + (m_.numRegions(op) ? nestedPeak(op) : 0);
      if (now > peak) {
        peak = now;
        if (peakIndex) *peakIndex = i;
      }
      for (ValueId v : freeAt[i]) live -= bytes(v);
    }
    return peak;
  }

  // Adds to `out`, by category, what is live at the peak inside `op`'s
  // regions (in the block nestedPeak takes): the sum is nestedPeak(op).
  void nestedBreakdown(OpId op, const std::vector<MemoryCategory> &category, MemoryBreakdown &out) const {
    const std::vector<OpId> *ops = nullptr;
    BlockId best = 0;
    int64_t bestPeak = 0;
    size_t at = 0;
    for (uint32_t r = 0; r < m_.numRegions(op); ++r)
      for (BlockId b : m_.regions[m_.region(op, r)].blocks) {
        size_t index = 0;
        if (int64_t peak = blockPeak(b, &index); peak > bestPeak) {
          bestPeak = peak;
          best = b;
          at = index;
          ops = &m_.blocks[b].ops;
        }
      }
    if (!ops) return;
    // Read before recursing: nested walks overwrite the shared scratch.
    const std::vector<size_t> &last = lastUses(best);
    for (size_t j = 0; j <= at; ++j)
      for (uint32_t r = 0; r < m_.numResults((*ops)[j]); ++r) {
        ValueId v = m_.result((*ops)[j], r);
        if (!aliased(v) && std::max(last[v], j) >= at) out[size_t(category[v])] += bytes(v);
      }
    OpId inner = (*ops)[at];
    out[size_t(MemoryCategory::CollectiveBuffers)] += transient(inner);
    if (m_.numRegions(inner)) nestedBreakdown(inner, category, out);
  }

  // Index (in `b`) of the last op using each value, uses nested in regions
  // counting at the top op; indexed by ValueId. One scratch vector serves
  // every block: allocating one per block made the walk quadratic (every
  // reduce body allocated a vector the size of the program).
  const std::vector<size_t> &lastUses(BlockId b) const {
    std::vector<size_t> &last = last_;
    if (last.size() != m_.values.size()) last.assign(m_.values.size(), 0);
    const std::vector<OpId> &ops = m_.blocks[b].ops;
    // Values defined here start unused (used last where defined).
    for (OpId op : ops)
      for (uint32_t r = 0; r < m_.numResults(op); ++r) last[m_.result(op, r)] = 0;
    for (size_t i = 0; i < ops.size(); ++i) forEachRead(m_, ops[i], [&](ValueId v) { last[v] = i; });
    // Results that reuse an operand's buffer keep it alive as long as they
    // are; walked backwards so that chains (barrier of a barrier) resolve.
    if (aliased_.size() != m_.values.size()) aliased_.assign(m_.values.size(), 0);
    for (size_t i = ops.size(); i-- > 0;)
      for (uint32_t r = 0; r < m_.numResults(ops[i]); ++r) {
        ValueId v = m_.result(ops[i], r), o = aliasedOperand(ops[i], r, i, last);
        aliased_[v] = o != kNone;
        if (o != kNone) last[o] = std::max(last[o], std::max(last[v], i));
      }
    return last;
  }

  // Set by lastUses for the values of the block it was called on.
  bool aliased(ValueId v) const { return aliased_[v]; }

  // The operand whose buffer result `r` of `op` (at index `i` of its block)
  // reuses, or kNone: an optimization barrier passes its operands through;
  // a while loop updates its state in place when nothing reads the initial
  // value afterwards (XLA's while aliasing), else it copies.
  ValueId aliasedOperand(OpId op, uint32_t r, size_t i, const std::vector<size_t> &last) const {
    if (m_.isa(op, "stablehlo.optimization_barrier")) return m_.operand(op, r);
    if (!m_.isa(op, "stablehlo.while") || r >= m_.numOperands(op)) return kNone;
    ValueId o = m_.operand(op, r);
    // A splat initial value holds no buffer of its own: the loop's state is
    // a fresh one.
    if (m_.values[o].isBlockArg || last[o] != i || fusedIntoConsumers(o)) return kNone;
    return o;
  }

private:
  const Module &m_;
  const ShardingMap &shardings_;
  const std::function<int64_t(OpId)> &transient_;
  const NameId iota_, broadcast_, constant_;  // kNoName when the module has none
  mutable std::vector<size_t> last_;
  mutable std::vector<char> aliased_;
};

bool isDonated(FuncView &f, size_t i) {
  return f.argAttr(i, "tf.aliasing_output") != kNoAttr || f.argAttr(i, "jax.buffer_donor") != kNoAttr;
}

}  // namespace

MemoryReport analyzeMemory(const Module &m, OpId func, const ShardingMap &shardings,
                           const std::function<int64_t(OpId)> &transientBytes, bool describePeak) {
  MemoryReport report;
  if (func == kNone) return report;
  FuncView f{m, func};
  Liveness lv(m, shardings, transientBytes);
  BlockId b = f.entry();
  const std::vector<OpId> &ops = m.blocks[b].ops;
  std::vector<size_t> last = lv.lastUses(b);
  std::span<const ValueId> args = f.args();

  // Resident arguments are a constant floor; donated ones join the walk.
  int64_t resident = 0;
  std::vector<std::vector<ValueId>> freeAt(ops.size() + 1);
  std::vector<bool> donated(args.size());
  int64_t live = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    int64_t bytes = lv.bytes(args[i]);
    report.argumentBytes += bytes;
    donated[i] = isDonated(f, i);
    if (!donated[i]) {
      resident += bytes;
      continue;
    }
    report.donatedBytes += bytes;
    live += bytes;
    freeAt[std::min(last[args[i]], ops.size())].push_back(args[i]);
  }
  report.peakBytes = resident + live;
  size_t peakIndex = ops.size();
  if (describePeak) report.timeline.reserve(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    OpId op = ops[i];
    for (uint32_t r = 0; r < m.numResults(op); ++r) {
      ValueId v = m.result(op, r);
      if (lv.aliased(v)) continue;
      live += lv.bytes(v);
      freeAt[std::max(last[v], i)].push_back(v);
    }
    int64_t now = resident + live + lv.transient(op) + (m.numRegions(op) ? lv.nestedPeak(op) : 0);
    if (describePeak) report.timeline.push_back(now);
    if (now > report.peakBytes) {
      report.peakBytes = now;
      peakIndex = i;
    }
    for (ValueId v : freeAt[i]) live -= lv.bytes(v);
  }

  if (peakIndex < ops.size()) report.peakOp = ops[peakIndex];
  if (!describePeak) return report;
  // What is live at the peak, and by category.
  std::vector<ArgumentInfo> info = classifyArguments(m, func);
  std::vector<MemoryCategory> category = valueCategories(m, func, info);
  auto add = [&](ValueId v, int64_t bytes) { report.breakdown[size_t(category[v])] += bytes; };
  auto describeOp = [&](OpId op) { return std::string(m.opName(op)) + " at " + m.where(op); };
  for (size_t i = 0; i < args.size(); ++i) {
    if (donated[i] && peakIndex < ops.size() && last[args[i]] < peakIndex) continue;
    std::string name = i < info.size() ? info[i].name : "%arg" + std::to_string(i);
    report.liveAtPeak.push_back({"argument " + name + (donated[i] ? " (donated)" : ""), lv.bytes(args[i]), args[i], kNone});
    add(args[i], lv.bytes(args[i]));
  }
  if (peakIndex < ops.size()) {
    report.peakOp = ops[peakIndex];
    for (size_t i = 0; i <= peakIndex; ++i)
      for (uint32_t r = 0; r < m.numResults(ops[i]); ++r) {
        ValueId v = m.result(ops[i], r);
        if (lv.aliased(v) || std::max(last[v], i) < peakIndex) continue;
        report.liveAtPeak.push_back({describeOp(ops[i]), lv.bytes(v), v, ops[i]});
        add(v, lv.bytes(v));
      }
    OpId op = ops[peakIndex];
    if (int64_t t = lv.transient(op)) {
      report.liveAtPeak.push_back({"collective buffers of " + describeOp(op), t, kNone, op});
      report.breakdown[size_t(MemoryCategory::CollectiveBuffers)] += t;
    }
    if (m.numRegions(op))
      if (int64_t n = lv.nestedPeak(op)) {
        report.liveAtPeak.push_back({"inside " + describeOp(op), n, kNone, op});
        lv.nestedBreakdown(op, category, report.breakdown);
      }
  }
  std::stable_sort(report.liveAtPeak.begin(), report.liveAtPeak.end(),
                   [](const LiveBuffer &a, const LiveBuffer &b) { return a.bytes > b.bytes; });
  return report;
}

std::vector<size_t> bucketMaxima(const std::vector<int64_t> &values, size_t maxPoints) {
  std::vector<size_t> kept;
  if (maxPoints == 0) return kept;
  const size_t run = (values.size() + maxPoints - 1) / maxPoints;
  for (size_t begin = 0; begin < values.size(); begin += run) {
    size_t best = begin;
    for (size_t i = begin + 1; i < std::min(begin + run, values.size()); ++i)
      if (values[i] > values[best]) best = i;
    kept.push_back(best);
  }
  return kept;
}

}  // namespace autopart
