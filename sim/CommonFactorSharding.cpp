#include "sim/CommonFactorSharding.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace autopart {

namespace {

const OpShardingRule::TensorFactors &mappingOf(const OpShardingRule &rule, size_t t) {
  return t < rule.operands.size() ? rule.operands[t] : rule.results[t - rule.operands.size()];
}

bool isNonScalar(const OpShardingRule &rule, size_t t) { return !mappingOf(rule, t).empty(); }

int64_t precedence(FactorKind kind) {
  switch (kind) {
  case FactorKind::PassThrough: return 3;
  case FactorKind::Reduction: return 2;
  case FactorKind::Permutation: return 1;
  case FactorKind::NeedReplication: return 0;
  }
  return 0;
}

struct Candidate {
  int32_t factor = -1;
  AxisList axes;
  int64_t totalSource = 0;   // global elements of the tensors proposing it
  int64_t precedence = 0;
  int64_t largestLocal = 0;  // largest local size of a tensor with the factor
  int64_t shardingSize = 0;  // what it adds beyond the factor's assignment
};

bool candidateLess(const Candidate &a, const Candidate &b, const Mesh &mesh) {
  auto key = [](const Candidate &c) {
    return std::make_tuple(c.totalSource, c.precedence, c.largestLocal, c.shardingSize, c.factor);
  };
  if (key(a) != key(b)) return key(a) < key(b);
  return axisListLess(a.axes, b.axes, mesh);
}

AxesPerFactor commonAxesOnUnary(const std::vector<TensorFactorShardings> &tensors,
                                const OpShardingRule &rule,
                                const std::vector<int64_t> &tensorSizes, const Mesh &mesh) {
  std::vector<size_t> nonScalar;
  for (size_t t = 0; t < tensors.size(); ++t)
    if (isNonScalar(rule, t)) nonScalar.push_back(t);
  auto preference = [&](size_t t) {
    bool shardedPermutation = false;
    for (size_t f = 0; f < rule.numFactors(); ++f)
      if (tensors[t].has(f) && rule.kind(int32_t(f)) == FactorKind::Permutation &&
          !tensors[t].factors[f].axes.empty())
        shardedPermutation = true;
    return std::make_tuple(!shardedPermutation, tensorSizes[t], tensors[t].shardingSize(mesh));
  };
  size_t preferred = nonScalar[0], other = nonScalar[1];
  if (preference(preferred) < preference(other)) std::swap(preferred, other);

  AxesPerFactor axes(rule.numFactors());
  AxisList used;
  for (size_t f = 0; f < rule.numFactors(); ++f) {
    if (!tensors[preferred].has(f)) continue;
    axes[f] = tensors[preferred].factors[f].axes;
    used.insert(used.end(), axes[f].begin(), axes[f].end());
  }
  for (size_t f = 0; f < rule.numFactors(); ++f) {
    if (!tensors[other].has(f) || tensors[preferred].has(f)) continue;
    axes[f] = tensors[other].factors[f].axes;
    truncateWithoutOverlap(axes[f], used, mesh);
  }
  return axes;
}

AxesPerFactor commonAxesHeuristic(const std::vector<TensorFactorShardings> &tensors,
                                  const OpShardingRule &rule,
                                  const std::vector<int64_t> &tensorSizes, const Mesh &mesh) {
  size_t numFactors = rule.numFactors();
  std::vector<Candidate> candidates;
  for (size_t t = 0; t < tensors.size(); ++t) {
    for (size_t f = 0; f < numFactors; ++f) {
      if (!tensors[t].has(f)) continue;
      AxisList axes = tensors[t].factors[f].axes;
      for (; !axes.empty(); axes.pop_back()) {
        auto it = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate &c) {
          return c.factor == int32_t(f) && c.axes == axes;
        });
        if (it != candidates.end()) {
          it->totalSource += tensorSizes[t];
          it->largestLocal = std::max(it->largestLocal, tensorSizes[t]);
          continue;
        }
        candidates.push_back({int32_t(f), axes, tensorSizes[t], precedence(rule.kind(int32_t(f))),
                              tensorSizes[t], axesSize(axes, mesh)});
      }
    }
  }

  // A factor that follows another in some dimension may only be sharded once
  // that one is fully sharded; anything else would be a strided layout.
  std::vector<std::vector<int32_t>> dependsOn(numFactors);
  for (size_t t = 0; t < tensors.size(); ++t)
    for (const OpShardingRule::DimFactors &dim : mappingOf(rule, t))
      for (size_t k = 1; k < dim.size(); ++k) dependsOn[size_t(dim[k])].push_back(dim[k - 1]);

  AxesPerFactor assigned(numFactors);
  while (true) {
    const Candidate *best = nullptr;
    for (const Candidate &c : candidates) {
      if (!dependsOn[size_t(c.factor)].empty()) continue;
      if (!best || candidateLess(*best, c, mesh)) best = &c;
    }
    if (!best) break;
    int32_t factor = best->factor;
    AxisList picked = best->axes;
    assigned[size_t(factor)] = picked;
    if (axesSize(picked, mesh) == rule.factorSizes[size_t(factor)])
      for (std::vector<int32_t> &deps : dependsOn) std::erase(deps, factor);

    for (size_t i = 0; i < candidates.size();) {
      Candidate &c = candidates[i];
      const AxisList &current = assigned[size_t(c.factor)];
      bool drop = false;
      if (c.factor == factor) {
        drop = !isStrictPrefix(picked, c.axes, mesh);
        if (!drop) c.shardingSize = axesSize(c.axes, mesh) / axesSize(picked, mesh);
      } else if (truncateWithoutOverlap(c.axes, picked, mesh)) {
        drop = c.axes == current || c.axes.empty();
        if (!drop) c.shardingSize = axesSize(c.axes, mesh) / axesSize(current, mesh);
      } else {
        c.shardingSize = axesSize(c.axes, mesh);
      }
      if (drop) {
        candidates[i] = std::move(candidates.back());
        candidates.pop_back();
      } else {
        ++i;
      }
    }

    for (Candidate &c : candidates) c.largestLocal = 0;
    for (size_t t = 0; t < tensors.size(); ++t) {
      int64_t local = tensorSizes[t];
      for (size_t f = 0; f < numFactors; ++f)
        if (tensors[t].has(f)) local /= axesSize(assigned[f], mesh);
      for (Candidate &c : candidates)
        if (tensors[t].has(size_t(c.factor))) c.largestLocal = std::max(c.largestLocal, local);
    }
  }
  return assigned;
}

