// stablehlo.rng_bit_generator through the bit generators of exec/Rng.h, bit
// for bit what XLA's CPU/GPU compilers produce for the same state (DEFAULT
// is PHILOX there). Any integer or float result type the spec allows: the
// element takes the low bits of the draw as its bit pattern.
//
//   %s, %o = stablehlo.rng_bit_generator %k, algorithm = THREE_FRY
//       : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
//   %k = [1, 2] -> %s = [1, 6], %o = [[9236835810183407956, 16087790271692313299],
//                                     [18212823393184779219, 2658481902456610144]]
//
// stablehlo.rng is a located error: the spec leaves its numbers
// implementation-defined ("may or may not be deterministic, and may or may
// not use hidden state"), and XLA draws them from a runtime seed and a
// per-executable hidden counter, so no program text fixes its answer.
#include "exec/Interpreter.h"
#include "exec/Rng.h"

namespace autopart::exec {
namespace {

RngAlgorithm algorithmOf(Interpreter &I, OpId op) {
  AttrId a = I.m.attr(op, "rng_algorithm");
  std::string s = a == kNoAttr ? "" : I.m.attrs.str(a);
  if (s.find("THREE_FRY") != std::string::npos) return RngAlgorithm::ThreeFry;
  if (s.find("PHILOX") != std::string::npos) return RngAlgorithm::Philox;
  if (s.find("DEFAULT") != std::string::npos) return RngAlgorithm::Default;
  I.fail(op, "rng_bit_generator without a known rng_algorithm");
}

void rngBitGeneratorOp(Interpreter &I, OpId op) {
  const Tensor &state = I.in(op, 0);
  if (state.dtype.name != "ui64" || state.rank() != 1)
    I.fail(op, "rng_bit_generator's initial_state must be a 1-D tensor of ui64, not " + state.typeString());
  TensorPtr out = I.newUninitializedResult(op, 1);
  const DType &d = out->dtype;
  if (d.isComplex || d.isBool())
    I.fail(op, "rng_bit_generator's output must be of integer or float type, not " + out->typeString());
  std::vector<uint64_t> s(state.data<uint64_t>(), state.data<uint64_t>() + state.numElements());
  RngBits r;
  try {
    r = generateRngBits(algorithmOf(I, op), s, out->shape, d.bits);
  } catch (const std::runtime_error &e) {
    I.fail(op, std::string("rng_bit_generator: ") + e.what());
  }
  // Each element's bits, little-endian at the element's packed width.
  size_t w = packedElementBytes(d);
  std::vector<unsigned char> raw(r.bits.size() * w);
  for (size_t i = 0; i < r.bits.size(); ++i)
    for (size_t b = 0; b < w; ++b) raw[i * w + b] = uint8_t(r.bits[i] >> (8 * b));
  unpackBits(*out, raw.data(), raw.size());
  TensorPtr newState = I.newUninitializedResult(op, 0);
  if (newState->dtype.name != "ui64" || size_t(newState->numElements()) != r.state.size())
    I.fail(op, "rng_bit_generator's output_state must have the initial state's type");
  std::copy(r.state.begin(), r.state.end(), newState->data<uint64_t>());
  I.setResult(op, 0, newState);
  I.setResult(op, 1, out);
}

void rngOp(Interpreter &I, OpId op) {
  I.fail(op,
         "stablehlo.rng is not run: the spec leaves its numbers implementation-defined (XLA draws them from a "
         "runtime seed and hidden per-executable state), so no answer could be checked; use "
         "stablehlo.rng_bit_generator");
}

KernelRegistration reg1({"stablehlo.rng_bit_generator"}, rngBitGeneratorOp);
KernelRegistration reg2({"stablehlo.rng"}, rngOp);

}  // namespace
}  // namespace autopart::exec
