// `-sdy-per-instruction-partitioning`: for debugging and bisection, chosen
// sharded ops are partitioned one by one: each becomes an
// `sdy.manual_computation` over every mesh axis whose body is the op on its
// local (per-device) shapes, so XLA's SPMD partitioner only partitions what
// is left outside. A dimension its shard count does not divide is padded
// with zeros before and sliced back after.
//
//   %dot = stablehlo.dot %lhs, %rhs {sdy.sharding = <[{"x"}, {"y"}]>}   (lhs [{"x"}, {}], rhs [{}, {"y"}])
//   ->
//   %0 = sdy.manual_computation(%lhs, %rhs) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]
//          out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"}
//          (%a: tensor<4x32xf32>, %b: tensor<32x8xf32>) {
//     %1 = stablehlo.dot %a, %b : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
//     sdy.return %1
//   }
//
// `filter`: empty selects every op with a sharding; comma-separated
// substrings select the ops whose name contains one ("dot, pad"); and
// `selectLow=L, selectHigh=H` selects the sharded ops numbered L..H (in
// program order, counting from 0, ops inside manual computations not
// counted: their shardings are local already); both kinds combine.
//
// What this build partitions: ops whose local form is the op itself on
// local shapes, with no communication: elementwise ops, dot, dot_general,
// transpose and broadcast_in_dim whose factors are sharded alike on every
// tensor that has them (reduction factors unsharded); splat constants; and
// an `sdy.reshard` that drops the trailing axes of one dimension (one
// all-gather). Any other selected op stays global (XLA partitions it, as
// it does every op this pass does not select). Shardy's standalone
// partitioner pipeline (permutation factors, general reshards to
// collectives, halo exchange) is not part of this build, so its options
// (`enable-halo-exchange`, `replica-count`, `partition-count`) are accepted
// at their defaults only.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "ir/DeviceGroups.h"
#include "ir/MeshLookup.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"
#include "rules/OpShardingRuleRegistry.h"

namespace autopart {

namespace {

constexpr const char *kName = "sdy-per-instruction-partitioning";

struct Filter {
  std::vector<std::string> names;
  std::optional<int64_t> low, high;

  bool selects(std::string_view op, int64_t index) const {
    if (low && index < *low) return false;
    if (high && index > *high) return false;
    if (names.empty()) return true;
    return std::any_of(names.begin(), names.end(), [&](const std::string &n) { return op.find(n) != op.npos; });
  }
};

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// The filter from the options. Autopart-opt's option reader splits an
// unquoted `filter=dot,constant` at its commas, so the bare words after it
// are names of the filter too.
std::optional<Filter> parseFilter(const PassOptions &o, Diagnostics &diags) {
  std::vector<std::string> items;
  std::string text = o.getString("filter", "");
  for (size_t start = 0; start <= text.size();) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    items.push_back(trim(text.substr(start, comma - start)));
    start = comma + 1;
  }
  for (const auto &[key, value] : o.values) {
    if (key == "filter") continue;
    // Options of Shardy's sub-pipeline this build does not run: accepted at
    // their defaults only.
    bool isDefault = key == "enable-halo-exchange" ? !o.getBool(key, false)
                     : key == "replica-count" || key == "partition-count" ? o.getInt(key, 1) == 1
                                                                          : true;
    if (key == "enable-halo-exchange" || key == "replica-count" || key == "partition-count") {
      if (!isDefault) {
        diags.error(std::string(kName) + ": option '" + key + "' is not supported (Shardy's partitioner " +
                    "sub-pipeline is not part of this build)");
        return std::nullopt;
      }
      continue;
    }
    items.push_back(key);  // a bare word after `filter=a,` (checkPassOptions let only those through)
  }
  Filter f;
  for (const std::string &item : items) {
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      f.names.push_back(item);
      continue;
    }
    std::string key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
    char *end = nullptr;
    long long n = std::strtoll(value.c_str(), &end, 10);
    if ((key != "selectLow" && key != "selectHigh") || value.empty() || *end) {
      diags.error(std::string(kName) + ": bad filter entry '" + item + "'");
      return std::nullopt;
    }
    (key == "selectLow" ? f.low : f.high) = n;
  }
  return f;
}