bool inAllNonScalarTensors(const std::vector<TensorFactorShardings> &tensors,
                           const OpShardingRule &rule, size_t f) {
  for (size_t t = 0; t < tensors.size(); ++t)
    if (isNonScalar(rule, t) && !tensors[t].has(f)) return false;
  return true;
}

// The axes the heuristic gave a factor that must stay replicated go to the
// batching factors (pass-through factors in every non-scalar tensor) instead,
// major batching factor first, while each axis divides what is left of the
// factor: the op then still runs on as many devices. Axes that fit nowhere
// are dropped (the op runs replicated over them).
void distributeToBatchingFactors(AxisList axes, const std::vector<TensorFactorShardings> &tensors,
                                 const OpShardingRule &rule, const Mesh &mesh,
                                 AxesPerFactor &assigned) {
  for (size_t f = 0; f < rule.numFactors() && !axes.empty(); ++f) {
    if (rule.kind(int32_t(f)) != FactorKind::PassThrough || !inAllNonScalarTensors(tensors, rule, f))
      continue;
    int64_t size = rule.factorSizes[f];
    int64_t sharded = axesSize(assigned[f], mesh);
    if (size == 0 || size % sharded != 0) continue;
    int64_t capacity = size / sharded;
    size_t used = 0;
    for (; used < axes.size(); ++used) {
      int64_t axisSize = axesSize({axes[used]}, mesh);
      if (capacity % axisSize != 0) break;
      appendOrMerge(assigned[f], axes[used], mesh);
      capacity /= axisSize;
    }
    axes.erase(axes.begin(), axes.begin() + std::ptrdiff_t(used));
  }
}

