// Dispatch of the registry, and the rules of pointwise and shape-preserving
// ops. Families with more structure live beside it: reshape
// (rules/ReshapeRule.cpp), contractions (rules/ContractionRules.cpp),
// gather/scatter (rules/GatherScatterRules.cpp).
#include "rules/OpShardingRuleRegistry.h"

#include <mutex>
#include <set>
#include <string>
#include <unordered_set>

#include "rules/RuleFamilies.h"

namespace autopart {

namespace rules {

std::vector<int64_t> shapeOf(const Module &m, ValueId v) {
  TypeId t = m.type(v);
  return m.types.isTensor(t) ? m.types.shape(t) : std::vector<int64_t>{};
}

std::vector<int64_t> intsAttr(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
}

int64_t intAttr(const Module &m, OpId op, std::string_view name, int64_t dflt) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr) return dflt;
  const AttrStorage &s = m.attrs.get(a);
  return s.kind == AttrKind::Integer || s.kind == AttrKind::Bool ? s.intValue : dflt;
}

OpShardingRule pointwise(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  b.addPointwise(shapeOf(m, m.result(op, 0)));
  return b.build();
}

}  // namespace rules

using namespace rules;

namespace {

const std::unordered_set<std::string_view> &pointwiseOps() {
  static const std::unordered_set<std::string_view> s = {
      "abs", "add", "and", "atan2", "cbrt", "ceil", "count_leading_zeros", "compare", "complex",
      "convert", "cosine", "divide", "exponential", "exponential_minus_one", "floor", "imag",
      "is_finite", "log_plus_one", "log", "logistic", "maximum", "minimum", "multiply", "negate",
      "not", "or", "popcnt", "power", "real", "reduce_precision", "remainder",
      "round_nearest_even", "round_nearest_afz", "rsqrt", "shift_left",
      "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "sqrt", "subtract", "tan",
      "tanh", "xor", "map", "collective_permute", "cross-replica-sum"};
  return s;
}

// Ops that have no rule by design: constants, ops propagation handles with
// data-flow edges, and ops with nothing to propagate.
const std::unordered_set<std::string_view> &ruleLessOps() {
  static const std::unordered_set<std::string_view> s = {
      "stablehlo.constant", "stablehlo.iota", "stablehlo.while", "stablehlo.case",
      "stablehlo.if", "stablehlo.optimization_barrier", "stablehlo.get_tuple_element",
      "stablehlo.tuple", "stablehlo.partition_id", "stablehlo.replica_id",
      "stablehlo.create_token", "stablehlo.after_all", "stablehlo.outfeed", "stablehlo.infeed",
      "stablehlo.send", "stablehlo.recv", "stablehlo.return", "func.return", "func.call",
      "func.func", "builtin.module", "sdy.mesh", "sdy.return", "sdy.manual_computation",
      "sdy.named_computation", "sdy.propagation_barrier", "sdy.sharding_group", "sdy.reshard",
      "sdy.data_flow_edge", "sdy.constant", "arith.constant"};
  return s;
}

void warnOnce(Diagnostics *diags, const Module &m, OpId op, const std::string &key,
              const std::string &message) {
  if (!diags) return;
  static std::mutex mu;
  static std::set<std::pair<const Module *, std::string>> seen;
  std::lock_guard<std::mutex> lock(mu);
  if (!seen.insert({&m, key}).second) return;
  diags->warning(m, op, message);
}

std::optional<OpShardingRule> broadcastInDim(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  std::vector<int64_t> dims = intsAttr(m, op, "broadcast_dimensions");
  std::vector<int64_t> outToIn(out.size(), kNullDim);
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] >= 0 && size_t(dims[i]) < out.size()) outToIn[size_t(dims[i])] = int64_t(i);
  for (size_t o = 0; o < out.size(); ++o) {
    int64_t inDim = outToIn[o];
    if (inDim != kNullDim && in[size_t(inDim)] == 1 && out[o] != 1) {
      // Expanded in place: the operand dimension keeps a factor of its own.
      b.addFactor({inDim}, {kNullDim}, 1);
      inDim = kNullDim;
    }
    b.addFactor({inDim}, {int64_t(o)}, out[o]);
  }
  return b.build();
}

std::optional<OpShardingRule> transpose(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0));
  std::vector<int64_t> perm = intsAttr(m, op, "permutation");
  for (size_t o = 0; o < perm.size(); ++o) b.addFactor({perm[o]}, {int64_t(o)}, in[size_t(perm[o])]);
  return b.build();
}

