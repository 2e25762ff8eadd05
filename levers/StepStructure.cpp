#include "levers/StepStructure.h"

#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>

#include "analysis/ArgumentRoles.h"
#include "analysis/CarriedState.h"

namespace autopart {

std::vector<ValueId> dataArguments(const Module &m, OpId func) {
  FuncView f{m, func};
  std::vector<ArgumentInfo> info = classifyArguments(m, func);
  std::vector<ValueId> out;
  for (size_t i = 0; i < f.args().size() && i < info.size(); ++i)
    if (info[i].role == ArgRole::Data) out.push_back(f.args()[i]);
  return out;
}

StepStructure analyzeStep(const Module &m, OpId func, BlockId block, const std::vector<ValueId> &dataRoots) {
  StepStructure s;
  s.block = block;
  s.ops = m.blocks[block].ops;
  s.dataDependent.assign(m.values.size(), false);
  for (ValueId v : dataRoots) s.dataDependent[v] = true;
  // Program order over the whole function: an op depends on the data when
  // any value it reads, inside its regions too, does.
  s.argumentDependent.assign(m.values.size(), false);
  for (ValueId v : FuncView{m, func}.args()) s.argumentDependent[v] = true;
  auto propagate = [&](std::vector<bool> &flag) {
    m.walk(func, [&](OpId op) {
      bool dep = false;
      forEachRead(m, op, [&](ValueId v) { dep = dep || flag[v]; });
      if (!dep) return;
      for (uint32_t r = 0; r < m.numResults(op); ++r) flag[m.result(op, r)] = true;
    });
  };
  propagate(s.dataDependent);
  propagate(s.argumentDependent);

  const size_t n = s.ops.size();
  s.position.assign(m.ops.size(), kNone);
  for (size_t i = 0; i < n; ++i) s.position[s.ops[i]] = uint32_t(i);
  s.lastUse.assign(m.values.size(), kNone);
  // Uses before the boundary are forward uses; found after the boundary.
  for (size_t i = 0; i < n; ++i) forEachRead(m, s.ops[i], [&](ValueId v) { s.lastUse[v] = uint32_t(i); });
  auto bytesOf = [&](ValueId v) {
    TypeId t = m.type(v);
    return m.types.isTensor(t) && !m.types.hasDynamicDim(t) ? m.types.byteSize(t) : int64_t(0);
  };

  // The forward pass: what the step's loss (its returned values that carry
  // no state to the next step) is computed from; the backward pass and the
  // update are the rest. Through a loop (microbatching), the body's yielded
  // values stand for the loop's results.
  std::vector<char> lossReaching(m.values.size(), 0);
  {
    FuncView f{m, func};
    OpId ret = f.returnOp();
    std::vector<int64_t> carried = ret == kNone ? std::vector<int64_t>{} : carriedArguments(m, func);
    if (ret != kNone)
      for (uint32_t r = 0; r < m.numOperands(ret); ++r)
        if (r >= carried.size() || carried[r] < 0) lossReaching[m.operand(ret, r)] = 1;
    // Reverse walk over a block; loops pass their results' marks to the
    // values their body yields.
    std::function<void(BlockId)> mark = [&](BlockId b) {
      const std::vector<OpId> &ops = m.blocks[b].ops;
      for (size_t i = ops.size(); i-- > 0;) {
        OpId op = ops[i];
        bool reaches = false;
        for (uint32_t r = 0; r < m.numResults(op); ++r) reaches = reaches || lossReaching[m.result(op, r)];
        if (!reaches) continue;
        if (m.isa(op, "stablehlo.while") && m.numRegions(op) == 2) {
          for (BlockId body : m.regions[m.region(op, 1)].blocks) {
            OpId yield = m.blocks[body].ops.empty() ? kNone : m.blocks[body].ops.back();
            if (yield == kNone) continue;
            for (uint32_t r = 0; r < m.numResults(op) && r < m.numOperands(yield); ++r)
              if (lossReaching[m.result(op, r)]) {
                lossReaching[m.operand(yield, r)] = 1;
                lossReaching[m.operand(op, r)] = 1;
              }
            mark(body);
          }
          continue;
        }
        forEachRead(m, op, [&](ValueId v) { lossReaching[v] = 1; });
      }
    };
    if (ret != kNone) mark(f.entry());
  }
  std::vector<char> forward(n, 0);
  bool anyForward = false;
  for (size_t i = 0; i < n; ++i)
    for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r)
      if (lossReaching[m.result(s.ops[i], r)] && s.dataDependent[m.result(s.ops[i], r)]) forward[i] = anyForward = 1;
  if (anyForward) {
    // Data-independent ops the forward pass reads (parameter casts) are
    // forward ops too.
    for (size_t i = 0; i < n; ++i)
      for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r)
        if (lossReaching[m.result(s.ops[i], r)]) forward[i] = 1;
  } else {
    // No loss returned (a bare jax.grad): the forward pass ends where the
    // live data-dependent bytes peak, every activation kept for the gradient.
    std::vector<int64_t> delta(n + 2, 0);
    for (size_t i = 0; i < n; ++i)
      for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r) {
        ValueId v = m.result(s.ops[i], r);
        if (!s.dataDependent[v] || s.lastUse[v] == kNone || s.lastUse[v] <= i) continue;
        delta[i + 1] += bytesOf(v);
        delta[s.lastUse[v] + 1] -= bytesOf(v);
      }
    int64_t live = 0, best = 0;
    size_t peak = n;
    for (size_t i = 0; i < n; ++i) {
      live += delta[i];
      if (live > best) {
        best = live;
        peak = i;
      }
    }
    for (size_t i = 0; i < peak; ++i) forward[i] = 1;
  }
  s.boundary = n;
  for (size_t i = 0; i < n && s.boundary == n; ++i)
    if (!forward[i] && i > 0 && forward[i - 1]) s.boundary = i;
  s.forward = forward;

  // The forward ops in order (compacted), their last forward reads, and the
  // residuals: forward values a backward op reads.
  std::vector<uint32_t> fwd;
  for (size_t i = 0; i < n; ++i)
    if (forward[i]) fwd.push_back(uint32_t(i));
  if (fwd.empty()) return s;
  std::vector<uint32_t> lastForward(m.values.size(), kNone);
  std::vector<char> readByBackward(m.values.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    // Returning a forward value (the loss) is not reading it backwards.
    bool terminator = i + 1 == n && m.numResults(s.ops[i]) == 0;
    forEachRead(m, s.ops[i], [&](ValueId v) {
      if (forward[i]) lastForward[v] = uint32_t(i);
      else if (!terminator || !lossReaching[v]) readByBackward[v] = 1;
    });
  }
  for (uint32_t i : fwd)
    for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r) {
      ValueId v = m.result(s.ops[i], r);
      if (readByBackward[v]) s.residuals.push_back(v);
    }

  // Forward-live data-dependent bytes before each forward op (indices into
  // `fwd`). Values the forward pass reads across half of it or more (labels
  // prepared up front, a mask every layer reads) cross every layer boundary
  // alike; they are left out so that the boundaries stand out, and kept as
  // checkpoints.
  const size_t F = fwd.size();
  std::vector<uint32_t> compact(n, kNone);
  for (size_t k = 0; k < F; ++k) compact[fwd[k]] = uint32_t(k);
  auto lastF = [&](ValueId v) { return lastForward[v] == kNone ? kNone : compact[lastForward[v]]; };
  auto opAt = [&](size_t k) { return s.ops[fwd[k]]; };
  size_t firstDependent = F;
  for (size_t k = 0; k < F && firstDependent == F; ++k)
    for (uint32_t r = 0; r < m.numResults(opAt(k)); ++r)
      if (s.dataDependent[m.result(opAt(k), r)]) firstDependent = k;
  const size_t longSpan = std::max<size_t>(2, (F - std::min(firstDependent, F)) / 2);
  std::vector<bool> isCheckpoint(m.values.size(), false);
  std::vector<int64_t> fdelta(F + 2, 0);
  for (size_t k = 0; k < F; ++k)
    for (uint32_t r = 0; r < m.numResults(opAt(k)); ++r) {
      ValueId v = m.result(opAt(k), r);
      uint32_t last = lastF(v);
      if (!s.dataDependent[v] || last == kNone || last <= k) continue;
      if (last - k >= longSpan) {
        isCheckpoint[v] = true;
        continue;
      }
      fdelta[k + 1] += bytesOf(v);
      fdelta[last + 1] -= bytesOf(v);
    }
  std::vector<int64_t> fl(F, 0);
  int64_t acc = 0, lo = INT64_MAX;
  size_t first = F;
  for (size_t k = 0; k < F; ++k) {
    acc += fdelta[k];
    fl[k] = acc;
    if (acc > 0 && first == F) first = k;
    if (first != F && acc > 0) lo = std::min(lo, acc);
  }
  if (first == F) return s;
  // The layer boundary level: the forward-live bytes of the local minimum
  // that recurs most often (once per layer); the ramp-up before the first
  // layer dips lower only once.
  {
    std::unordered_map<int64_t, int> runs;
    for (size_t k = first; k < F; ++k) {
      bool localMin = (k == first || fl[k - 1] > fl[k]) && fl[k] > 0;
      if (!localMin) continue;
      size_t j = k;
      while (j + 1 < F && fl[j + 1] == fl[k]) ++j;
      if (j + 1 < F && fl[j + 1] < fl[k]) continue;
      ++runs[fl[k]];
    }
    int bestCount = 1;
    int64_t level = lo;
    for (const auto &[l, count] : runs)
      if (count > bestCount || (count == bestCount && count > 1 && l < level)) {
        bestCount = count;
        level = l;
      }
    lo = level;
  }
  // Points at that level, one run of equal positions each. A layer may meet
  // the level more than once (after its attention and after its MLP); the
  // points whose segments (the ops up to the next point) are alike recur once
  // per layer, and the most frequent kind, earliest on ties, is where one
  // layer hands over to the next: jax.checkpoint around each layer saves
  // exactly its input.
  std::vector<size_t> runStarts;
  for (size_t k = first; k < F; ++k)
    if (fl[k] == lo && (k == first || fl[k - 1] != lo)) runStarts.push_back(k);
  auto signature = [&](size_t p) {
    auto next = std::upper_bound(runStarts.begin(), runStarts.end(), p);
    size_t end = next == runStarts.end() ? F : *next;
    std::string sig;
    for (size_t q = p; q < std::min(end, p + 512); ++q) sig += std::string(m.opName(opAt(q))) + ";";
    return sig;
  };
  std::unordered_map<std::string, std::pair<int, size_t>> kinds;  // count, first run
  for (size_t p : runStarts) {
    auto [it, inserted] = kinds.try_emplace(signature(p), 0, p);
    ++it->second.first;
  }
  std::string chosen;
  std::pair<int, size_t> top{0, 0};
  for (const auto &[sig, stat] : kinds)
    if (stat.first > top.first || (stat.first == top.first && stat.second < top.second)) {
      top = stat;
      chosen = sig;
    }
  for (size_t k : runStarts) {
    if (signature(k) != chosen) continue;
    ++s.layerBoundaries;
    // The values live across this point: defined before it, read at or
    // after it. Found from the ops just before (a boundary is crossed by few
    // values, each defined not long before it), walking back until the
    // crossing bytes are accounted for.
    int64_t found = 0;
    for (size_t j = k; j-- > 0 && found < lo;)
      for (uint32_t r = 0; r < m.numResults(opAt(j)); ++r) {
        ValueId v = m.result(opAt(j), r);
        uint32_t last = lastF(v);
        if (!s.dataDependent[v] || last == kNone || last < k || last - j >= longSpan) continue;
        found += bytesOf(v);
        isCheckpoint[v] = true;
      }
  }
  for (size_t k = 0; k < F; ++k)
    for (uint32_t r = 0; r < m.numResults(opAt(k)); ++r)
      if (isCheckpoint[m.result(opAt(k), r)]) s.checkpoints.push_back(m.result(opAt(k), r));
  return s;
}

}  // namespace autopart