// Product of the sizes of every factor's axes, overflow axes included.
int64_t shardingSizeWithOverflow(const TensorFactorShardings &t, const Mesh &mesh) {
  int64_t n = 1;
  for (const FactorSharding &f : t.factors)
    if (f.present) n *= axesSize(f.axes, mesh) * axesSize(f.overflow, mesh);
  return n;
}

// What is left of the (sub-)axis being dealt out.
struct Piece {
  std::string name;
  int64_t pre = 1, size = 1;
};

std::optional<Piece> pieceAt(const AxisList &axes, size_t i, const Mesh &mesh) {
  if (i >= axes.size()) return std::nullopt;
  return Piece{axes[i].name, axisStart(axes[i]), axes[i].size(mesh)};
}

// Deals `axes` out to the factors of `mapping` (see reshapeOverflowAxes). A
// factor takes a piece only when they share a divisor > 1, so its local
// block stays contiguous; a factor whose size is used up takes nothing more.
TensorFactorShardings dealAxes(const AxisList &axes, const OpShardingRule::TensorFactors &mapping,
                               const OpShardingRule &rule, const Mesh &mesh) {
  TensorFactorShardings tfs;
  tfs.factors.resize(rule.numFactors());
  std::vector<int32_t> order;
  for (const OpShardingRule::DimFactors &dim : mapping)
    for (size_t k = 0; k < dim.size(); ++k) {
      order.push_back(dim[k]);
      tfs.factors[size_t(dim[k])].present = true;
      tfs.factors[size_t(dim[k])].isMinorMost = k + 1 == dim.size();
    }
  std::vector<int64_t> left(order.size());
  for (size_t i = 0; i < order.size(); ++i) left[i] = rule.factorSizes[size_t(order[i])];

  size_t next = 0;
  std::optional<Piece> piece = pieceAt(axes, next, mesh);
  while (piece) {
    bool taken = false;
    for (size_t i = 0; i < order.size(); ++i) {
      if (left[i] <= 1) continue;
      int64_t g = std::gcd(left[i], piece->size);
      if (g == 1 && piece->size != 1) continue;
      taken = true;
      AxisList &dst = tfs.factors[size_t(order[i])].axes;
      if (piece->size > g) {
        appendOrMerge(dst, makeAxis(piece->name, piece->pre, g, mesh), mesh);
        piece->pre *= g;
        piece->size /= g;
        left[i] /= g;
        continue;
      }
      appendOrMerge(dst, makeAxis(piece->name, piece->pre, piece->size, mesh), mesh);
      left[i] /= piece->size;
      piece = pieceAt(axes, ++next, mesh);
      break;
    }
    if (taken) continue;
    // No factor can take this piece: it and every later axis are overflow of
    // the last factor (a tensor without factors simply drops them).
    if (!order.empty()) {
      AxisList &overflow = tfs.factors[size_t(order.back())].overflow;
      for (; piece; piece = pieceAt(axes, ++next, mesh))
        appendOrMerge(overflow, makeAxis(piece->name, piece->pre, piece->size, mesh), mesh);
    }
    break;
  }
  return tfs;
}

// The longest list both start with; where they first differ, the shorter of
// two (sub-)axes that start together.
AxisList greatestCommonPrefix(const AxisList &a, const AxisList &b, const Mesh &mesh) {
  AxisList out;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) {
      out.push_back(a[i]);
      continue;
    }
    if (axisPrefixOf(a[i], b[i], mesh)) out.push_back(a[i]);
    else if (axisPrefixOf(b[i], a[i], mesh)) out.push_back(b[i]);
    break;
  }
  return out;
}

}  // namespace