std::optional<OpShardingRule> reduce(const Module &m, OpId op) {
  RuleBuilder b(m, op);
  size_t numInputs = m.numOperands(op) / 2;
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0));
  std::vector<int64_t> dims = intsAttr(m, op, "dimensions");
  int64_t outDim = 0;
  for (size_t d = 0; d < in.size(); ++d) {
    std::vector<int64_t> operandDims(m.numOperands(op), kNullDim);
    std::fill_n(operandDims.begin(), numInputs, int64_t(d));
    bool reduced = std::find(dims.begin(), dims.end(), int64_t(d)) != dims.end();
    std::vector<int64_t> resultDims(numInputs, reduced ? kNullDim : outDim++);
    b.addFactor(operandDims, resultDims, in[d], reduced ? FactorKind::Reduction : FactorKind::PassThrough);
  }
  return b.build();
}

std::optional<OpShardingRule> concatenate(const Module &m, OpId op, const RuleOptions &o) {
  int64_t dim = intAttr(m, op, "dimension", 0);
  RuleBuilder b(m, op);
  b.addPointwiseIf(
      shapeOf(m, m.result(op)), [&](int64_t d) { return !o.conservativePropagation || d != dim; },
      [&](int64_t d) { return d == dim ? FactorKind::Permutation : FactorKind::PassThrough; });
  return b.build();
}

std::optional<OpShardingRule> sliceLike(const Module &m, OpId op, const RuleOptions &o,
                                        ValueId in, ValueId out) {
  RuleBuilder b(m, op);
  if (o.conservativePropagation)
    b.addPointwiseIfDimSizesMatch(shapeOf(m, in), shapeOf(m, out));
  else
    b.addPointwiseWithKindForMismatch(shapeOf(m, in), shapeOf(m, out), FactorKind::Permutation);
  return b.build();
}

std::optional<OpShardingRule> dynamicUpdateSlice(const Module &m, OpId op) {
  std::vector<int64_t> operand = shapeOf(m, m.operand(op, 0)), update = shapeOf(m, m.operand(op, 1));
  RuleBuilder b(m, op);
  b.addPointwiseIfDimSizesMatch(operand, update, [&](int64_t d, RuleBuilder &rb) {
    // The operand and result share the dimension; the update's part of it is
    // written at a run-time offset and must stay whole.
    std::vector<int64_t> operandDims(m.numOperands(op), kNullDim), updateDims(m.numOperands(op), kNullDim);
    operandDims[0] = d;
    updateDims[1] = d;
    rb.addFactor(operandDims, {d}, operand[size_t(d)]);
    rb.addFactor(updateDims, {kNullDim}, update[size_t(d)], FactorKind::NeedReplication);
  });
  return b.build();
}

// The sorted dimension needs every element: it must stay replicated, and
// propagation must not carry a sharding through it.
std::optional<OpShardingRule> sort(const Module &m, OpId op) {
  std::vector<int64_t> shape = shapeOf(m, m.operand(op, 0));
  int64_t dim = intAttr(m, op, "dimension", -1);
  if (dim < 0) dim += int64_t(shape.size());
  RuleBuilder b(m, op);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (int64_t(d) != dim) {
      b.addFactor(int64_t(d), shape[d]);
      continue;
    }
    b.addFactor(int64_t(d), shape[d], FactorKind::NeedReplication).blockLast();
  }
  return b.build();
}

// Reversing a sharded dimension moves data between devices.
std::optional<OpShardingRule> reverse(const Module &m, OpId op) {
  std::vector<int64_t> shape = shapeOf(m, m.result(op));
  std::vector<int64_t> dims = intsAttr(m, op, "dimensions");
  RuleBuilder b(m, op);
  b.addPointwise(shape, [&](int64_t d) {
    return std::find(dims.begin(), dims.end(), d) != dims.end() ? FactorKind::Permutation
                                                                 : FactorKind::PassThrough;
  });
  return b.build();
}

// A dynamically sliced dimension cannot be sharded (the offset is only known
// at run time), nor propagated through.
std::optional<OpShardingRule> dynamicSlice(const Module &m, OpId op) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  RuleBuilder b(m, op);
  for (size_t d = 0; d < in.size() && d < out.size(); ++d) {
    if (in[d] == out[d]) {
      b.addFactor(int64_t(d), in[d]);
      continue;
    }
    b.addFactor(int64_t(d), in[d], FactorKind::NeedReplication).blockLast();
  }
  return b.build();
}

