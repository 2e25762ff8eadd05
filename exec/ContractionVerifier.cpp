// Op checks (OpVerifier.h) of dot_general, dot, convolution and
// dynamic_conv. Their kernels permute the operands by the dimension numbers
// and run GEMMs sized by them, so a dimension listed twice, out of range or
// with mismatched sizes would read past a buffer; the result shape must be
// the one the spec derives (dot_general C1-C12, convolution C1-C26):
//
//   dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1]
//     : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
//   -> error: stablehlo.dot_general: lhs batching and contracting dimensions [0, 0] repeat 0
#include <algorithm>

#include "exec/OpVerifier.h"
#include "ir/StablehloAttrs.h"

namespace autopart::exec {
namespace {

std::vector<int64_t> concat(std::vector<int64_t> a, const std::vector<int64_t> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void checkDotGeneral(const OpCheck &c) {
  c.counts(2, 1);
  const Tensor &lhs = c.in(0), &rhs = c.in(1);
  c.isTensor(lhs, "lhs");
  c.isTensor(rhs, "rhs");
  DotDims d;
  if (c.name == "stablehlo.dot") {
    if (lhs.rank() < 1 || lhs.rank() > 2 || rhs.rank() < 1 || rhs.rank() > 2)
      c.fail("operands " + lhs.typeString() + " and " + rhs.typeString() + " must be vectors or matrices");
    d = DotDims{{}, {}, {lhs.rank() - 1}, {0}};
  } else {
    std::optional<DotDims> dd = getDotDims(c.m, c.op);
    if (!dd) c.fail("cannot read dot_dimension_numbers");
    d = *dd;
  }
  if (d.lhsBatch.size() != d.rhsBatch.size())
    c.fail("lhs and rhs batching dimensions " + dimsString(d.lhsBatch) + " and " + dimsString(d.rhsBatch) +
           " differ in number");
  if (d.lhsContract.size() != d.rhsContract.size())
    c.fail("lhs and rhs contracting dimensions " + dimsString(d.lhsContract) + " and " + dimsString(d.rhsContract) +
           " differ in number");
  c.dimsInRange(concat(d.lhsBatch, d.lhsContract), lhs.rank(), "lhs batching and contracting dimensions");
  c.dimsInRange(concat(d.rhsBatch, d.rhsContract), rhs.rank(), "rhs batching and contracting dimensions");
  for (size_t i = 0; i < d.lhsBatch.size(); ++i)
    if (lhs.shape[size_t(d.lhsBatch[i])] != rhs.shape[size_t(d.rhsBatch[i])])
      c.fail("batching dimensions " + dimsString(d.lhsBatch) + " x " + dimsString(d.rhsBatch) + " differ in size: " +
             lhs.typeString() + " and " + rhs.typeString());
  for (size_t i = 0; i < d.lhsContract.size(); ++i)
    if (lhs.shape[size_t(d.lhsContract[i])] != rhs.shape[size_t(d.rhsContract[i])])
      c.fail("contracting dimensions " + dimsString(d.lhsContract) + " x " + dimsString(d.rhsContract) +
             " differ in size: " + lhs.typeString() + " and " + rhs.typeString());
  // C12: batch dimensions, then lhs's free ones, then rhs's.
  std::vector<int64_t> want;
  for (int64_t b : d.lhsBatch) want.push_back(lhs.shape[size_t(b)]);
  for (int64_t k = 0; k < lhs.rank(); ++k)
    if (!std::count(d.lhsBatch.begin(), d.lhsBatch.end(), k) && !std::count(d.lhsContract.begin(), d.lhsContract.end(), k))
      want.push_back(lhs.shape[size_t(k)]);
  for (int64_t k = 0; k < rhs.rank(); ++k)
    if (!std::count(d.rhsBatch.begin(), d.rhsBatch.end(), k) && !std::count(d.rhsContract.begin(), d.rhsContract.end(), k))
      want.push_back(rhs.shape[size_t(k)]);
  c.resultShapeIs(0, want);
}

// An optional per-spatial-dimension attribute: absent means all `dflt`.
std::vector<int64_t> spatialAttr(const OpCheck &c, const char *attr, size_t S, int64_t dflt, bool positive) {
  std::vector<int64_t> v = c.ints(attr);
  if (v.empty()) return std::vector<int64_t>(S, dflt);
  c.sizeIs(v, S, attr);
  if (positive) c.allPositive(v, attr);
  return v;
}

void checkConvolution(const OpCheck &c) {
  bool dynamic = c.name == "stablehlo.dynamic_conv";
  c.counts(dynamic ? 3 : 2, 1);
  const Tensor &lhs = c.in(0), &rhs = c.in(1);
  c.isTensor(lhs, "lhs");
  c.isTensor(rhs, "rhs");
  std::optional<ConvDims> cd = getConvDims(c.m, c.op);
  if (!cd) c.fail("cannot read dimension_numbers");
  int64_t N = lhs.rank();
  if (rhs.rank() != N) c.fail("lhs " + lhs.typeString() + " and rhs " + rhs.typeString() + " differ in rank");
  if (N < 2) c.fail("operands must have rank 2 or more, not " + std::to_string(N));
  size_t S = size_t(N - 2);
  c.sizeIs(cd->inputSpatial, S, "input spatial dimensions");
  c.sizeIs(cd->kernelSpatial, S, "kernel spatial dimensions");
  c.sizeIs(cd->outputSpatial, S, "output spatial dimensions");
  c.dimsInRange(concat(concat({cd->inputBatch}, cd->inputSpatial), {cd->inputFeature}), N, "input dimensions");
  c.dimsInRange(concat(cd->kernelSpatial, {cd->kernelInput, cd->kernelOutput}), N, "kernel dimensions");
  c.dimsInRange(concat(concat({cd->outputBatch}, cd->outputSpatial), {cd->outputFeature}), N, "output dimensions");
  std::vector<int64_t> strides = spatialAttr(c, "window_strides", S, 1, true),
                       lhsDil = spatialAttr(c, "lhs_dilation", S, 1, true),
                       rhsDil = spatialAttr(c, "rhs_dilation", S, 1, true);
  spatialAttr(c, "window_reversal", S, 0, false);
  std::vector<int64_t> pads;
  if (dynamic) {
    const Tensor &p = c.in(2);
    c.isTensor(p, "padding", 2);
    if (!p.dtype.isInt()) c.fail("padding " + p.typeString() + " is not integers");
    pads = tensorInts(p);
  } else {
    pads = c.ints("padding");
  }
  if (pads.empty()) pads.assign(2 * S, 0);
  if (pads.size() != 2 * S) c.fail("padding " + dimsString(pads) + " must have " + std::to_string(S) + " [low, high] pairs");
  int64_t G = c.I.intAttr(c.op, "feature_group_count", 1), BG = c.I.intAttr(c.op, "batch_group_count", 1);
  if (G <= 0 || BG <= 0) c.fail("feature_group_count and batch_group_count must be positive");
  if (G != 1 && BG != 1) c.fail("feature_group_count and batch_group_count cannot both be above 1");
  int64_t inBatch = lhs.shape[size_t(cd->inputBatch)], inFeature = lhs.shape[size_t(cd->inputFeature)];
  int64_t kIn = rhs.shape[size_t(cd->kernelInput)], kOut = rhs.shape[size_t(cd->kernelOutput)];
  if (inBatch % BG) c.fail("input batch size " + std::to_string(inBatch) + " is not a multiple of batch_group_count");
  if (inFeature % G) c.fail("input feature size " + std::to_string(inFeature) + " is not a multiple of feature_group_count");
  if (kIn != inFeature / G)
    c.fail("kernel input feature size " + std::to_string(kIn) + " must be the input feature size " +
           std::to_string(inFeature) + " / feature_group_count " + std::to_string(G));
  if (kOut % BG || kOut % G)
    c.fail("kernel output feature size " + std::to_string(kOut) + " is not a multiple of the group count");
  std::vector<int64_t> want(size_t(N), 0);
  want[size_t(cd->outputBatch)] = inBatch / BG;
  want[size_t(cd->outputFeature)] = kOut;
  for (size_t s = 0; s < S; ++s)
    want[size_t(cd->outputSpatial[s])] =
        numWindows(lhs.shape[size_t(cd->inputSpatial[s])], lhsDil[s], pads[2 * s], pads[2 * s + 1],
                   rhs.shape[size_t(cd->kernelSpatial[s])], rhsDil[s], strides[s]);
  c.resultShapeIs(0, want);
}

OpCheckRegistration regs[] = {
    {{"stablehlo.dot_general", "stablehlo.dot"}, checkDotGeneral},
    {{"stablehlo.convolution"}, checkConvolution},
    {{"stablehlo.dynamic_conv"}, checkConvolution, /*readsValues=*/true},
};

}  // namespace
}  // namespace autopart::exec
