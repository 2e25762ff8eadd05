// stablehlo.rng_bit_generator against published known answers:
//
// * Random123's tests/kat_vectors (DEShawResearch/random123), the
//   "threefry2x32 20" and "philox4x32 10" lines: counter, key -> result.
//   TensorFlow's XLA random-op tests use the same three Threefry vectors for
//   XLA's generator.
// * The StableHLO spec's rng_bit_generator example (docs/spec.md): state
//   [1, 2], THREE_FRY, 2x2xui64.
// * XLA's CPU output printed in r-xla/anvil's documentation
//   (reference/nvl_rng_bit_generator.md): state [0, 0], THREE_FRY, 3x2xui32
//   -> 1.7973e9 2.5791e9 / 1.3515e9 3.2358e9 / 1.6886e9 4.2293e9, state [0, 3].
//
// PHILOX has no published end-to-end vector of XLA's; its tests feed the
// Random123 vectors through the state layout of XLA's RngBitGeneratorExpander
// (key = state[0], counter = (state[1], state[2] or state[0])).
#include <gtest/gtest.h>

#include "exec/Rng.h"
#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

TEST(ExecRng, ThreefryMatchesRandom123KnownAnswers) {
  using A = std::array<uint32_t, 2>;
  EXPECT_EQ(threefry2x32(A{0, 0}, A{0, 0}), (A{0x6b200159, 0x99ba4efe}));
  EXPECT_EQ(threefry2x32(A{0xffffffff, 0xffffffff}, A{0xffffffff, 0xffffffff}), (A{0x1cb996fc, 0xbb002be7}));
  EXPECT_EQ(threefry2x32(A{0x13198a2e, 0x03707344}, A{0x243f6a88, 0x85a308d3}), (A{0xc4923a9c, 0x483df7a0}));
}