// The fft dimensions (the trailing `fft_length` ones) need replication; a
// last dimension whose size the transform changes is not propagated through.
std::optional<OpShardingRule> fft(const Module &m, OpId op) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  size_t numFft = intsAttr(m, op, "fft_length").size();
  RuleBuilder b(m, op);
  for (size_t d = 0; d < in.size(); ++d) {
    bool isFft = d + numFft >= in.size();
    b.addFactor(int64_t(d), in[d], isFft ? FactorKind::NeedReplication : FactorKind::PassThrough);
    if (d + 1 == in.size() && d < out.size() && in[d] != out[d]) b.blockLast();
  }
  return b.build();
}

std::optional<OpShardingRule> bitcastConvert(const Module &m, OpId op) {
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
  RuleBuilder b(m, op);
  b.addPointwise(in.size() < out.size() ? in : out);
  if (in.size() < out.size())
    b.addFactor({kNullDim}, {int64_t(out.size()) - 1}, out.back(), FactorKind::NeedReplication);
  else if (in.size() > out.size())
    b.addFactor({int64_t(in.size()) - 1}, {kNullDim}, in.back(), FactorKind::NeedReplication);
  return b.build();
}

std::optional<OpShardingRule> cholesky(const Module &m, OpId op) {
  std::vector<int64_t> shape = shapeOf(m, m.operand(op, 0));
  int64_t batch = int64_t(shape.size()) - 2;
  RuleBuilder b(m, op);
  b.addPointwise(shape, [&](int64_t d) {
    return d < batch ? FactorKind::PassThrough : FactorKind::NeedReplication;
  });
  return b.build();
}

std::optional<OpShardingRule> triangularSolve(const Module &m, OpId op) {
  std::vector<int64_t> a = shapeOf(m, m.operand(op, 0)), bShape = shapeOf(m, m.operand(op, 1));
  if (a.size() < 2 || bShape.size() < 2) return std::nullopt;
  RuleBuilder b(m, op);
  b.addPointwise(std::vector<int64_t>(a.begin(), a.end() - 2));
  int64_t d1 = int64_t(a.size()) - 2, d2 = int64_t(a.size()) - 1;
  AttrId t = m.attr(op, "transpose_a");
  bool transposed = t != kNoAttr && (m.attrs.get(t).text.find("TRANSPOSE>") != std::string::npos ||
                                     m.attrs.get(t).text.find("ADJOINT") != std::string::npos) &&
                    m.attrs.get(t).text.find("NO_TRANSPOSE") == std::string::npos;
  bool left = intAttr(m, op, "left_side", 0) != 0;
  const FactorKind nr = FactorKind::NeedReplication;
  if (left) {
    int64_t aNon = transposed ? d2 : d1, aCon = transposed ? d1 : d2;
    b.addFactor({aNon, d1}, {kNullDim}, a[size_t(aNon)], nr);
    b.addFactor({kNullDim, d2}, {d2}, bShape[size_t(d2)], nr);
    b.addFactor({aCon, kNullDim}, {d1}, a[size_t(aCon)], nr);
  } else {
    int64_t aNon = transposed ? d1 : d2, aCon = transposed ? d2 : d1;
    b.addFactor({kNullDim, d1}, {d1}, bShape[size_t(d1)], nr);
    b.addFactor({aNon, d2}, {kNullDim}, a[size_t(aNon)], nr);
    b.addFactor({aCon, kNullDim}, {d2}, a[size_t(aCon)], nr);
  }
  return b.build();
}

// all_gather / all_to_all / reduce_scatter: the collective's own dimensions
// must not be sharded; the others pass through.
std::optional<OpShardingRule> collective(const Module &m, OpId op) {
  std::string_view name = m.opName(op);
  std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op, 0));
  RuleBuilder b(m, op);
  if (name == "stablehlo.all_gather" || name == "stablehlo.reduce_scatter") {
    int64_t dim = intAttr(m, op, name == "stablehlo.all_gather" ? "all_gather_dim" : "scatter_dimension", 0);
    for (size_t d = 0; d < in.size(); ++d) {
      if (int64_t(d) != dim) {
        b.addFactor(int64_t(d), in[d]);
        continue;
      }
      b.addFactorAll(int64_t(d), kNullDim, in[d], FactorKind::NeedReplication);
      b.addFactorAll(kNullDim, int64_t(d), out[d], FactorKind::NeedReplication);
    }
    return b.build();
  }
  // all_to_all
  int64_t split = intAttr(m, op, "split_dimension", 0), concat = intAttr(m, op, "concat_dimension", 0);
  for (size_t d = 0; d < in.size(); ++d) {
    bool special = int64_t(d) == split || int64_t(d) == concat;
    if (!special) {
      b.addFactor(int64_t(d), in[d]);
      continue;
    }
    if (in[d] == out[d] && split == concat) {
      b.addFactorAll(int64_t(d), kNullDim, in[d], FactorKind::NeedReplication);
      b.addFactorAll(kNullDim, int64_t(d), out[d], FactorKind::NeedReplication);
      continue;
    }
    b.addFactorAll(int64_t(d), kNullDim, in[d], FactorKind::NeedReplication);
    b.addFactorAll(kNullDim, int64_t(d), out[d], FactorKind::NeedReplication);
  }
  return b.build();
}

