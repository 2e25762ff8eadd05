// The ops -sdy-pad-for-divisibility rewrites by their own rule rather than
// the generic one (export/Padder.h): what each must do so the grown program
// still computes the original one.
//
//   stablehlo.slice    the window widens (by whole strides) to the divisible size
//   stablehlo.pad      the high edge absorbs the growth; where it shrinks the
//                      input's own padding must first hold the pad value
//   dot_general,       summed dimensions (the rule's reduction factors, a
//   reduce,            convolution's features and window) hold the
//   convolution        reduction's identity; a convolution's output window
//                      dimensions are trimmed back
//   sdy collectives    inputs are padded with zeros for the output sharding;
//                      gathered dimensions are trimmed back
#include "export/Padder.h"

#include <algorithm>

#include "asm/StablehloSyntaxHelpers.h"
#include "export/DivisibleShape.h"
#include "export/PaddedResultShape.h"
#include "export/ReductionIdentity.h"
#include "ir/CollectiveAxes.h"
#include "ir/StablehloAttrs.h"
#include "rules/OpShardingRuleRegistry.h"

namespace autopart {

namespace {

std::optional<CollectiveAxes> axesOf(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  return a == kNoAttr ? std::nullopt : parseCollectiveAxes(m.attrs.str(a));
}

// The dimensions of operand `i` that `rule` sums over (its reduction factors):
// their padding must hold the reduction's identity.
std::vector<int64_t> summedDims(const OpShardingRule &rule, size_t i) {
  std::vector<int64_t> dims;
  if (i >= rule.operands.size()) return dims;
  for (size_t d = 0; d < rule.operands[i].size(); ++d)
    for (int32_t f : rule.operands[i][d])
      if (rule.kind(f) == FactorKind::Reduction) {
        dims.push_back(int64_t(d));
        break;
      }
  return dims;
}

}  // namespace

// A constant keeps its value; a zero-filled pad after it gives the
// divisible shape (a wider constant would need invented elements).
OpId Padder::rewriteConstant(OpId op) {
  keepOp(op);
  ValueId res = m_.result(op);
  TypeId want = convertedType(res);
  if (want == m_.type(res) || !m_.types.isTensor(want)) return op;
  b_.placeAfter(true);
  ValueId zero = b_.constant(m_.types.elementType(want), PaddingKind::Zero);
  cur_[res] = b_.padHigh(res, want, zero, valueSharding(m_, res));
  b_.placeAfter(false);
  kinds_[cur_[res]] = PaddingKind::Zero;
  return op;
}

// The window widens so the result reaches its divisible size.
OpId Padder::rewriteSlice(OpId op) {
  ValueId res = m_.result(op);
  TypeId padded = convertedType(res);
  ValueId in = adapt(m_.operand(op, 0));
  if (padded == origType(res)) return replaceOp(op, {in}, {padded});
  std::vector<int64_t> start = intsOf(m_, op, "start_indices"), limit = intsOf(m_, op, "limit_indices"),
                       strides = intsOf(m_, op, "strides");
  const std::vector<int64_t> &orig = m_.types.shape(origType(res)), &want = m_.types.shape(padded);
  const std::vector<int64_t> inShape = shape(in);
  for (size_t d = 0; d < want.size() && d < limit.size() && d < start.size(); ++d) {
    if (want[d] == orig[d]) continue;
    int64_t stride = d < strides.size() ? strides[d] : 1;
    limit[d] = start[d] + (want[d] - 1) * stride + 1;
    if (d < inShape.size() && limit[d] > inShape[d]) {
      diags_.error(m_, op, "'stablehlo.slice' op cannot widen dimension " + std::to_string(d) + " to " +
                               std::to_string(want[d]) + " elements: its operand has only " +
                               std::to_string(inShape[d]));
      ok_ = false;
      return op;
    }
  }
  OpId n = replaceOp(op, {in}, {padded});
  m_.setAttr(n, "limit_indices", i64Array(m_, limit));
  return n;
}

// The high edge padding absorbs the difference between the grown input and
// the divisible result. When it shrinks, the input's own padded region takes
// the place of pad elements, so it must first hold the pad value.
OpId Padder::rewritePad(OpId op) {
  ValueId res = m_.result(op);
  ValueId in = adapt(m_.operand(op, 0)), padValue = adapt(m_.operand(op, 1));
  TypeId padded = convertedType(res);
  std::vector<int64_t> low = intsOf(m_, op, "edge_padding_low"), high = intsOf(m_, op, "edge_padding_high"),
                       interior = intsOf(m_, op, "interior_padding");
  const std::vector<int64_t> inShape = shape(in), &want = m_.types.shape(padded);
  if (low.size() != inShape.size() || high.size() != inShape.size() || interior.size() != inShape.size())
    return replaceOp(op, {in, padValue}, {padded});
  std::vector<int64_t> newHigh(inShape.size());
  bool shrunk = false;
  for (size_t d = 0; d < inShape.size(); ++d) {
    newHigh[d] = want[d] - inShape[d] - low[d] - std::max<int64_t>(0, inShape[d] - 1) * interior[d];
    shrunk |= newHigh[d] < high[d];
  }
  if (shrunk)
    in = b_.maskBeyond(in, m_.types.shape(origType(m_.operand(op, 0))), padValue, nullptr, valueSharding(m_, in));
  OpId n = replaceOp(op, {in, padValue}, {padded});
  m_.setAttr(n, "edge_padding_high", i64Array(m_, newHigh));
  return n;
}

// `in` (standing for original `orig`) with the padded part of `dims` zeroed,
// unless it is known to be zero already.
ValueId Padder::zeroPadded(ValueId in, ValueId orig, const std::vector<int64_t> &dims) {
  const std::vector<int64_t> &origShape = m_.types.shape(origType(orig));
  if (m_.type(in) == origType(orig) || kindOf(in) == PaddingKind::Zero) return in;
  const std::vector<int64_t> inShape = shape(in);
  bool any = std::any_of(dims.begin(), dims.end(), [&](int64_t d) {
    return size_t(d) < inShape.size() && inShape[d] != origShape[d];
  });
  if (!any) return in;
  ValueId zero = b_.constant(m_.types.elementType(m_.type(in)), PaddingKind::Zero);
  return b_.maskBeyond(in, origShape, zero, &dims, valueSharding(m_, in));
}

// Contracting dimensions are summed over, so their padding must be zeros.
OpId Padder::rewriteDotGeneral(OpId op) {
  ValueId lhs = adapt(m_.operand(op, 0)), rhs = adapt(m_.operand(op, 1));
  if (std::optional<OpShardingRule> rule = getOpShardingRule(m_, op)) {
    lhs = zeroPadded(lhs, m_.operand(op, 0), summedDims(*rule, 0));
    rhs = zeroPadded(rhs, m_.operand(op, 1), summedDims(*rule, 1));
  }
  return rewriteGeneric(op, {lhs, rhs});
}

// Reduced dimensions that grew must hold the body's identity (zeros under
// an add are reused as they are); a body without one cannot be padded.
OpId Padder::rewriteReduce(OpId op) {
  std::vector<ValueId> ins;
  for (ValueId v : m_.operands(op)) ins.push_back(adapt(v));
  std::optional<OpShardingRule> rule = getOpShardingRule(m_, op);
  uint32_t inputs = m_.numOperands(op) / 2;
  std::vector<std::vector<int64_t>> summed(inputs);
  bool anyGrown = false;
  for (uint32_t j = 0; rule && j < inputs; ++j) {
    const std::vector<int64_t> &orig = m_.types.shape(origType(m_.operand(op, j))), now = shape(ins[j]);
    for (int64_t d : summedDims(*rule, j))
      if (now[d] != orig[d]) summed[j].push_back(d);
    anyGrown |= !summed[j].empty();
  }
  if (!anyGrown) return rewriteGeneric(op, ins);
  std::optional<std::vector<ReductionIdentity>> ids = reductionIdentities(m_, op);
  if (!ids) {
    diags_.error(m_, op, "'stablehlo.reduce' op unsupported reduction operation in reduce body: a padded "
                         "reduced dimension needs the body's identity");
    diags_.error(m_, op, "failed to legalize operation 'stablehlo.reduce'");
    ok_ = false;
    return op;
  }
  for (uint32_t j = 0; j < inputs; ++j) {
    if (summed[j].empty() || ((*ids)[j].isZero && kindOf(ins[j]) == PaddingKind::Zero)) continue;
    ValueId identity = b_.constant(m_.types.elementType(m_.type(ins[j])), (*ids)[j].spelling);
    ins[j] = b_.maskBeyond(ins[j], m_.types.shape(origType(m_.operand(op, j))), identity, &summed[j],
                           valueSharding(m_, ins[j]));
  }
  return rewriteGeneric(op, ins);
}

// Input features and windowed dimensions are summed over: zero their
// padding. The output's windowed dimensions follow the window arithmetic
// and are trimmed back to their divisible size.
OpId Padder::rewriteConvolution(OpId op) {
  std::optional<ConvDims> dims = getConvDims(m_, op);
  ValueId res = m_.result(op);
  ValueId lhs = adapt(m_.operand(op, 0)), rhs = adapt(m_.operand(op, 1));
  if (!dims) return rewriteGeneric(op, {lhs, rhs});
  std::vector<int64_t> lhsDims{dims->inputFeature}, rhsDims{dims->kernelInput};
  lhsDims.insert(lhsDims.end(), dims->inputSpatial.begin(), dims->inputSpatial.end());
  rhsDims.insert(rhsDims.end(), dims->kernelSpatial.begin(), dims->kernelSpatial.end());
  lhs = zeroPadded(lhs, m_.operand(op, 0), lhsDims);
  rhs = zeroPadded(rhs, m_.operand(op, 1), rhsDims);
  std::optional<std::vector<int64_t>> inferred = convolutionShape(m_, op, shape(lhs), shape(rhs));
  const std::vector<int64_t> target = m_.types.shape(convertedType(res));
  bool tooSmall = !inferred;
  for (size_t i = 0; inferred && i < dims->outputSpatial.size(); ++i)
    tooSmall |= (*inferred)[dims->outputSpatial[i]] < target[dims->outputSpatial[i]];
  if (tooSmall) {
    diags_.error(m_, op, "'stablehlo.convolution' op padded operands give an output spatial size smaller than "
                         "the divisible size; spatial sharding must be made divisible or replicated first "
                         "(resolve-permutation-factors)");
    diags_.error(m_, op, "failed to legalize operation 'stablehlo.convolution'");
    ok_ = false;
    return op;
  }
  OpId n = replaceOp(op, {lhs, rhs}, {m_.types.tensor(*inferred, m_.types.elementType(m_.type(res)))});
  trim(res, m_.result(n), target, dims->outputSpatial, valueSharding(m_, m_.result(n)), PaddingKind::Zero);
  return n;
}

// Pads the input of a collective whose result keeps the input's shape to
// `paddedIn`, rebuilds the collective at that shape and records what its
// padding holds: zeros for a fresh pad, else what the input's padding held.
OpId Padder::rebuildCollective(OpId op, ValueId in, ValueId orig, TypeId paddedIn) {
  std::optional<PaddingKind> kind = kindOf(in);
  bool paddedBefore = m_.type(in) != origType(orig);
  if (paddedIn != m_.type(in)) {
    PaddingKind fill = paddedBefore && kind ? *kind : PaddingKind::Zero;
    std::optional<PaddingKind> known = paddedBefore ? kind : std::optional<PaddingKind>(PaddingKind::Zero);
    ValueId value = b_.constant(m_.types.elementType(paddedIn), fill);
    in = b_.padHigh(in, paddedIn, value, valueSharding(m_, in));
    if (known) kinds_[in] = *known;
    kind = known;
  }
  OpId n = replaceOp(op, {in}, {paddedIn});
  if (kind) kinds_[m_.result(n)] = *kind;
  return n;
}

// all_slice / reduce_scatter: the input must divide under the output's
// sharding.
OpId Padder::rewriteSlicingCollective(OpId op) {
  ValueId orig = m_.operand(op, 0), in = adapt(orig);
  return rebuildCollective(op, in, orig, divisible(m_.type(in), outSharding(m_, op)));
}

// all_to_all: padded for the output's sharding, then the source dimensions
// (now gathered) are trimmed back.
OpId Padder::rewriteAllToAll(OpId op) {
  ValueId orig = m_.operand(op, 0), in = adapt(orig);
  std::optional<PaddingKind> kind = kindOf(in);
  const TensorSharding *out = outSharding(m_, op);
  OpId n = rebuildCollective(op, in, orig, divisible(m_.type(in), out));
  std::vector<int64_t> srcDims;
  if (std::optional<CollectiveAxes> axes = axesOf(m_, op, "params"))
    for (const AllToAllParam &p : axes->params) srcDims.push_back(p.srcDim);
  trim(m_.result(op), m_.result(n), m_.types.shape(origType(orig)), srcDims, out, kind);
  return n;
}

// all_gather: the result keeps the grown input's shape (or its own
// divisible one); gathered dimensions are trimmed back.
OpId Padder::rewriteAllGather(OpId op) {
  ValueId in = adapt(m_.operand(op, 0));
  OpId n = rewriteGeneric(op, {in});
  std::optional<PaddingKind> kind = kindOf(in);
  ValueId res = m_.result(n);
  if (kind) kinds_[res] = *kind;
  std::vector<int64_t> gathered;
  if (std::optional<CollectiveAxes> axes = axesOf(m_, op, "gathering_axes"))
    for (size_t d = 0; d < axes->perDim.size(); ++d)
      if (!axes->perDim[d].empty()) gathered.push_back(int64_t(d));
  trim(m_.result(op), res, m_.types.shape(origType(m_.result(op))), gathered, valueSharding(m_, res), kind);
  return n;
}

}  // namespace autopart