TEST(ExecRng, PhiloxMatchesRandom123KnownAnswers) {
  using C = std::array<uint32_t, 4>;
  using K = std::array<uint32_t, 2>;
  EXPECT_EQ(philox4x32(C{0, 0, 0, 0}, K{0, 0}), (C{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32(C{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, K{0xffffffff, 0xffffffff}),
            (C{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32(C{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, K{0xa4093822, 0x299f31d0}),
            (C{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(ExecRng, ThreeFryLaysOutBlocksAsXla) {
  // 32-bit elements: the halves of one block are neighbours along the first
  // even dimension (here dimension 1 of 3x2); 3 blocks, state + 3.
  RngBits r = generateRngBits(RngAlgorithm::ThreeFry, {0, 0}, {3, 2}, 32);
  EXPECT_EQ(r.bits, (std::vector<uint64_t>{0x6b200159, 0x99ba4efe, 1351547692, 3235790642, 1688610540, 4229293427}));
  EXPECT_EQ(r.state, (std::vector<uint64_t>{0, 3}));
  // No even dimension: the largest (5) is halved and rounded up, 3 blocks;
  // the sixth draw is dropped.
  RngBits odd = generateRngBits(RngAlgorithm::ThreeFry, {0, 0}, {5}, 32);
  EXPECT_EQ(odd.bits, (std::vector<uint64_t>{0x6b200159, 0x99ba4efe, 1351547692, 3235790642, 1688610540}));
  EXPECT_EQ(odd.state, (std::vector<uint64_t>{0, 3}));
  // Narrow elements keep the low bits of the 32-bit draw.
  RngBits u8 = generateRngBits(RngAlgorithm::ThreeFry, {0, 0}, {2}, 8);
  EXPECT_EQ(u8.bits, (std::vector<uint64_t>{0x59, 0xfe}));
}

TEST(ExecRng, PhiloxUsesTheStateAsXlasExpanderDoes) {
  // Three words: key, counter low, counter high.
  RngBits r = generateRngBits(RngAlgorithm::Philox, {0x299f31d0a4093822, 0x85a308d3243f6a88, 0x0370734413198a2e},
                              {4}, 32);
  EXPECT_EQ(r.bits, (std::vector<uint64_t>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  EXPECT_EQ(r.state, (std::vector<uint64_t>{0x299f31d0a4093822, 0x85a308d3243f6a89, 0x0370734413198a2e}));
  // Two words: the counter's high half is the key; 64-bit elements take words
  // 0|1 and 2|3 of a block; the counter's low half carries into the high.
  RngBits two = generateRngBits(RngAlgorithm::Philox, {0, 0}, {2}, 64);
  EXPECT_EQ(two.bits, (std::vector<uint64_t>{0xe169c58d6627e8d5, 0x9b00dbd8bc57ac4c}));
  EXPECT_EQ(two.state, (std::vector<uint64_t>{0, 1}));
  RngBits wrap = generateRngBits(RngAlgorithm::Philox, {0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff},
                                 {4}, 32);
  EXPECT_EQ(wrap.bits, (std::vector<uint64_t>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(wrap.state, (std::vector<uint64_t>{0xffffffffffffffff, 0, 0}));
}

RunResult run(const std::string &text) {
  std::unique_ptr<Module> m = testing::parse(text);
  if (!m) return {};
  return runModule(*m, {"", "zeros", 0, {}});
}

TEST(ExecRng, TheSpecExampleRunsBitExact) {
  RunResult r = run(R"(func.func @f() {
  %k = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %s, %o = stablehlo.rng_bit_generator %k, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  check.expect_eq_const %s, dense<[1, 6]> : tensor<2xui64>
  check.expect_eq_const %o, dense<[[9236835810183407956, 16087790271692313299], [18212823393184779219, 2658481902456610144]]> : tensor<2x2xui64>
  func.return
})");
  EXPECT_EQ(r.checksTotal, 2);
  EXPECT_EQ(r.checksPassed, 2);
  EXPECT_TRUE(r.ok());
}

TEST(ExecRng, OutputTypesTakeTheBitsAsTheirPattern) {
  // DEFAULT is PHILOX (XLA's CPU and GPU compilers); f32 reads the 32-bit
  // words as float bit patterns, i4 their low 4 bits (0x...d5 -> 5, 0x...8d -> -3).
  RunResult r = run(R"(func.func @f() {
  %k = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
  %s, %o = stablehlo.rng_bit_generator %k, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui32>)
  check.expect_eq_const %o, dense<[0x6627e8d5, 0xe169c58d]> : tensor<2xui32>
  %s2, %f = stablehlo.rng_bit_generator %k, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xf32>)
  %b = stablehlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2xui32>
  check.expect_eq_const %b, dense<[0x6627e8d5, 0xe169c58d]> : tensor<2xui32>
  %s3, %n = stablehlo.rng_bit_generator %k, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xi4>)
  check.expect_eq_const %n, dense<[5, -3]> : tensor<2xi4>
  check.expect_eq_const %s3, dense<[0, 1]> : tensor<2xui64>
  func.return
})");
  EXPECT_EQ(r.checksTotal, 4);
  EXPECT_EQ(r.checksPassed, 4);
  EXPECT_TRUE(r.ok());
}

TEST(ExecRng, BadStatesAndRngAreLocatedErrors) {
  std::unique_ptr<Module> m = testing::parse(R"(func.func @main() -> tensor<2xui32> {
  %k = stablehlo.constant dense<[0, 0, 0]> : tensor<3xui64>
  %s, %o = stablehlo.rng_bit_generator %k, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2xui32>)
  return %o : tensor<2xui32>
})");
  RunResult r = runModule(*m, {});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_TRUE(r.functions[0].failed);
  EXPECT_EQ(m->where(r.functions[0].errorOp), "t.mlir:3:12");
  EXPECT_NE(r.functions[0].error.find("THREE_FRY needs a state of 2"), std::string::npos);

  std::unique_ptr<Module> rng = testing::parse(R"(func.func @main() -> tensor<3xf32> {
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.constant dense<1.0> : tensor<f32>
  %shape = stablehlo.constant dense<3> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  return %r : tensor<3xf32>
})");
  RunResult rr = runModule(*rng, {});
  ASSERT_EQ(rr.functions.size(), 1u);
  EXPECT_TRUE(rr.functions[0].failed);
  EXPECT_EQ(rng->where(rr.functions[0].errorOp), "t.mlir:5:8");
  EXPECT_NE(rr.functions[0].error.find("implementation-defined"), std::string::npos);
}

}  // namespace
}  // namespace autopart::exec