AxesPerFactor reshapeOverflowAxes(const std::vector<TensorFactorShardings> &tensors,
                                  const OpShardingRule &rule, const Mesh &mesh) {
  // The operand wins ties.
  const TensorFactorShardings &best =
      shardingSizeWithOverflow(tensors[0], mesh) >= shardingSizeWithOverflow(tensors[1], mesh)
          ? tensors[0]
          : tensors[1];
  AxisList all;
  for (const FactorSharding &f : best.factors) {
    if (!f.present) continue;
    all.insert(all.end(), f.axes.begin(), f.axes.end());
    all.insert(all.end(), f.overflow.begin(), f.overflow.end());
  }

  AxesPerFactor common(rule.numFactors());
  std::vector<bool> seen(rule.numFactors());
  for (const OpShardingRule::TensorFactors *mapping : {&rule.operands[0], &rule.results[0]}) {
    // Laid out and projected again, a side keeps only what its dimensions
    // can show: a dimension stops at a factor that is not fully sharded.
    TensorSharding laid = toTensorSharding(dealAxes(all, *mapping, rule, mesh), *mapping, rule, "", mesh);
    TensorFactorShardings again = projectTensor(&laid, *mapping, rule, mesh);
    for (size_t f = 0; f < rule.numFactors(); ++f) {
      if (!again.has(f)) continue;
      common[f] = seen[f] ? greatestCommonPrefix(common[f], again.factors[f].axes, mesh) : again.factors[f].axes;
      seen[f] = true;
    }
  }
  return common;
}

std::optional<AxesPerFactor> compatibleFactorShardings(
    const std::vector<TensorFactorShardings> &tensors, const OpShardingRule &rule,
    size_t numOperands, const Mesh &mesh) {
  AxesPerFactor common(rule.numFactors());
  std::vector<bool> seen(rule.numFactors());
  for (const TensorFactorShardings &t : tensors) {
    for (size_t f = 0; f < rule.numFactors(); ++f) {
      if (!t.has(f)) continue;
      const FactorSharding &fs = t.factors[f];
      if (!fs.overflow.empty()) return std::nullopt;
      if (rule.kind(int32_t(f)) == FactorKind::NeedReplication) {
        if (!fs.axes.empty()) return std::nullopt;
        continue;
      }
      if (!seen[f]) {
        common[f] = fs.axes;
        seen[f] = true;
      } else if (fs.axes != common[f]) {
        return std::nullopt;
      }
    }
  }
  // One axis cannot shard two factors of the iteration space, even when no
  // single tensor holds both (reshape 1x4 [{"x"}, {}] -> 4x1 [{}, {"x"}]).
  for (size_t f = 0; f < rule.numFactors(); ++f)
    for (size_t g = f + 1; g < rule.numFactors(); ++g)
      if (axisListsOverlap(common[f], common[g], mesh)) return std::nullopt;
  for (int32_t f : rule.reductionFactors)
    for (size_t t = numOperands; t < tensors.size(); ++t)
      for (size_t g = 0; g < rule.numFactors(); ++g)
        if (tensors[t].has(g) && axisListsOverlap(common[size_t(f)], tensors[t].factors[g].axes, mesh))
          return std::nullopt;
  return common;
}

AxesPerFactor findCommonAxes(const std::vector<TensorFactorShardings> &tensors,
                             const OpShardingRule &rule, size_t numOperands,
                             const std::vector<int64_t> &tensorSizes, const Mesh &mesh) {
  (void)numOperands;
  size_t nonScalar = 0;
  bool multiFactorDims = false;
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (isNonScalar(rule, t)) ++nonScalar;
    for (const OpShardingRule::DimFactors &dim : mappingOf(rule, t)) multiFactorDims |= dim.size() > 1;
  }
  if (nonScalar == 2 && rule.needReplicationFactors.empty() && !multiFactorDims)
    return commonAxesOnUnary(tensors, rule, tensorSizes, mesh);
  AxesPerFactor assigned = commonAxesHeuristic(tensors, rule, tensorSizes, mesh);
  // A need-replication factor competes for axes like any other (so the axes
  // it holds are not handed to other factors), then gives them away.
  for (int32_t f : rule.needReplicationFactors) {
    AxisList axes = std::move(assigned[size_t(f)]);
    assigned[size_t(f)].clear();
    if (!axes.empty() && inAllNonScalarTensors(tensors, rule, size_t(f)))
      distributeToBatchingFactors(std::move(axes), tensors, rule, mesh, assigned);
  }
  return assigned;
}

}  // namespace autopart
