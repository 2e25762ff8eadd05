#include "levers/StepStructure.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "analysis/ArgumentRoles.h"

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
  m.walk(func, [&](OpId op) {
    bool dep = false;
    for (ValueId v : m.operands(op)) dep = dep || s.dataDependent[v];
    if (!dep && m.numRegions(op))
      m.walk(op, [&](OpId inner) {
        for (ValueId v : m.operands(inner)) dep = dep || s.dataDependent[v];
      });
    if (!dep) return;
    for (uint32_t r = 0; r < m.numResults(op); ++r) s.dataDependent[m.result(op, r)] = true;
  });

  const size_t n = s.ops.size();
  s.position.assign(m.ops.size(), kNone);
  for (size_t i = 0; i < n; ++i) s.position[s.ops[i]] = uint32_t(i);
  s.lastUse.assign(m.values.size(), kNone);
  // Uses before the boundary are forward uses; found after the boundary.
  for (size_t i = 0; i < n; ++i) {
    auto note = [&](ValueId v) { s.lastUse[v] = uint32_t(i); };
    for (ValueId v : m.operands(s.ops[i])) note(v);
    if (m.numRegions(s.ops[i]))
      m.walk(s.ops[i], [&](OpId inner) {
        for (ValueId v : m.operands(inner)) note(v);
      });
  }
  auto bytesOf = [&](ValueId v) {
    TypeId t = m.type(v);
    return m.types.isTensor(t) && !m.types.hasDynamicDim(t) ? m.types.byteSize(t) : int64_t(0);
  };

  // Live data-dependent bytes just before each op: a difference array.
  std::vector<int64_t> delta(n + 2, 0);
  for (size_t i = 0; i < n; ++i)
    for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r) {
      ValueId v = m.result(s.ops[i], r);
      if (!s.dataDependent[v] || s.lastUse[v] == kNone || s.lastUse[v] <= i) continue;
      delta[i + 1] += bytesOf(v);
      delta[s.lastUse[v] + 1] -= bytesOf(v);
    }
  int64_t live = 0, best = -1;
  s.boundary = n;
  for (size_t i = 0; i <= n; ++i) {
    live += delta[i];
    if (i < n && live > best) {
      best = live;
      s.boundary = i;
    }
  }
  if (best <= 0) {
    s.boundary = n;
    return s;
  }

  // Residuals, and the last *forward* use of every forward value.
  std::vector<uint32_t> lastForward(m.values.size(), kNone);
  for (size_t i = 0; i < s.boundary; ++i) {
    auto note = [&](ValueId v) { lastForward[v] = uint32_t(i); };
    for (ValueId v : m.operands(s.ops[i])) note(v);
    if (m.numRegions(s.ops[i]))
      m.walk(s.ops[i], [&](OpId inner) {
        for (ValueId v : m.operands(inner)) note(v);
      });
  }
  for (size_t i = 0; i < s.boundary; ++i)
    for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r) {
      ValueId v = m.result(s.ops[i], r);
      if (s.lastUse[v] != kNone && s.lastUse[v] >= s.boundary) s.residuals.push_back(v);
    }

  // Forward-live data-dependent bytes before each forward op. Values the
  // forward pass reads across half of it or more (labels prepared up
  // front, a mask every layer reads) cross every layer boundary alike; they
  // are left out so that the boundaries stand out, and kept as checkpoints.
  size_t firstDependent = s.boundary;
  for (size_t i = 0; i < s.boundary && firstDependent == s.boundary; ++i)
    for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r)
      if (s.dataDependent[m.result(s.ops[i], r)]) firstDependent = i;
  const size_t longSpan = std::max<size_t>(2, (s.boundary - std::min(firstDependent, s.boundary)) / 2);
  std::vector<bool> isCheckpoint(m.values.size(), false);
  std::vector<int64_t> fdelta(s.boundary + 2, 0);
  for (size_t i = 0; i < s.boundary; ++i)
    for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r) {
      ValueId v = m.result(s.ops[i], r);
      if (!s.dataDependent[v] || lastForward[v] == kNone || lastForward[v] <= i) continue;
      if (lastForward[v] - i >= longSpan) {
        isCheckpoint[v] = true;
        continue;
      }
      fdelta[i + 1] += bytesOf(v);
      fdelta[lastForward[v] + 1] -= bytesOf(v);
    }
  std::vector<int64_t> fl(s.boundary, 0);
  int64_t acc = 0, lo = INT64_MAX;
  size_t first = s.boundary;
  for (size_t i = 0; i < s.boundary; ++i) {
    acc += fdelta[i];
    fl[i] = acc;
    if (acc > 0 && first == s.boundary) first = i;
    if (first != s.boundary && acc > 0) lo = std::min(lo, acc);
  }
  if (first == s.boundary) return s;
  // The layer boundary level: the forward-live bytes of the local minimum
  // that recurs most often (once per layer); the ramp-up before the first
  // layer dips lower only once.
  {
    std::unordered_map<int64_t, int> runs;
    for (size_t i = first; i < s.boundary; ++i) {
      bool localMin = (i == first || fl[i - 1] > fl[i]) && fl[i] > 0;
      if (!localMin) continue;
      size_t j = i;
      while (j + 1 < s.boundary && fl[j + 1] == fl[i]) ++j;
      if (j + 1 < s.boundary && fl[j + 1] < fl[i]) continue;
      ++runs[fl[i]];
    }
    int bestCount = 1;
    for (const auto &[level, count] : runs)
      if (count > bestCount || (count == bestCount && count > 1 && level < lo)) {
        bestCount = count;
        lo = level;
      }
  }
  // Points at that level, one run of equal positions each. A layer may meet
  // the level more than once (after its attention and after its MLP); the
  // points where the same ops follow recur once per layer, and the most
  // frequent such kind, earliest on ties, is where one layer hands over to
  // the next: jax.checkpoint around each layer saves exactly its input.
  std::vector<size_t> runStarts;
  for (size_t i = first; i < s.boundary; ++i)
    if (fl[i] == lo && (i == first || fl[i - 1] != lo)) runStarts.push_back(i);
  // A point's kind: the ops from it to the next point (its segment).
  auto signature = [&](size_t p) {
    auto next = std::upper_bound(runStarts.begin(), runStarts.end(), p);
    size_t end = next == runStarts.end() ? s.boundary : *next;
    std::string sig;
    for (size_t q = p; q < std::min(end, p + 512); ++q) sig += std::string(m.opName(s.ops[q])) + ";";
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
  for (size_t i : runStarts) {
    if (signature(i) != chosen) continue;
    ++s.layerBoundaries;
    // The values live across this point: defined before i, read at or after.
    // Found from the ops just before i (a boundary is crossed by few values,
    // each defined not long before it), so walk back until the crossing
    // bytes are accounted for.
    int64_t found = 0;
    for (size_t j = i; j-- > 0 && found < lo;) {
      for (uint32_t r = 0; r < m.numResults(s.ops[j]); ++r) {
        ValueId v = m.result(s.ops[j], r);
        if (!s.dataDependent[v] || lastForward[v] == kNone || lastForward[v] < i || lastForward[v] - j >= longSpan)
          continue;
        found += bytesOf(v);
        isCheckpoint[v] = true;
      }
    }
  }
  for (size_t i = 0; i < s.boundary; ++i)
    for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r)
      if (isCheckpoint[m.result(s.ops[i], r)]) s.checkpoints.push_back(m.result(s.ops[i], r));
  return s;
}

}  // namespace autopart
