#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "exec/DenseLiteral.h"
#include "exec/FloatFormat.h"

namespace autopart::exec {
namespace {

TEST(ExecFloatFormat, RoundsToTheNearestValueOfTheFormat) {
  FloatFormat f8 = floatFormatByName("f8E4M3FN");
  EXPECT_EQ(f8.maxFinite(), 448);
  EXPECT_EQ(f8.round(0.3), 0.3125);
  EXPECT_TRUE(std::isnan(f8.round(500)));  // no infinity in *FN formats
  EXPECT_EQ(f8.encode(1.0), 0x38u);
  EXPECT_EQ(f8.decode(0x38), 1.0);
  EXPECT_TRUE(std::isnan(f8.decode(0x7f)));
  FloatFormat bf16 = floatFormatByName("bf16");
  EXPECT_EQ(bf16.round(1.0 + 1.0 / 256), 1.0);  // a tie rounds to even
  EXPECT_EQ(bf16.round(1.0 + 3.0 / 256), 1.0 + 4.0 / 256);
  FloatFormat f16 = floatFormatByName("f16");
  EXPECT_TRUE(std::isinf(f16.round(65520)));
  EXPECT_EQ(f16.round(65504), 65504);
  EXPECT_EQ(f16.encode(-2.0), 0xc000u);
  EXPECT_EQ(f16.decode(0x0001), std::ldexp(1.0, -24));  // smallest subnormal
  FloatFormat fnuz = floatFormatByName("f8E4M3FNUZ");
  EXPECT_EQ(fnuz.encode(-0.0), 0u);  // no negative zero
  EXPECT_TRUE(std::isnan(fnuz.decode(0x80)));
}

TEST(ExecDenseLiteral, ReadsListsSplatsHexComplexAndBools) {
  DType f32 = dtypeByName("f32"), i4 = dtypeByName("i4"), c64 = dtypeByName("complex<f32>"), i1 = dtypeByName("i1");
  TensorPtr a = decodeDense("[[1.5, -2], [nan, -inf]]", f32, {2, 2});
  EXPECT_EQ(a->data<float>()[0], 1.5f);
  EXPECT_TRUE(std::isnan(a->data<float>()[2]));
  EXPECT_TRUE(std::isinf(a->data<float>()[3]));
  TensorPtr s = decodeDense("0.25", f32, {3});
  EXPECT_EQ(s->data<float>()[2], 0.25f);
  TensorPtr h = decodeDense("\"0x0000803F00000040\"", f32, {2});
  EXPECT_EQ(h->data<float>()[0], 1.0f);
  EXPECT_EQ(h->data<float>()[1], 2.0f);
  TensorPtr w = decodeDense("[7, -8]", i4, {2});
  EXPECT_EQ(w->data<int8_t>()[1], -8);
  TensorPtr c = decodeDense("[(1.0, -2.0), (0x3F800000, 0.0)]", c64, {2});
  EXPECT_EQ(c->data<std::complex<float>>()[0], std::complex<float>(1, -2));
  EXPECT_EQ(c->data<std::complex<float>>()[1].real(), 1.0f);
  TensorPtr b = decodeDense("[true, false]", i1, {2});
  EXPECT_EQ(b->data<uint8_t>()[0], 1);
  EXPECT_THROW(decodeDense("[1, 2, 3]", f32, {2}), std::runtime_error);
}

// MLIR prints i1 tensors in hex one bit per element, least significant bit
// first (deepseek_v3's 16384-element masks are 2048 bytes).
TEST(ExecDenseLiteral, ReadsBitPackedBoolHex) {
  DType i1 = dtypeByName("i1");
  TensorPtr b = decodeDense("\"0x0501\"", i1, {16});
  std::vector<uint8_t> want = {1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(std::vector<uint8_t>(b->data<uint8_t>(), b->data<uint8_t>() + 16), want);
  TensorPtr splat = decodeDense("\"0xFF\"", i1, {5});
  for (int i = 0; i < 5; ++i) EXPECT_EQ(splat->data<uint8_t>()[i], 1);
  TensorPtr bytes = decodeDense("\"0x0100\"", i1, {2});  // one byte per element
  EXPECT_EQ(bytes->data<uint8_t>()[0], 1);
  EXPECT_EQ(bytes->data<uint8_t>()[1], 0);
}

TEST(ExecTensor, ConvertSaturatesAndWraps) {
  TensorPtr f = decodeDense("[300.7, -1e10, nan]", dtypeByName("f32"), {3});
  TensorPtr i8 = convertTensor(*f, dtypeByName("i8"));
  EXPECT_EQ(i8->data<int8_t>()[0], 127);
  EXPECT_EQ(i8->data<int8_t>()[1], -128);
  EXPECT_EQ(i8->data<int8_t>()[2], 0);
  TensorPtr big = decodeDense("[9, -9]", dtypeByName("i64"), {2});
  TensorPtr i4 = convertTensor(*big, dtypeByName("i4"));
  EXPECT_EQ(i4->data<int8_t>()[0], -7);  // 9 wraps in 4 bits
  EXPECT_EQ(i4->data<int8_t>()[1], 7);
}

}  // namespace
}  // namespace autopart::exec
