#include "analysis/NamedDimensions.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "rules/RuleCache.h"
#include "support/UnionFind.h"

namespace autopart {

namespace {

int64_t rankOf(const Module &m, ValueId v) {
  TypeId t = m.type(v);
  return m.types.isTensor(t) ? m.types.rank(t) : 0;
}

// The terminator of a region's only block.
OpId regionReturn(const Module &m, RegionId r) {
  const Region &reg = m.regions[r];
  if (reg.blocks.empty() || m.blocks[reg.blocks.back()].ops.empty()) return kNone;
  return m.blocks[reg.blocks.back()].ops.back();
}

// Ties the values a data-flow op passes through unchanged (its operands,
// block arguments, returned values and results), as Shardy's data-flow
// edges do: `tie(a, b)` for each pair that must share a sharding.
template <class Tie>
void forEachDataFlowTie(const Module &m, OpId op, DataFlow flow, Tie &&tie) {
  if (flow == DataFlow::Call) {
    OpId f = m.lookupFunc(m.attr(op, "callee"));
    if (f == kNone) return;
    FuncView fv{m, f};
    std::span<const ValueId> args = fv.args();
    for (size_t i = 0; i < args.size() && i < m.numOperands(op); ++i) tie(m.operand(op, uint32_t(i)), args[i]);
    OpId ret = fv.returnOp();
    if (ret != kNone)
      for (uint32_t i = 0; i < m.numOperands(ret) && i < m.numResults(op); ++i)
        tie(m.operand(ret, i), m.result(op, i));
    return;
  }
  if (flow == DataFlow::Loop || flow == DataFlow::Barrier) {
    for (uint32_t i = 0; i < m.numOperands(op) && i < m.numResults(op); ++i)
      tie(m.operand(op, i), m.result(op, i));
    for (uint32_t r = 0; r < m.numRegions(op); ++r) {
      RegionId reg = m.region(op, r);
      if (m.regions[reg].blocks.empty()) continue;
      const std::vector<ValueId> &args = m.blocks[m.regions[reg].blocks[0]].args;
      for (uint32_t i = 0; i < args.size() && i < m.numResults(op); ++i) tie(args[i], m.result(op, i));
      if (r == 1) {  // the body returns the next iteration's values
        OpId ret = regionReturn(m, reg);
        if (ret != kNone)
          for (uint32_t i = 0; i < m.numOperands(ret) && i < m.numResults(op); ++i)
            tie(m.operand(ret, i), m.result(op, i));
      }
    }
    return;
  }
  if (flow == DataFlow::Branch) {
    for (uint32_t r = 0; r < m.numRegions(op); ++r) {
      OpId ret = regionReturn(m, m.region(op, r));
      if (ret == kNone) continue;
      for (uint32_t i = 0; i < m.numOperands(ret) && i < m.numResults(op); ++i)
        tie(m.operand(ret, i), m.result(op, i));
    }
    return;
  }
  if (flow == DataFlow::Computation) {
    if (m.numRegions(op) == 0) return;
    RegionId reg = m.region(op, 0);
    if (m.regions[reg].blocks.empty()) return;
    const std::vector<ValueId> &args = m.blocks[m.regions[reg].blocks[0]].args;
    for (uint32_t i = 0; i < args.size() && i < m.numOperands(op); ++i) tie(m.operand(op, i), args[i]);
    OpId ret = regionReturn(m, reg);
    if (ret != kNone)
      for (uint32_t i = 0; i < m.numOperands(ret) && i < m.numResults(op); ++i)
        tie(m.operand(ret, i), m.result(op, i));
  }
}

}  // namespace

NameId32 NamedDimensions::nameOf(ValueId v, uint32_t dim) const {
  if (v + 1 >= dimOffset_.size()) return kNoDimName;
  uint32_t index = dimOffset_[v] + dim;
  if (index >= dimOffset_[v + 1]) return kNoDimName;
  return nameOfDim_[index];
}

double NamedDimensions::log10SpaceBefore(int numAxes) const {
  return double(numNontrivialDims) * std::log10(double(numAxes + 1));
}

double NamedDimensions::log10SpaceAfter(int numAxes) const {
  return double(names.size()) * std::log10(double(numAxes + 1)) +
         double(conflicts.size()) * std::log10(2.0);
}

NamedDimensions analyzeNamedDimensions(const Module &m, const RuleOptions &options,
                                       Diagnostics *diags) {
  NamedDimensions out;
  size_t numValues = m.values.size();
  out.dimOffset_.resize(numValues + 1);
  uint32_t total = 0;
  for (size_t v = 0; v < numValues; ++v) {
    out.dimOffset_[v] = total;
    total += uint32_t(rankOf(m, ValueId(v)));
  }
  out.dimOffset_[numValues] = total;
  out.numTensorDims = total;
  UnionFind uf(total);
  // `excluded`: touched by an op without a rule; its whole class is out of
  // the decision space. Size-1 dimensions are never joined (a slice to one
  // element must not take its input's name out of the space), and get no
  // name. `replicatedHere`: some op needs the
  // dimension replicated (need-replication or blocked factor); that op
  // does not link it, and sharding its class costs a reshard there.
  // `linked`: joined to another dimension by a factor or data-flow edge.
  std::vector<bool> excluded(total, false), replicatedHere(total, false), linked(total, false);
  std::vector<int64_t> nodeSize(total, 1);
  for (size_t v = 0; v < numValues; ++v) {
    TypeId t = m.values[v].type;
    if (!m.types.isTensor(t)) continue;
    const std::vector<int64_t> &shape = m.types.shape(t);
    for (size_t d = 0; d < shape.size(); ++d) {
      nodeSize[out.dimOffset_[v] + d] = shape[d];
    }
  }
  auto node = [&](ValueId v, int64_t d) { return out.dimOffset_[v] + uint32_t(d); };
  // Links two tensors dimension by dimension where the sizes agree.
  auto linkTensors = [&](ValueId a, ValueId b) {
    int64_t r = std::min(rankOf(m, a), rankOf(m, b));
    if (rankOf(m, a) != rankOf(m, b)) return;
    for (int64_t d = 0; d < r; ++d)
      if (nodeSize[node(a, d)] == nodeSize[node(b, d)]) {
        uf.join(node(a, d), node(b, d));
        linked[node(a, d)] = linked[node(b, d)] = true;
      }
  };
  auto excludeAll = [&](OpId op) {
    for (ValueId v : m.operands(op))
      for (int64_t d = 0; d < rankOf(m, v); ++d) excluded[node(v, d)] = true;
    for (uint32_t i = 0; i < m.numResults(op); ++i)
      for (int64_t d = 0; d < rankOf(m, m.result(op, i)); ++d) excluded[node(m.result(op, i), d)] = true;
  };
  std::vector<std::pair<uint32_t, OpId>> reductions;   // (node, op)
  std::vector<std::pair<uint32_t, OpId>> replications;  // (node, op)

  RuleCache rules(m, options, diags);
  std::vector<uint32_t> first;  // per factor of the current op, reused
  m.walk(m.top, [&](OpId op) {
    const OpInfo &info = opInfo(m, op);
    if (info.category == OpCategory::Structure) return;
    ++out.numOps;
    if (info.dataFlow != DataFlow::None) {
      forEachDataFlowTie(m, op, info.dataFlow, linkTensors);
      return;
    }
    if (info.category == OpCategory::Constant || info.category == OpCategory::Terminator || m.numResults(op) == 0)
      return;
    const OpShardingRule *rule = rules.get(op);
    if (!rule) {
      out.unknownOps.push_back(op);
      excludeAll(op);
      return;
    }
    // Per factor, the dimensions whose major factor it is.
    first.assign(rule->numFactors(), UINT32_MAX);
    auto visit = [&](const std::vector<OpShardingRule::TensorFactors> &ts, auto valueAt) {
      for (size_t t = 0; t < ts.size(); ++t) {
        ValueId v = valueAt(t);
        for (size_t d = 0; d < ts[t].size() && int64_t(d) < rankOf(m, v); ++d) {
          if (ts[t][d].empty()) continue;
          int32_t f = ts[t][d][0];
          uint32_t n = node(v, int64_t(d));
          if (nodeSize[n] <= 1) continue;
          FactorKind kind = rule->kind(f);
          // A size-1 major factor on a longer dimension means the op takes
          // the dimension whole (a shape operand, a dimension the rule does
          // not describe): it needs it replicated, like need-replication.
          if (kind == FactorKind::NeedReplication || rule->isBlocked(f) ||
              rule->factorSizes[size_t(f)] == 1) {
            replicatedHere[n] = true;
            replications.push_back({n, op});
            continue;
          }
          if (kind == FactorKind::Reduction) reductions.push_back({n, op});
          if (first[size_t(f)] == UINT32_MAX) {
            first[size_t(f)] = n;
          } else {
            uf.join(first[size_t(f)], n);
            linked[first[size_t(f)]] = linked[n] = true;
          }
        }
      }
    };
    visit(rule->operands, [&](size_t t) { return m.operand(op, uint32_t(t)); });
    visit(rule->results, [&](size_t t) { return m.result(op, uint32_t(t)); });
  });

  // A class with an excluded member is excluded as a whole: sharding the
  // name would shard a tensor of an op nobody knows how to split. A class
  // that links nothing and only meets ops needing it replicated (an index
  // vector dimension, a sorted dimension between two sorts) has nothing to
  // gain from sharding and is excluded too.
  std::vector<bool> rootExcluded(total, false), rootLinked(total, false),
      rootReplicated(total, false);
  for (uint32_t n = 0; n < total; ++n) {
    uint32_t r = uf.find(n);
    if (excluded[n]) rootExcluded[r] = true;
    if (linked[n]) rootLinked[r] = true;
    if (replicatedHere[n]) rootReplicated[r] = true;
  }
  for (uint32_t r = 0; r < total; ++r)
    if (rootReplicated[r] && !rootLinked[r]) rootExcluded[r] = true;
  std::unordered_map<uint32_t, NameId32> nameOfRoot;
  out.nameOfDim_.assign(total, kNoDimName);
  std::vector<ValueId> lastValueOfName;
  for (size_t v = 0; v < numValues; ++v) {
    int64_t r = rankOf(m, ValueId(v));
    for (int64_t d = 0; d < r; ++d) {
      uint32_t n = node(ValueId(v), d);
      uint32_t root = uf.find(n);
      if (rootExcluded[root] || nodeSize[n] <= 1) continue;
      auto [it, inserted] = nameOfRoot.try_emplace(root, NameId32(out.names.size()));
      if (inserted) {
        out.names.push_back(DimName{nodeSize[n], {}, {}, 0, {}});
        lastValueOfName.push_back(kNone);
      }
      DimName &name = out.names[it->second];
      name.size = std::min(name.size, nodeSize[n]);
      name.members.push_back({ValueId(v), uint32_t(d)});
      if (lastValueOfName[it->second] != ValueId(v)) {
        name.bytes += m.types.byteSize(m.values[v].type);
        lastValueOfName[it->second] = ValueId(v);
      }
      out.nameOfDim_[n] = it->second;
      ++out.numNontrivialDims;
    }
  }
  for (auto [n, op] : reductions) {
    NameId32 id = out.nameOfDim_[n];
    if (id == kNoDimName) continue;
    std::vector<OpId> &at = out.names[id].reducedAt;
    if (at.empty() || at.back() != op) at.push_back(op);
  }
  for (auto [n, op] : replications) {
    NameId32 id = out.nameOfDim_[n];
    if (id == kNoDimName) continue;
    std::vector<OpId> &at = out.names[id].replicatedAt;
    if (at.empty() || at.back() != op) at.push_back(op);
  }
  // Conflicts: one name on two dimensions of one value.
  for (size_t v = 0; v < numValues; ++v) {
    int64_t r = rankOf(m, ValueId(v));
    for (int64_t a = 0; a < r; ++a)
      for (int64_t b = a + 1; b < r; ++b) {
        NameId32 na = out.nameOfDim_[node(ValueId(v), a)];
        if (na == kNoDimName || na != out.nameOfDim_[node(ValueId(v), b)]) continue;
        OpId where = m.definingOp(ValueId(v));
        if (where == kNone) {
          BlockId blk = m.values[v].owner;
          where = m.regions[m.blocks[blk].parent].parent;
        }
        out.conflicts.push_back({na, ValueId(v), uint32_t(a), uint32_t(b), where});
      }
  }
  return out;
}

std::string describeDim(const Module &m, DimRef d) {
  const ValueInfo &info = m.values[d.value];
  std::string s;
  if (info.isBlockArg) {
    OpId parent = m.regions[m.blocks[info.owner].parent].parent;
    if (parent != kNone && m.isa(parent, "func.func")) {
      FuncView f{m, parent};
      AttrId a = f.argAttr(info.index, "jax.arg_info");
      s = a != kNoAttr ? unescapeString(m.attrs.stringValue(a))
                       : "%arg" + std::to_string(info.index);
      if (f.name() != "main") s = "@" + std::string(f.name()) + " " + s;
    } else if (parent != kNone) {
      // A region argument: name it after the op that owns the region.
      std::string_view owner = m.opName(parent);
      if (size_t dot = owner.find('.'); dot != std::string_view::npos) owner = owner.substr(dot + 1);
      s = std::string(owner) + "#" + std::to_string(parent) + " arg " + std::to_string(info.index);
    } else {
      s = "block argument " + std::to_string(info.index);
    }
  } else {
    std::string_view name = m.opName(info.owner);
    if (size_t dot = name.find('.'); dot != std::string_view::npos) name = name.substr(dot + 1);
    s = std::string(name) + "#" + std::to_string(info.owner);
    if (m.numResults(info.owner) > 1) s += " result " + std::to_string(info.index);
  }
  return s + " dim " + std::to_string(d.dim);
}

}  // namespace autopart
