#include "sim/Flops.h"

#include "ir/StablehloAttrs.h"
#include "rules/OpInfo.h"

namespace autopart {

namespace {

double elements(const Module &m, ValueId v) { return double(m.types.numElements(m.type(v))); }

double contractionFlops(const Module &m, OpId op) {
  if (m.numOperands(op) < 2 || m.numResults(op) < 1) return 0;
  std::optional<DotDims> d = getDotDims(m, op);
  if (!d) return 0;
  const std::vector<int64_t> &lhs = m.types.shape(m.type(m.operand(op, 0)));
  double contract = 1;
  for (int64_t c : d->lhsContract)
    if (c >= 0 && size_t(c) < lhs.size()) contract *= double(lhs[size_t(c)]);
  return 2 * elements(m, m.result(op)) * contract;
}

double convolutionFlops(const Module &m, OpId op) {
  if (m.numOperands(op) < 2 || m.numResults(op) < 1) return 0;
  std::optional<ConvDims> d = getConvDims(m, op);
  if (!d) return 0;
  const std::vector<int64_t> &k = m.types.shape(m.type(m.operand(op, 1)));
  double window = 1;
  for (int64_t s : d->kernelSpatial)
    if (s >= 0 && size_t(s) < k.size()) window *= double(k[size_t(s)]);
  double inFeatures = size_t(d->kernelInput) < k.size() ? double(k[size_t(d->kernelInput)]) : 1;
  return 2 * elements(m, m.result(op)) * window * inFeatures;
}

double operandElements(const Module &m, OpId op, uint32_t count) {
  double n = 0;
  for (uint32_t i = 0; i < count; ++i) n += elements(m, m.operand(op, i));
  return n;
}

}  // namespace

double opFlops(const Module &m, OpId op) {
  switch (opInfo(m, op).flops) {
  case FlopModel::None:
    return 0;
  case FlopModel::Contraction:
    return contractionFlops(m, op);
  case FlopModel::Convolution:
    return convolutionFlops(m, op);
  case FlopModel::PerResultElement: {
    double n = 0;
    for (uint32_t i = 0; i < m.numResults(op); ++i) n += elements(m, m.result(op, i));
    return n;
  }
  case FlopModel::PerReducedInput:
    return operandElements(m, op, m.numOperands(op) / 2);
  case FlopModel::PerOperandElement:
    return operandElements(m, op, m.numOperands(op));
  case FlopModel::ReduceWindow: {
    AttrId w = m.attr(op, "window_dimensions");
    if (w == kNoAttr) return operandElements(m, op, m.numOperands(op) / 2);
    double window = 1;
    for (int64_t x : m.attrs.intList(w)) window *= double(x);
    return m.numResults(op) ? elements(m, m.result(op)) * window : 0;
  }
  }
  return 0;
}

}  // namespace autopart