bool isLocalOp(const Module &m, OpId op) {
  std::string_view name = m.opName(op);
  if (name == "stablehlo.dot" || name == "stablehlo.dot_general" || name == "stablehlo.transpose" ||
      name == "stablehlo.broadcast_in_dim")
    return true;
  return opInfo(m, op).category == OpCategory::Elementwise && m.numRegions(op) == 0;
}

TensorSharding closedCopy(const TensorSharding &s) {
  TensorSharding c = s;
  for (DimSharding &d : c.dims) d.closed = true;
  return c;
}

int64_t shards(const std::vector<AxisRef> &axes, const Mesh &mesh) {
  int64_t n = 1;
  for (const AxisRef &a : axes) n *= a.size(mesh);
  return n;
}

std::vector<int64_t> paddedShape(const std::vector<int64_t> &shape, const TensorSharding &s, const Mesh &mesh) {
  std::vector<int64_t> out = shape;
  for (size_t d = 0; d < out.size() && d < s.dims.size(); ++d) {
    int64_t n = shards(s.dims[d].axes, mesh);
    out[d] = (out[d] + n - 1) / n * n;
  }
  return out;
}

class Partitioner {
public:
  explicit Partitioner(Module &m) : m_(m) {}

  // The op's operand shardings when its local form is itself on local
  // shapes (every factor sharded alike wherever it appears).
  std::optional<std::vector<TensorSharding>> localOperands(OpId op, const TensorSharding &result) {
    if (!isLocalOp(m_, op) || m_.numResults(op) != 1) return std::nullopt;
    std::optional<OpShardingRule> rule = getOpShardingRule(m_, op);
    if (!rule) return std::nullopt;
    std::vector<TensorSharding> operands;
    for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
      const TensorSharding *s = valueSharding(m_, m_.operand(op, i));
      TypeId t = m_.type(m_.operand(op, i));
      if (!m_.types.isTensor(t)) return std::nullopt;
      operands.push_back(s ? *s : TensorSharding::closed(result.meshName, size_t(m_.types.rank(t))));
      if (operands.back().meshName != result.meshName || operands.back().inlineMesh != result.inlineMesh)
        return std::nullopt;
    }
    std::vector<std::optional<std::vector<AxisRef>>> factorAxes(rule->numFactors());
    auto visit = [&](const OpShardingRule::TensorFactors &dims, const TensorSharding &s) {
      if (!s.unreduced.empty() || dims.size() != s.dims.size()) return false;
      for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d].size() > 1) return false;
        if (dims[d].empty()) {
          if (!s.dims[d].axes.empty()) return false;
          continue;
        }
        std::optional<std::vector<AxisRef>> &seen = factorAxes[size_t(dims[d][0])];
        if (seen && *seen != s.dims[d].axes) return false;
        seen = s.dims[d].axes;
      }
      return true;
    };
    if (rule->operands.size() != operands.size() || rule->results.size() != 1 || !visit(rule->results[0], result))
      return std::nullopt;
    for (size_t i = 0; i < operands.size(); ++i)
      if (!visit(rule->operands[i], operands[i])) return std::nullopt;
    for (size_t f = 0; f < factorAxes.size(); ++f)
      if (rule->kind(int32_t(f)) != FactorKind::PassThrough && factorAxes[f] && !factorAxes[f]->empty())
        return std::nullopt;
    return operands;
  }

  bool partition(OpId op) {
    const TensorSharding *result = m_.numResults(op) == 1 ? resultSharding(m_, op, 0) : nullptr;
    if (m_.isa(op, "sdy.reshard")) {
      AttrId a = m_.attr(op, "sharding");
      result = a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
    }
    const Mesh *mesh = result ? shardingMesh(m_, *result) : nullptr;
    if (!mesh || !m_.types.isTensor(m_.type(m_.result(op, 0)))) return false;
    if (m_.isa(op, "sdy.reshard")) return partitionReshard(op, *result, *mesh);
    if (m_.isa(op, "sdy.constant") || m_.isa(op, "stablehlo.constant")) return partitionConstant(op, *result, *mesh);
    std::optional<std::vector<TensorSharding>> operands = localOperands(op, *result);
    if (!operands) return false;
    std::vector<ValueId> inputs;
    for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
      // An operand used twice alike is padded once.
      uint32_t same = 0;
      while (same < i && (m_.operand(op, same) != m_.operand(op, i) || (*operands)[same] != (*operands)[i])) ++same;
      inputs.push_back(same < i ? inputs[same] : pad(m_.operand(op, i), (*operands)[i], *mesh, op));
    }
    Manual mc = begin(op, inputs, *operands, *result, *mesh);
    std::vector<TypeId> localTypes;
    std::vector<NamedAttr> attrs;
    for (const NamedAttr &a : m_.attributes(op))
      if (m_.names.str(a.name) != "sdy.sharding" && m_.names.str(a.name) != "sdy.sharding_rule") attrs.push_back(a);
    OpId local = m_.createOp(m_.opName(op), mc.args, {mc.localResult}, attrs);
    m_.insertOp(mc.body, local);
    finish(op, mc, m_.result(local), *result);
    return true;
  }