std::optional<OpShardingRule> customCall(const Module &m, OpId op, Diagnostics *diags) {
  std::string_view target = m.attrs.stringValue(m.attr(op, "call_target_name"));
  static const std::unordered_set<std::string_view> pointwiseTargets = {
      "annotate_device_placement", "Cholesky", "CompactWyHelper",
      "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular", "LayoutConstraint",
      "MoveToDevice", "MoveToHost", "mhlo.erf", "X64Combine", "tt.mark_argument",
      "tt.sharding_constraint", "Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"};
  if (target == "sdy_testonly" || target == "tpu_custom_call") return std::nullopt;
  if (m.numResults(op) == 0) return std::nullopt;
  if (pointwiseTargets.count(target)) {
    if (target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape") return std::nullopt;
    return pointwise(m, op);
  }
  std::vector<int64_t> in = m.numOperands(op) ? shapeOf(m, m.operand(op, 0)) : std::vector<int64_t>{};
  if ((target == "Eigh" || target == "Qr" || target == "QrDecompositionBlock") && in.size() >= 2 &&
      m.numResults(op) == 2) {
    int64_t n1 = int64_t(in.size()) - 2, n2 = int64_t(in.size()) - 1;
    RuleBuilder b(m, op);
    b.addPointwise(std::vector<int64_t>(in.begin(), in.end() - 2));
    if (target == "Eigh") {
      b.addFactor({n1}, {n1, kNullDim}, in[size_t(n1)]);
      b.addFactor({n2}, {n2, n1}, in[size_t(n2)]);
    } else {
      b.addFactor({n1}, {n1, kNullDim}, in[size_t(n1)]);
      b.addFactor({n2}, {n2, kNullDim}, in[size_t(n2)]);
    }
    return b.build();
  }
  if (target == "ProductOfElementaryHouseholderReflectors" && in.size() >= 2) {
    int64_t n1 = int64_t(in.size()) - 2, n2 = int64_t(in.size()) - 1;
    RuleBuilder b(m, op);
    b.addPointwise(std::vector<int64_t>(in.begin(), in.end() - 2));
    b.addFactor({n1, kNullDim}, {n1}, in[size_t(n1)]);
    b.addFactor({n2, kNullDim}, {n2}, in[size_t(n2)]);
    return b.build();
  }
  if (target == "mhlo.topk" || target == "ApproxTopK" || target == "PartialReduce") {
    RuleBuilder b(m, op);
    b.addPointwiseIfDimSizesMatch(in, shapeOf(m, m.result(op, 0)));
    return b.build();
  }
  warnOnce(diags, m, op, "custom_call:" + std::string(target),
           "custom call @" + std::string(target) +
               " is unknown to the sharding rule registry; its operands and results are kept "
               "replicated");
  return std::nullopt;
}

}  // namespace

bool isDataFlowOp(const Module &m, OpId op) {
  std::string_view n = m.opName(op);
  return n == "stablehlo.while" || n == "stablehlo.case" || n == "stablehlo.if" ||
         n == "stablehlo.optimization_barrier" || n == "func.call" ||
         n == "sdy.manual_computation" || n == "sdy.named_computation";
}

