// Rules of custom calls (by call target) and of top-k. Targets XLA and JAX
// emit with element-wise semantics (placement and layout annotations, erf,
// 64-bit split/combine) shard pointwise; the decompositions (Eigh, Qr,
// Householder products) keep their matrix dimensions whole; top-k passes its
// batch dimensions and needs its last one whole. Unknown targets get no rule
// and one warning per target.
//
//   %v, %i = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
//   -> ([i, j])->([i, k], [i, k]) {i=5, j=3, k=2} need_replication={j, k} blocked={k}
#include "rules/RuleFamilies.h"

#include <string>
#include <unordered_set>

namespace autopart {
namespace rules {

namespace {

// Whether a result of `op` feeds a rng_bit_generator (its state operand must
// be replicated, so nothing may propagate into it). A scan of the enclosing
// function: the custom calls that ask are rare.
bool feedsRngBitGenerator(const Module &m, OpId op) {
  OpId scope = m.enclosingFunc(op);
  if (scope == kNone) scope = m.top;
  uint32_t first = m.result(op, 0), last = first + m.numResults(op);
  bool found = false;
  m.walk(scope, [&](OpId user) {
    if (found || !m.isa(user, "stablehlo.rng_bit_generator")) return;
    for (ValueId v : m.operands(user)) found = found || (v >= first && v < last);
  });
  return found;
}

}  // namespace

// top-k over the last dimension (chlo.top_k, the mhlo.topk custom call):
// that dimension needs every element and must not be propagated through;
// the batch dimensions pass.
std::optional<OpShardingRule> topK(const Module &m, OpId op) {
  if (m.numOperands(op) < 1 || m.numResults(op) != 2) return std::nullopt;
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0));
  RuleBuilder b(m, op);
  b.addPointwiseWithKindForMismatch(in, shapeOf(m, m.result(op, 0)), FactorKind::NeedReplication, true);
  return b.build();
}

std::optional<OpShardingRule> customCall(const Module &m, OpId op, Diagnostics *diags) {
  std::string_view target = m.attrs.stringValue(m.attr(op, "call_target_name"));
  // Targets whose results are element-wise in their operands (placement and
  // layout annotations, 64-bit split/combine, erf, debugging hooks).
  static const std::unordered_set<std::string_view> pointwiseTargets = {
      "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
      "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular", "LayoutConstraint",
      "MoveToDevice", "MoveToHost", "mhlo.erf", "X64SplitHigh", "X64SplitLow",
      "xla.megascale.provide_metadata", "tt.mark_argument", "tt.sharding_constraint", "Sharding"};
  // Host callbacks and opaque kernels: nothing is known, and nothing to warn.
  static const std::unordered_set<std::string_view> opaqueTargets = {
      "sdy_testonly", "tpu_custom_call", "xla_python_cpu_callback", "xla_python_gpu_callback",
      "xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback", "SPMDFullToShardShape",
      "SPMDShardToFullShape"};
  if (opaqueTargets.count(target) || m.numResults(op) == 0) return std::nullopt;
  if (pointwiseTargets.count(target)) return pointwise(m, op);
  std::vector<int64_t> in = m.numOperands(op) ? shapeOf(m, m.operand(op, 0)) : std::vector<int64_t>{};
  const FactorKind nr = FactorKind::NeedReplication;
  if (target == "X64Combine") {
    // The state operand of rng_bit_generator must be replicated and nothing
    // can reshard in between, so feeding one blocks propagation.
    bool block = feedsRngBitGenerator(m, op);
    RuleBuilder b(m, op);
    std::vector<int64_t> shape = shapeOf(m, m.result(op, 0));
    for (size_t d = 0; d < shape.size(); ++d)
      b.addFactor(int64_t(d), shape[d], block ? nr : FactorKind::PassThrough, block);
    return b.build();
  }
  if (in.size() >= 2 && m.numOperands(op) >= 1) {
    int64_t n1 = int64_t(in.size()) - 2, n2 = int64_t(in.size()) - 1;
    std::vector<int64_t> batch(in.begin(), in.end() - 2);
    if (target == "Eigh" && m.numResults(op) == 2) {
      // Eigenvectors share both matrix dims with the input, eigenvalues the
      // last one; the decomposition still needs communication if sharded.
      RuleBuilder b(m, op);
      b.addPointwise(batch);
      b.addFactor({n1}, {n1, kNullDim}, in[size_t(n1)]);
      b.addFactor({n2}, {n2, n1}, in[size_t(n2)]);
      return b.build();
    }
    if ((target == "Qr" || target == "QrDecompositionBlock") && m.numResults(op) == 2) {
      // Q/R keep the matrix dims of the input, taus have min(m, n) entries;
      // the factorization needs whole matrices.
      std::vector<int64_t> taus = shapeOf(m, m.result(op, 1));
      if (taus.size() != in.size() - 1) return std::nullopt;
      RuleBuilder b(m, op);
      b.addPointwise(batch);
      b.addFactor({n1}, {n1, kNullDim}, in[size_t(n1)], nr);
      b.addFactor({n2}, {n2, kNullDim}, in[size_t(n2)], nr);
      b.addFactor({kNullDim}, {kNullDim, n1}, taus[size_t(n1)], nr);
      return b.build();
    }
    if (target == "ProductOfElementaryHouseholderReflectors" && m.numOperands(op) == 2) {
      std::vector<int64_t> taus = shapeOf(m, m.operand(op, 1));
      if (taus.size() != in.size() - 1) return std::nullopt;
      RuleBuilder b(m, op);
      b.addPointwise(batch);
      b.addFactor({n1, kNullDim}, {n1}, in[size_t(n1)], nr);
      b.addFactor({n2, kNullDim}, {n2}, in[size_t(n2)], nr);
      b.addFactor({kNullDim, n1}, {kNullDim}, taus[size_t(n1)], nr);
      return b.build();
    }
  }
  if (target == "mhlo.topk" && m.numResults(op) == 2) return topK(m, op);
  if ((target == "ApproxTopK" || target == "PartialReduce") && m.numOperands(op) == 4 &&
      m.numResults(op) == 2) {
    // Operands: operand, iota, init value, init index; results: values and
    // indices. The reduced dimension has an operand factor (the input can be
    // sharded) and a separate result factor that needs replication.
    std::vector<int64_t> out = shapeOf(m, m.result(op, 0));
    if (in.size() != out.size()) return std::nullopt;
    RuleBuilder b(m, op);
    for (size_t d = 0; d < in.size(); ++d) {
      int64_t dd = int64_t(d);
      if (in[d] == out[d]) {
        b.addFactor(dd, in[d]);
        continue;
      }
      b.addFactor({dd, dd, kNullDim, kNullDim}, {kNullDim, kNullDim}, in[d]);
      b.addFactor({kNullDim, kNullDim, kNullDim, kNullDim}, {dd, dd}, out[d], nr, true);
    }
    return b.build();
  }
  warnOnce(diags, m, op, "custom_call:" + std::string(target),
           "custom call @" + std::string(target) +
               " is unknown to SDY sharding rule registry; autopart keeps its operands and "
               "results replicated");
  return std::nullopt;
}

}  // namespace rules
}  // namespace autopart