private:
  Module &m_;

  struct Manual {
    OpId op;
    BlockId body;
    std::vector<ValueId> args;
    TypeId localResult;
    TypeId paddedResult;
  };

  TypeId withShape(TypeId t, const std::vector<int64_t> &shape) {
    return m_.types.tensor(shape, m_.types.elementType(t));
  }

  // `v` padded with zeros (at the high end) to a shape `s` divides.
  ValueId pad(ValueId v, const TensorSharding &s, const Mesh &mesh, OpId before) {
    const std::vector<int64_t> &shape = m_.types.shape(m_.type(v));
    std::vector<int64_t> padded = paddedShape(shape, s, mesh);
    if (padded == shape) return v;
    TypeId element = m_.types.elementType(m_.type(v));
    TypeId scalar = m_.types.tensor({}, element);
    bool isFloat = m_.types.str(element).front() == 'f' || m_.types.str(element).starts_with("bf");
    OpId zero = m_.createOp("stablehlo.constant", {}, {scalar},
                            {{m_.names.get("value"),
                              m_.attrs.denseElementsOwned("dense", isFloat ? "0.000000e+00" : "0", scalar)}});
    m_.insertOp(m_.ops[before].parent, zero, before);
    std::vector<int64_t> low(shape.size(), 0), high(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) high[d] = padded[d] - shape[d];
    TypeId i64 = m_.types.scalar("i64");
    OpId p = m_.createOp("stablehlo.pad", {v, m_.result(zero)}, {withShape(m_.type(v), padded)},
                         {{m_.names.get("edge_padding_high"), m_.attrs.denseArray(i64, high)},
                          {m_.names.get("edge_padding_low"), m_.attrs.denseArray(i64, low)},
                          {m_.names.get("interior_padding"), m_.attrs.denseArray(i64, low)},
                          {m_.names.get("sdy.sharding"), m_.attrs.shardingPerValue({closedCopy(s)})}});
    m_.insertOp(m_.ops[before].parent, p, before);
    return m_.result(p);
  }

  Manual begin(OpId op, const std::vector<ValueId> &inputs, const std::vector<TensorSharding> &in,
               const TensorSharding &out, const Mesh &mesh) {
    Manual mc;
    TypeId resultType = m_.type(m_.result(op, 0));
    mc.paddedResult = withShape(resultType, paddedShape(m_.types.shape(resultType), out, mesh));
    mc.localResult = withShape(resultType, out.localShape(m_.types.shape(mc.paddedResult), mesh));
    std::vector<TensorSharding> inClosed, outClosed = {closedCopy(out)};
    for (const TensorSharding &s : in) inClosed.push_back(closedCopy(s));
    std::vector<AttrId> manual;
    for (const MeshAxis &a : mesh.axes) manual.push_back(m_.attrs.string(a.name));
    mc.op = m_.createOp("sdy.manual_computation", inputs, {mc.paddedResult},
                        {{m_.names.get("in_shardings"), m_.attrs.shardingPerValue(inClosed)},
                         {m_.names.get("out_shardings"), m_.attrs.shardingPerValue(outClosed)},
                         {m_.names.get("manual_axes"), m_.attrs.array(manual)}},
                        1);
    m_.ops[mc.op].loc = m_.ops[op].loc;
    m_.ops[mc.op].srcOffset = m_.ops[op].srcOffset;
    mc.body = m_.createBlock(m_.region(mc.op, 0));
    for (size_t i = 0; i < inputs.size(); ++i) {
      TypeId t = m_.type(inputs[i]);
      mc.args.push_back(m_.addBlockArg(mc.body, withShape(t, in[i].localShape(m_.types.shape(t), mesh))));
    }
    return mc;
  }

  // Closes the body with `local`, places the computation where `op` was
  // (sliced back to the op's shape when padded) and erases `op`.
  void finish(OpId op, const Manual &mc, ValueId local, const TensorSharding &out) {
    m_.insertOp(mc.body, m_.createOp("sdy.return", {local}, {}));
    m_.insertOp(m_.ops[op].parent, mc.op, op);
    ValueId value = m_.result(mc.op);
    TypeId resultType = m_.type(m_.result(op, 0));
    if (mc.paddedResult != resultType) {
      const std::vector<int64_t> &shape = m_.types.shape(resultType);
      TypeId i64 = m_.types.scalar("i64");
      OpId slice = m_.createOp("stablehlo.slice", {value}, {resultType},
                               {{m_.names.get("limit_indices"), m_.attrs.denseArray(i64, shape)},
                                {m_.names.get("start_indices"), m_.attrs.denseArray(i64, std::vector<int64_t>(shape.size(), 0))},
                                {m_.names.get("strides"), m_.attrs.denseArray(i64, std::vector<int64_t>(shape.size(), 1))},
                                {m_.names.get("sdy.sharding"), m_.attrs.shardingPerValue({closedCopy(out)})}});
      m_.insertOp(m_.ops[op].parent, slice, op);
      value = m_.result(slice);
    }
    m_.replaceAllUsesWith(m_.result(op, 0), value, m_.enclosingFunc(op));
    m_.eraseOp(op);
  }

  bool partitionConstant(OpId op, const TensorSharding &out, const Mesh &mesh) {
    AttrId value = m_.attr(op, "value");
    if (value == kNoAttr || m_.attrs.kind(value) != AttrKind::DenseElements || !m_.attrs.isSplat(value)) return false;
    Manual mc = begin(op, {}, {}, out, mesh);
    const AttrStorage &v = m_.attrs.get(value);
    OpId local = m_.createOp("stablehlo.constant", {}, {mc.localResult},
                             {{m_.names.get("value"),
                               m_.attrs.denseElementsOwned(v.prefix, std::string(v.body), mc.localResult)}});
    m_.insertOp(mc.body, local);
    finish(op, mc, m_.result(local), out);
    return true;
  }

  // A reshard that keeps every dimension but one and drops the trailing
  // axes of that one: an all-gather over the dropped axes.
  bool partitionReshard(OpId op, const TensorSharding &out, const Mesh &mesh) {
    const TensorSharding *in = valueSharding(m_, m_.operand(op, 0));
    if (!in || in->meshName != out.meshName || in->inlineMesh != out.inlineMesh || in->dims.size() != out.dims.size() ||
        !in->unreduced.empty() || !out.unreduced.empty())
      return false;
    std::optional<size_t> dim;
    for (size_t d = 0; d < in->dims.size(); ++d) {
      if (in->dims[d].axes == out.dims[d].axes) continue;
      const std::vector<AxisRef> &from = in->dims[d].axes, &to = out.dims[d].axes;
      if (dim || to.size() >= from.size() || !std::equal(to.begin(), to.end(), from.begin())) return false;
      dim = d;
    }
    if (!dim) return false;
    ValueId operand = pad(m_.operand(op, 0), *in, mesh, op);
    // The result keeps the operand's padded shape (the gathered dimension
    // comes back whole, the others are sharded as before).
    TypeId resultType = m_.type(m_.result(op, 0));
    Manual mc = begin(op, {operand}, {*in}, out, mesh);
    mc.paddedResult = m_.type(operand);
    m_.setType(m_.result(mc.op), mc.paddedResult);
    mc.localResult = withShape(resultType, out.localShape(m_.types.shape(mc.paddedResult), mesh));
    std::vector<AxisRef> gathered(in->dims[*dim].axes.begin() + ptrdiff_t(out.dims[*dim].axes.size()),
                                  in->dims[*dim].axes.end());
    std::vector<std::vector<int64_t>> groups = deviceGroups(mesh, gathered);
    OpId gather = m_.createOp(
        "stablehlo.all_gather", {mc.args[0]}, {mc.localResult},
        {{m_.names.get("all_gather_dim"), m_.attrs.integer(int64_t(*dim), m_.types.scalar("i64"))},
         {m_.names.get("channel_handle"), nextChannel()},
         {m_.names.get("replica_groups"), deviceGroupsAttr(m_, groups)},
         {m_.names.get("use_global_device_ids"), m_.attrs.unit()}});
    m_.insertOp(mc.body, gather);
    finish(op, mc, m_.result(gather), out);
    return true;
  }

  AttrId nextChannel() {
    return m_.attrs.dialectStruct("stablehlo.channel_handle",
                                  {{m_.names.get("handle"), m_.attrs.integer(lastChannelHandle(m_) + 1)},
                                   {m_.names.get("type"), m_.attrs.integer(1)}});
  }
};