std::optional<OpShardingRule> getOpShardingRule(const Module &m, OpId op, const RuleOptions &o,
                                                Diagnostics *diags) {
  AttrId existing = m.attr(op, "sdy.sharding_rule");
  if (existing != kNoAttr && m.attrs.kind(existing) == AttrKind::ShardingRule)
    return *m.attrs.get(existing).rule;
  std::string_view name = m.opName(op);
  if (ruleLessOps().count(name)) return std::nullopt;
  // Dynamic shapes have no static factor sizes.
  for (ValueId v : m.operands(op))
    if (m.types.hasDynamicDim(m.type(v))) return std::nullopt;
  for (uint32_t i = 0; i < m.numResults(op); ++i)
    if (m.types.hasDynamicDim(m.type(m.result(op, i)))) return std::nullopt;
  for (ValueId v : m.operands(op))
    if (!m.types.isTensor(m.type(v)) && m.types.get(m.type(v)).kind != TypeKind::Token) {
      if (m.types.get(m.type(v)).kind == TypeKind::Tuple) return std::nullopt;
    }
  if (m.numResults(op) == 0 || !m.types.isTensor(m.type(m.result(op, 0)))) return std::nullopt;

  if (name.starts_with("stablehlo.") || name.starts_with("chlo.")) {
    std::string_view s = name.substr(name.find('.') + 1);
    if (pointwiseOps().count(s) || s == "erf" || s == "all_reduce" || s == "clamp" || s == "select")
      return pointwise(m, op);
    if (s == "broadcast_in_dim") return broadcastInDim(m, op);
    if (s == "transpose") return transpose(m, op);
    if (s == "reshape") return reshapeRule(m, op);
    if (s == "reduce") return reduce(m, op);
    if (s == "dot_general") return dotGeneralRule(m, op);
    if (s == "dot") return dotRule(m, op);
    if (s == "convolution") return convolutionRule(m, op, o);
    if (s == "concatenate") return concatenate(m, op, o);
    if (s == "slice") return sliceLike(m, op, o, m.operand(op, 0), m.result(op));
    if (s == "pad") return sliceLike(m, op, o, m.operand(op, 0), m.result(op));
    if (s == "reduce_window") {
      // Factors follow the result (number of windows) against the input.
      RuleBuilder b(m, op);
      std::vector<int64_t> in = shapeOf(m, m.operand(op, 0)), out = shapeOf(m, m.result(op));
      if (o.conservativePropagation)
        b.addPointwiseIfDimSizesMatch(in, out);
      else
        b.addPointwiseWithKindForMismatch(in, out, FactorKind::Permutation);
      return b.build();
    }
    if (s == "select_and_scatter") {
      // Windowed dimensions: the source (one value per window) keeps its own
      // factor, the operand and result share one that needs halo exchange.
      std::vector<int64_t> operand = shapeOf(m, m.operand(op, 0)), source = shapeOf(m, m.operand(op, 1));
      RuleBuilder b(m, op);
      for (size_t d = 0; d < operand.size() && d < source.size(); ++d) {
        if (operand[d] == source[d]) {
          b.addFactor({int64_t(d), int64_t(d), kNullDim}, {int64_t(d)}, operand[d]);
          continue;
        }
        b.addFactor({kNullDim, int64_t(d), kNullDim}, {kNullDim}, source[d], FactorKind::NeedReplication);
        if (!o.conservativePropagation)
          b.addFactor({int64_t(d), kNullDim, kNullDim}, {int64_t(d)}, operand[d], FactorKind::Permutation);
      }
      return b.build();
    }
    if (s == "dynamic_slice") return dynamicSlice(m, op);
    if (s == "reverse") return reverse(m, op);
    if (s == "dynamic_update_slice") return dynamicUpdateSlice(m, op);
    if (s == "gather") return gatherRule(m, op);
    if (s == "scatter") return scatterRule(m, op);
    if (s == "sort") return sort(m, op);
    if (s == "bitcast_convert") return bitcastConvert(m, op);
    if (s == "cholesky") return cholesky(m, op);
    if (s == "fft") return fft(m, op);
    if (s == "triangular_solve") return triangularSolve(m, op);
    if (s == "all_gather" || s == "all_to_all" || s == "reduce_scatter") return collective(m, op);
    if (s == "custom_call") return customCall(m, op, diags);
    if (s == "composite") return compositeRule(m, op, o, diags);
    if (s == "batch_norm_inference") {
      // Operand and result share all dims; scale/offset/mean/variance follow
      // the feature dimension.
      int64_t feature = intAttr(m, op, "feature_index", 0);
      std::vector<int64_t> shape = shapeOf(m, m.operand(op, 0));
      RuleBuilder b(m, op);
      for (size_t d = 0; d < shape.size(); ++d) {
        std::vector<int64_t> dims(m.numOperands(op), int64_t(d) == feature ? 0 : kNullDim);
        dims[0] = int64_t(d);
        b.addFactor(dims, {int64_t(d)}, shape[d]);
      }
      return b.build();
    }
  }
  if (name == "sdy.sharding_constraint" || name.starts_with("sdy.all_") ||
      name == "sdy.reduce_scatter" || name == "sdy.collective_permute")
    return pointwise(m, op);
  warnOnce(diags, m, op, std::string(name),
           "op '" + std::string(name) +
               "' is unknown to the sharding rule registry; its operands and results are kept "
               "replicated");
  return std::nullopt;
}

}  // namespace autopart
