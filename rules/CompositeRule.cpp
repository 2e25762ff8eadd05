// The rule of stablehlo.composite, derived from its decomposition function so
// that `tenstorrent.rms_norm`, `gelu`, ... shard like the computation they
// stand for (Shardy has no rule for composites). Dimensions of the body are
// linked through the factors of each body op's rule (union-find); each class
// that reaches the composite's operands or results becomes one factor:
//
//   composite "my.scale" %x, %w {decomposition = @scale}
//       : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
//   func.func private @scale(%a: tensor<8x16xf32>, %b: tensor<16xf32>) {
//     %0 = broadcast_in_dim %b, dims = [1]; %1 = multiply %a, %0; return %1 }
//   -> ([i, j], [j])->([i, j]) {i=8, j=16}
//
// A class that some body op reduces is a reduction factor when it does not
// reach a result, and needs replication when it does (the body would need an
// all-reduce the rule cannot express). A class only in operands (dropped
// data) needs replication too.
#include <numeric>
#include <unordered_map>

#include "rules/RuleFamilies.h"

namespace autopart::rules {

namespace {

struct DimUnion {
  std::vector<uint32_t> parent;
  uint32_t make() {
    parent.push_back(uint32_t(parent.size()));
    return uint32_t(parent.size() - 1);
  }
  uint32_t find(uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(uint32_t a, uint32_t b) { parent[find(a)] = find(b); }
};

}  // namespace

std::optional<OpShardingRule> compositeRule(const Module &m, OpId op, const RuleOptions &o,
                                            Diagnostics *diags) {
  OpId callee = m.lookupFunc(m.attr(op, "decomposition"));
  if (callee == kNone) return std::nullopt;
  FuncView f{m, callee};
  OpId ret = f.returnOp();
  if (ret == kNone || f.args().size() != m.numOperands(op) || m.numOperands(ret) != m.numResults(op))
    return std::nullopt;

  // One union-find node per (value, dim), allocated lazily.
  std::unordered_map<uint64_t, uint32_t> node;
  DimUnion uf;
  std::vector<int64_t> nodeSize;
  auto nodeOf = [&](ValueId v, int64_t d) {
    uint64_t key = (uint64_t(v) << 20) | uint64_t(d);
    auto [it, inserted] = node.try_emplace(key, 0);
    if (inserted) {
      it->second = uf.make();
      nodeSize.push_back(shapeOf(m, v)[size_t(d)]);
    }
    return it->second;
  };
  std::vector<bool> reducedRoot;
  std::vector<uint32_t> reducedNodes;
  bool unknown = false;
  m.walk(callee, [&](OpId body) {
    if (isDataFlowOp(m, body) || m.isa(body, "func.return")) return;
    std::optional<OpShardingRule> r = getOpShardingRule(m, body, o, diags);
    if (!r) {
      if (!m.isa(body, "stablehlo.constant") && !m.isa(body, "stablehlo.iota") &&
          !m.isa(body, "stablehlo.return"))
        unknown = true;
      return;
    }
    // For each factor, the (value, dim) pairs made of exactly that factor.
    std::vector<std::vector<uint32_t>> members(r->numFactors());
    auto collect = [&](const std::vector<OpShardingRule::TensorFactors> &ts, auto valueAt) {
      for (size_t t = 0; t < ts.size(); ++t)
        for (size_t d = 0; d < ts[t].size(); ++d)
          if (ts[t][d].size() == 1 && r->factorSizes[size_t(ts[t][d][0])] > 1)
            members[size_t(ts[t][d][0])].push_back(nodeOf(valueAt(t), int64_t(d)));
    };
    collect(r->operands, [&](size_t t) { return m.operand(body, uint32_t(t)); });
    collect(r->results, [&](size_t t) { return m.result(body, uint32_t(t)); });
    for (size_t fac = 0; fac < members.size(); ++fac) {
      for (size_t k = 1; k < members[fac].size(); ++k) uf.join(members[fac][k], members[fac][0]);
      if (r->kind(int32_t(fac)) == FactorKind::Reduction && !members[fac].empty())
        reducedNodes.push_back(members[fac][0]);
    }
  });
  if (unknown) return std::nullopt;  // an unknown body op: keep replicated

  // Classes reaching the composite's tensors, in operand-then-result order.
  RuleBuilder b(m, op);
  std::unordered_map<uint32_t, int32_t> classFactor;
  std::vector<std::vector<std::pair<bool, std::pair<size_t, int64_t>>>> uses;  // per factor
  OpShardingRule rule = b.build();
  rule.factorSizes.clear();
  std::vector<bool> inOperand, inResult;
  auto assign = [&](std::vector<OpShardingRule::TensorFactors> &ts, auto valueAt, bool isResult) {
    for (size_t t = 0; t < ts.size(); ++t)
      for (size_t d = 0; d < ts[t].size(); ++d) {
        ValueId v = valueAt(t);
        int64_t size = shapeOf(m, v)[d];
        uint32_t root = uf.find(nodeOf(v, int64_t(d)));
        auto it = classFactor.find(root);
        int32_t fac;
        bool clash = false;
        if (it != classFactor.end()) {
          fac = it->second;
          for (size_t e = 0; e < d; ++e)
            if (ts[t][e] == OpShardingRule::DimFactors{fac}) clash = true;
        }
        if (it == classFactor.end() || clash || rule.factorSizes[size_t(fac)] != size) {
          fac = rule.addFactor(size);
          inOperand.push_back(false);
          inResult.push_back(false);
          if (!clash && it == classFactor.end()) classFactor[root] = fac;
          if (clash) rule.needReplicationFactors.push_back(fac);
        }
        (isResult ? inResult : inOperand)[size_t(fac)] = true;
        ts[t][d] = {fac};
      }
  };
  assign(rule.operands, [&](size_t t) { return f.args()[t]; }, false);
  assign(rule.results, [&](size_t t) { return m.operand(ret, uint32_t(t)); }, true);
  std::vector<bool> reduced(rule.numFactors(), false);
  for (uint32_t n : reducedNodes) {
    auto it = classFactor.find(uf.find(n));
    if (it != classFactor.end()) reduced[size_t(it->second)] = true;
  }
  for (size_t fac = 0; fac < rule.numFactors(); ++fac) {
    if (rule.factorSizes[fac] <= 1) continue;
    bool alreadyMarked = std::find(rule.needReplicationFactors.begin(), rule.needReplicationFactors.end(),
                                   int32_t(fac)) != rule.needReplicationFactors.end();
    if (alreadyMarked) continue;
    if (reduced[fac] && !inResult[fac])
      rule.reductionFactors.push_back(int32_t(fac));
    else if (reduced[fac] || (inOperand[fac] && !inResult[fac]))
      rule.needReplicationFactors.push_back(int32_t(fac));
  }
  return rule;
}

}  // namespace autopart::rules