// Inside a manual computation shardings are already local to its manual
// axes; such ops are left as they are.
bool insideManualComputation(const Module &m, OpId op) {
  for (OpId p = m.parentOp(op); p != kNone; p = m.parentOp(p))
    if (m.isa(p, "sdy.manual_computation")) return true;
  return false;
}

const std::vector<PassOptionSpec> kOptions = {
    {"filter", "list", "which sharded ops to wrap: op name parts ('dot, pad') or 'selectLow=N, selectHigh=M' "
                       "(default: all)"},
    {"enable-halo-exchange", "bool", "Shardy's partitioner sub-pipeline; accepted only false"},
    {"replica-count", "int", "Shardy's partitioner sub-pipeline; accepted only 1"},
    {"partition-count", "int", "Shardy's partitioner sub-pipeline; accepted only 1"}};

bool run(Module &m, const PassOptions &o, Diagnostics &diags) {
  if (!checkPassOptions(PassInfo{kName, "", nullptr, kOptions}, o, diags)) return false;
  std::optional<Filter> filter = parseFilter(o, diags);
  if (!filter) return false;
  if (m.top == kNone) return true;
  Partitioner p(m);
  for (OpId func : m.functions()) {
    std::vector<OpId> candidates;
    m.walk(func, [&](OpId op) {
      if ((m.attr(op, "sdy.sharding") != kNoAttr || m.isa(op, "sdy.reshard")) && !insideManualComputation(m, op))
        candidates.push_back(op);
    });
    for (size_t i = 0; i < candidates.size(); ++i)
      if (filter->selects(m.opName(candidates[i]), int64_t(i))) p.partition(candidates[i]);
  }
  return true;
}

PassRegistration reg(kName,
                     "Wraps each selected sharded op in a manual computation over its local shapes (debugging and "
                     "bisection of the partitioner)",
                     run, kOptions);

}  // namespace

}  // namespace autopart
