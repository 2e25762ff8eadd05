// The rows of the op table (rules/OpInfo.h). One row per op kind; the rule
// builders live beside this file, one file per op family.
#include "rules/OpInfo.h"

#include <type_traits>
#include <unordered_map>

#include "rules/RuleFamilies.h"

namespace autopart {

namespace {

using namespace rules;

// Adapts a builder of any of the signatures the families use to RuleFn.
template <auto Fn>
std::optional<OpShardingRule> build(const Module &m, OpId op, const RuleOptions &o, Diagnostics *d) {
  if constexpr (std::is_invocable_v<decltype(Fn), const Module &, OpId, const RuleOptions &, Diagnostics *>)
    return Fn(m, op, o, d);
  else if constexpr (std::is_invocable_v<decltype(Fn), const Module &, OpId, const RuleOptions &>)
    return Fn(m, op, o);
  else if constexpr (std::is_invocable_v<decltype(Fn), const Module &, OpId, Diagnostics *>)
    return Fn(m, op, d);
  else
    return Fn(m, op);
}

std::optional<OpShardingRule> pointwiseRule(const Module &m, OpId op) { return pointwise(m, op); }

using C = OpCategory;
using D = DataFlow;
using F = FlopModel;
using U = Fusion;
using K = CostKind;

constexpr RuleFn kPointwise = &build<&pointwiseRule>;

OpInfo elementwise(std::string_view name) {
  return {name, C::Elementwise, D::None, F::PerResultElement, U::Loop, K::Compute, kPointwise};
}
OpInfo controlFlow(std::string_view name, DataFlow flow) {
  return {name, C::ControlFlow, flow, F::None, U::None, K::Free, nullptr};
}
// Ops with nothing to shard and no cost model of their own: I/O, tokens,
// device ids, async wrappers. Priced as kernels (their bytes), no rule.
OpInfo ruleLess(std::string_view name, OpCategory category = C::Other, CostKind cost = K::Compute) {
  return {name, category, D::None, F::None, U::None, cost, nullptr};
}
OpInfo sdyCollective(std::string_view name, CostKind cost) {
  return {name, C::Collective, D::None, F::None, U::None, cost, kPointwise};
}

std::vector<OpInfo> buildTable() {
  std::vector<OpInfo> t;
  // Elementwise arithmetic, logic and conversion: one factor per dimension.
  for (std::string_view n :
       {"stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.cbrt",
        "stablehlo.ceil", "stablehlo.clamp", "stablehlo.compare", "stablehlo.complex",
        "stablehlo.convert", "stablehlo.cosine", "stablehlo.count_leading_zeros", "stablehlo.divide",
        "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
        "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.logistic",
        "stablehlo.map", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply",
        "stablehlo.negate", "stablehlo.not", "stablehlo.or", "stablehlo.popcnt", "stablehlo.power",
        "stablehlo.real", "stablehlo.reduce_precision", "stablehlo.remainder",
        "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even", "stablehlo.rsqrt",
        "stablehlo.select", "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
        "stablehlo.shift_right_logical", "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt",
        "stablehlo.subtract", "stablehlo.tan", "stablehlo.tanh", "stablehlo.xor", "chlo.erf"})
    t.push_back(elementwise(n));
  // Quantisation is elementwise but counted as data conversion (no FLOPs).
  for (std::string_view n : {"stablehlo.uniform_quantize", "stablehlo.uniform_dequantize"})
    t.push_back({n, C::Elementwise, D::None, F::None, U::Loop, K::Compute, kPointwise});
  t.push_back({"stablehlo.bitcast_convert", C::Elementwise, D::None, F::PerResultElement, U::Loop, K::Compute,
               &build<&bitcastConvert>});

  // Data movement.
  t.push_back({"stablehlo.broadcast_in_dim", C::DataMovement, D::None, F::None, U::Loop, K::Compute,
               &build<&broadcastInDim>});
  t.push_back({"stablehlo.dynamic_broadcast_in_dim", C::DataMovement, D::None, F::None, U::Loop, K::Compute,
               &build<&broadcastInDim>});
  t.push_back({"stablehlo.transpose", C::DataMovement, D::None, F::None, U::Loop, K::Compute, &build<&transpose>});
  t.push_back({"stablehlo.reshape", C::DataMovement, D::None, F::None, U::Loop, K::Compute, &build<&reshapeRule>});
  t.push_back({"stablehlo.dynamic_reshape", C::DataMovement, D::None, F::None, U::Loop, K::Compute,
               &build<&reshapeRule>});
  t.push_back({"stablehlo.concatenate", C::DataMovement, D::None, F::None, U::Loop, K::Compute,
               &build<&concatenate>, /*ruleReadsContext=*/true});
  for (std::string_view n : {"stablehlo.slice", "stablehlo.pad", "stablehlo.dynamic_pad"})
    t.push_back({n, C::DataMovement, D::None, F::None, U::Loop, K::Compute, &build<&sliceOrPad>});
  t.push_back({"stablehlo.dynamic_slice", C::DataMovement, D::None, F::None, U::Loop, K::Compute,
               &build<&dynamicSlice>});
  t.push_back({"stablehlo.dynamic_update_slice", C::DataMovement, D::None, F::None, U::InPlace, K::Compute,
               &build<&dynamicUpdateSlice>, /*ruleReadsContext=*/true});
  t.push_back({"stablehlo.reverse", C::DataMovement, D::None, F::None, U::Loop, K::Compute, &build<&reverse>});
  for (std::string_view n : {"stablehlo.gather", "stablehlo.dynamic_gather"})
    t.push_back({n, C::DataMovement, D::None, F::None, U::Loop, K::Compute, &build<&gatherRule>});
  t.push_back({"stablehlo.scatter", C::DataMovement, D::None, F::None, U::InPlace, K::Compute, &build<&scatterRule>,
               /*ruleReadsContext=*/true});
  t.push_back({"stablehlo.sort", C::DataMovement, D::None, F::None, U::None, K::Compute, &build<&sort>});
  t.push_back(ruleLess("stablehlo.tuple", C::DataMovement, K::Free));
  t.push_back(ruleLess("stablehlo.get_tuple_element", C::DataMovement, K::Free));

  // Contractions run as library kernels.
  t.push_back({"stablehlo.dot_general", C::Contraction, D::None, F::Contraction, U::Library, K::Compute,
               &build<&dotGeneralRule>});
  t.push_back({"stablehlo.dot", C::Contraction, D::None, F::Contraction, U::Library, K::Compute, &build<&dotRule>});
  t.push_back({"stablehlo.convolution", C::Contraction, D::None, F::Convolution, U::Library, K::Compute,
               &build<&convolutionRule>});
  t.push_back({"stablehlo.dynamic_conv", C::Contraction, D::None, F::None, U::Library, K::Compute,
               &build<&convolutionRule>});

  // Reductions.
  t.push_back({"stablehlo.reduce", C::Reduction, D::None, F::PerReducedInput, U::Input, K::Compute, &build<&reduce>});
  t.push_back({"stablehlo.reduce_window", C::Reduction, D::None, F::ReduceWindow, U::Input, K::Compute,
               &build<&reduceWindow>});
  t.push_back({"stablehlo.select_and_scatter", C::Reduction, D::None, F::PerOperandElement, U::None, K::Compute,
               &build<&selectAndScatter>});

  // Collectives StableHLO spells out.
  t.push_back({"stablehlo.all_reduce", C::Collective, D::None, F::PerOperandElement, U::None, K::Collective,
               kPointwise});
  t.push_back({"stablehlo.reduce_scatter", C::Collective, D::None, F::PerOperandElement, U::None, K::Collective,
               &build<&collective>});
  for (std::string_view n : {"stablehlo.all_gather", "stablehlo.all_to_all"})
    t.push_back({n, C::Collective, D::None, F::None, U::None, K::Collective, &build<&collective>});
  for (std::string_view n :
       {"stablehlo.collective_permute", "stablehlo.collective_broadcast", "stablehlo.cross-replica-sum"})
    t.push_back({n, C::Collective, D::None, F::None, U::None, K::Collective, kPointwise});

  // Control flow: values are tied by data-flow edges, not a rule; the
  // simulator prices the bodies.
  t.push_back(controlFlow("stablehlo.while", D::Loop));
  t.push_back(controlFlow("stablehlo.case", D::Branch));
  t.push_back(controlFlow("stablehlo.if", D::Branch));
  t.push_back(controlFlow("stablehlo.optimization_barrier", D::Barrier));
  t.push_back(controlFlow("func.call", D::Call));
  t.push_back(controlFlow("sdy.manual_computation", D::Computation));
  t.push_back(controlFlow("sdy.named_computation", D::Computation));

  // Constants (folded by XLA or materialised once).
  for (std::string_view n : {"stablehlo.constant", "sdy.constant", "arith.constant"})
    t.push_back(ruleLess(n, C::Constant, K::Free));
  t.push_back({"stablehlo.iota", C::Constant, D::None, F::None, U::Loop, K::Free, nullptr});
  t.push_back({"stablehlo.dynamic_iota", C::Constant, D::None, F::None, U::Loop, K::Compute, nullptr});

  for (std::string_view n : {"func.return", "stablehlo.return", "sdy.return"})
    t.push_back(ruleLess(n, C::Terminator, K::Free));
  for (std::string_view n : {"func.func", "builtin.module", "sdy.mesh"}) t.push_back(ruleLess(n, C::Structure));

  // Shardy's annotations and explicit collectives.
  t.push_back({"sdy.sharding_constraint", C::Sharding, D::None, F::None, U::None, K::Reshard, kPointwise});
  t.push_back(ruleLess("sdy.reshard", C::Sharding, K::Reshard));
  for (std::string_view n : {"sdy.sharding_group", "sdy.propagation_barrier", "sdy.data_flow_edge"})
    t.push_back(ruleLess(n, C::Sharding, K::Free));
  for (std::string_view n : {"sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute"})
    t.push_back(sdyCollective(n, K::Reshard));
  for (std::string_view n : {"sdy.all_reduce", "sdy.reduce_scatter"}) t.push_back(sdyCollective(n, K::Collective));

  // Random numbers, FFT, linear algebra, batch norm, custom calls.
  t.push_back({"stablehlo.rng", C::Other, D::None, F::None, U::None, K::Compute, &build<&rng>});
  t.push_back({"stablehlo.rng_bit_generator", C::Other, D::None, F::None, U::None, K::Compute,
               &build<&rngBitGenerator>});
  t.push_back({"stablehlo.fft", C::Other, D::None, F::None, U::Library, K::Compute, &build<&fft>});
  t.push_back({"stablehlo.cholesky", C::Other, D::None, F::None, U::Library, K::Compute, &build<&cholesky>});
  t.push_back({"stablehlo.triangular_solve", C::Other, D::None, F::None, U::Library, K::Compute,
               &build<&triangularSolve>});
  for (std::string_view n :
       {"stablehlo.batch_norm_inference", "stablehlo.batch_norm_training", "stablehlo.batch_norm_grad"})
    t.push_back({n, C::Other, D::None, F::None, U::None, K::Compute, &build<&batchNorm>});
  t.push_back({"stablehlo.custom_call", C::Other, D::None, F::None, U::Library, K::Compute, &build<&customCall>,
               /*ruleReadsContext=*/true});
  t.push_back({"stablehlo.composite", C::Other, D::None, F::None, U::None, K::Compute, &build<&compositeRule>});
  t.push_back({"chlo.top_k", C::Other, D::None, F::None, U::None, K::Compute, &build<&topK>});
  for (std::string_view n :
       {"stablehlo.partition_id", "stablehlo.replica_id", "stablehlo.create_token", "stablehlo.after_all",
        "stablehlo.outfeed", "stablehlo.infeed", "stablehlo.send", "stablehlo.recv",
        "stablehlo.get_dimension_size", "stablehlo.async_start", "stablehlo.async_done"})
    t.push_back(ruleLess(n));
  return t;
}

struct Table {
  std::vector<OpInfo> rows = buildTable();
  std::unordered_map<std::string_view, const OpInfo *> byName;
  Table() {
    for (const OpInfo &r : rows) byName.emplace(r.name, &r);
  }
};

const Table &table() {
  static const Table t;
  return t;
}

}  // namespace

const OpInfo *lookupOpInfo(std::string_view name) {
  const Table &t = table();
  if (auto it = t.byName.find(name); it != t.byName.end()) return it->second;
  if (!name.starts_with("chlo.")) return nullptr;
  std::string key = "stablehlo." + std::string(name.substr(5));
  auto it = t.byName.find(key);
  return it == t.byName.end() ? nullptr : it->second;
}

const OpInfo &opInfo(const Module &m, OpId op) {
  static const OpInfo kUnknown{};
  const OpInfo *info = lookupOpInfo(m.opName(op));
  return info ? *info : kUnknown;
}

const std::vector<OpInfo> &allOpInfos() { return table().rows; }

}  // namespace autopart
