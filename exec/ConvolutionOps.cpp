// stablehlo.convolution as im2col + GEMM: operands converted to the result's
// element type and permuted to [N, spatial..., C] / [spatial..., I, O]; per
// output batch and group, the windows of the input become the rows of a
// matrix (zeros for padding and lhs-dilation holes) multiplied by the
// group's kernel slice (consecutive images stacked into one product); the
// [N, spatial..., O] product is permuted to the result's layout. Strides,
// padding, lhs/rhs dilation, window reversal, feature_group_count and
// batch_group_count follow the spec.
//
//   conv [b,0,1,f]x[0,1,i,o]->[b,0,1,f], 8x56x56x64 * 3x3x64x64, pad 1
//     -> per image 3136 x 576 rows; 2 images per GEMM: (6272 x 576) * (576 x 64)
#include <algorithm>

#include "exec/Gemm.h"
#include "exec/Interpreter.h"
#include "ir/StablehloAttrs.h"

namespace autopart::exec {
namespace {

// Elements of the im2col matrix built at once (16 MB of f32).
constexpr int64_t kColsBudget = int64_t(4) << 20;

// For each (output position, window position): the input's spatial offset
// in the [N, spatial..., C] layout, or -1 for padding and lhs-dilation holes.
// Shared by all batches and groups.
std::vector<int64_t> windowOffsets(const std::vector<int64_t> &xShape, const std::vector<int64_t> &kShape,
                                   const std::vector<int64_t> &outShape, const std::vector<int64_t> &strides,
                                   const std::vector<int64_t> &lhsDil, const std::vector<int64_t> &rhsDil,
                                   const std::vector<int64_t> &reversal,
                                   const std::vector<std::pair<int64_t, int64_t>> &pads) {
  size_t S = strides.size();
  int64_t P = 1, W = 1;
  for (size_t s = 0; s < S; ++s) {
    P *= outShape[1 + s];
    W *= kShape[s];
  }
  std::vector<int64_t> xs = stridesOf(xShape), out(static_cast<size_t>(P * W)), pi(S, 0), wi(S, 0);
  for (int64_t p = 0; p < P; ++p) {
    std::fill(wi.begin(), wi.end(), 0);
    for (int64_t w = 0; w < W; ++w) {
      int64_t off = 0;
      for (size_t s = 0; s < S; ++s) {
        int64_t kw = reversal[s] ? kShape[s] - 1 - wi[s] : wi[s];
        int64_t pos = pi[s] * strides[s] + kw * rhsDil[s] - pads[s].first;
        if (pos < 0 || pos % lhsDil[s] || pos / lhsDil[s] >= xShape[1 + s]) {
          off = -1;
          break;
        }
        off += pos / lhsDil[s] * xs[1 + s];
      }
      out[size_t(p * W + w)] = off;
      for (size_t s = S; s-- > 0;) {
        if (++wi[s] < kShape[s]) break;
        wi[s] = 0;
      }
    }
    for (size_t s = S; s-- > 0;) {
      if (++pi[s] < outShape[1 + s]) break;
      pi[s] = 0;
    }
  }
  return out;
}

void convolutionOp(Interpreter &I, OpId op) {
  std::optional<ConvDims> cd = getConvDims(I.m, op);
  if (!cd) I.fail(op, "cannot read the convolution dimension numbers");
  DType rd = I.resultDType(op);
  TensorPtr lhs = I.operand(op, 0), rhs = I.operand(op, 1);
  if (!(lhs->dtype == rd)) lhs = convertTensor(*lhs, rd);
  if (!(rhs->dtype == rd)) rhs = convertTensor(*rhs, rd);
  size_t S = cd->inputSpatial.size();
  std::vector<int64_t> lorder{cd->inputBatch}, korder = cd->kernelSpatial, oorder{cd->outputBatch};
  lorder.insert(lorder.end(), cd->inputSpatial.begin(), cd->inputSpatial.end());
  lorder.push_back(cd->inputFeature);
  korder.push_back(cd->kernelInput);
  korder.push_back(cd->kernelOutput);
  oorder.insert(oorder.end(), cd->outputSpatial.begin(), cd->outputSpatial.end());
  oorder.push_back(cd->outputFeature);
  TensorPtr x = permuteDims(lhs, lorder), k = permuteDims(rhs, korder);
  TensorPtr result = I.newResult(op);
  std::vector<int64_t> outShape;
  for (int64_t d : oorder) outShape.push_back(result->shape[d]);
  TensorPtr out = makeUninitialized(rd, outShape);  // gemm writes every element

  std::vector<int64_t> strides = I.ints(op, "window_strides"), lhsDil = I.ints(op, "lhs_dilation"),
                       rhsDil = I.ints(op, "rhs_dilation"), reversal = I.ints(op, "window_reversal");
  auto pads = I.pairs(op, "padding");
  if (I.m.numOperands(op) == 3) {  // dynamic_conv: padding is an operand
    std::vector<int64_t> flat = tensorInts(I.in(op, 2));
    pads.clear();
    for (size_t i = 0; i + 1 < flat.size(); i += 2) pads.push_back({flat[i], flat[i + 1]});
  }
  strides.resize(S, 1), lhsDil.resize(S, 1), rhsDil.resize(S, 1), reversal.resize(S, 0), pads.resize(S, {0, 0});
  for (size_t s = 0; s < S; ++s) {
    if (strides[s] == 0) strides[s] = 1;
    if (lhsDil[s] == 0) lhsDil[s] = 1;
    if (rhsDil[s] == 0) rhsDil[s] = 1;
  }
  int64_t G = I.intAttr(op, "feature_group_count", 1), BG = I.intAttr(op, "batch_group_count", 1);
  int64_t C = x->shape[S + 1], Nout = outShape[0], O = outShape[S + 1];
  int64_t Ik = k->shape[S], Ok = k->shape[S + 1];
  int64_t groups = G * BG, Og = Ok / groups;
  int64_t P = 1, W = 1;
  for (size_t s = 0; s < S; ++s) {
    P *= outShape[1 + s];
    W *= k->shape[s];
  }
  int64_t Kc = W * Ik;
  if (O != Ok || (G > 1 && C != G * Ik) || (G == 1 && C != Ik)) I.fail(op, "convolution operand shapes do not match");
  std::vector<int64_t> xs = stridesOf(x->shape);
  std::vector<int64_t> spatialOff = windowOffsets(x->shape, k->shape, outShape, strides, lhsDil, rhsDil, reversal, pads);
  // Several images share one GEMM (their output rows are consecutive): few
  // large products instead of one small product per image, which matters
  // for backward convolutions (weight gradients have P = the kernel's
  // window, e.g. 9 rows per image) and when threads are scarce.
  int64_t perImage = std::max<int64_t>(1, P * Kc);
  int64_t chunk = std::clamp<int64_t>(kColsBudget / perImage, 1, std::max<int64_t>(Nout, 1));
  visitStorage(rd.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> cols(size_t(std::min(chunk, std::max<int64_t>(Nout, 1)) * perImage));
    const T *xd = x->data<T>(), *kd = k->data<T>();
    T *od = out->data<T>();
    for (int64_t n0 = 0; n0 < Nout; n0 += chunk) {
      int64_t nb = std::min(chunk, Nout - n0);
      for (int64_t q = 0; q < groups; ++q) {
        int64_t cIn = G > 1 ? q * Ik : 0;
        for (int64_t n = n0; n < n0 + nb; ++n) {
          int64_t nIn = BG > 1 ? q * Nout + n : n;
          const T *base = xd + nIn * xs[0] + cIn;
          for (int64_t p = 0; p < P; ++p) {
            T *row = cols.data() + ((n - n0) * P + p) * Kc;
            for (int64_t w = 0; w < W; ++w) {
              int64_t off = spatialOff[size_t(p * W + w)];
              T *dst = row + w * Ik;
              if (off < 0) std::fill(dst, dst + Ik, T(0));
              else std::copy(base + off, base + off + Ik, dst);
            }
          }
        }
        gemm<T>(nb * P, Og, Kc, cols.data(), Kc, kd + q * Og, Ok, od + n0 * P * O + q * Og, O);
      }
    }
  });
  normalize(*out);
  // Back to the result's layout: result dim oorder[i] is out's dim i.
  std::vector<int64_t> inverse(oorder.size());
  for (size_t i = 0; i < oorder.size(); ++i) inverse[size_t(oorder[i])] = int64_t(i);
  I.setResult(op, 0, permuteDims(out, inverse));
}

KernelRegistration regs[] = {{{"stablehlo.convolution", "stablehlo.dynamic_conv"}, convolutionOp}};

}  // namespace
}  // namespace autopart::exec
