#include "sim/Memory.h"

#include <algorithm>

#include "ir/Module.h"

#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::parse;

std::string chain(const std::string &argAttrs) {
  return "func.func @main(%a: tensor<1024xf32>" + argAttrs + ") -> tensor<1024xf32> {\n"
         "  %0 = stablehlo.exponential %a : tensor<1024xf32>\n"
         "  %1 = stablehlo.exponential %0 : tensor<1024xf32>\n"
         "  %2 = stablehlo.exponential %1 : tensor<1024xf32>\n"
         "  return %2 : tensor<1024xf32>\n}\n";
}

TEST(Memory, DonatedArgumentFreedAtLastUse) {
  // Each buffer is 4 KiB; with %a donated at most two are live at once.
  auto m = parse(chain(" {tf.aliasing_output = 0 : i32}"));
  MemoryReport r = analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m));
  EXPECT_EQ(r.peakBytes, 8192);
  EXPECT_EQ(r.donatedBytes, 4096);
  EXPECT_EQ(r.liveAtPeak.size(), 2u);
}

TEST(Memory, ResidentArgumentStaysLive) {
  auto m = parse(chain(""));
  MemoryReport r = analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m));
  EXPECT_EQ(r.peakBytes, 4096 + 8192);
  EXPECT_EQ(r.argumentBytes, 4096);
}

TEST(Memory, TimelineIsLiveBytesPerOp) {
  // 4 KiB each, %a resident: %0 runs beside %a; %1 beside %a and the %0 it
  // reads, %2 beside %a and %1 (%0 freed); at the return only %a and %2.
  auto m = parse(chain(""));
  MemoryReport r = analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m));
  EXPECT_EQ(r.timeline, (std::vector<int64_t>{8192, 12288, 12288, 8192}));
  EXPECT_EQ(*std::max_element(r.timeline.begin(), r.timeline.end()), r.peakBytes);
  // The search asks for the peak alone and gets no timeline.
  EXPECT_TRUE(analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m), {}, false).timeline.empty());
}

TEST(Memory, BucketMaximaKeepThePeak) {
  EXPECT_EQ(bucketMaxima({1, 5, 2, 2, 9, 3, 4}, 3), (std::vector<size_t>{1, 4, 6}));
  EXPECT_EQ(bucketMaxima({3, 1}, 400), (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(bucketMaxima({}, 400).empty());
  EXPECT_TRUE(bucketMaxima({1, 2}, 0).empty());
  std::vector<int64_t> many(100000, 1);
  many[77777] = 42;
  std::vector<size_t> kept = bucketMaxima(many, 400);
  EXPECT_LE(kept.size(), 400u);
  EXPECT_NE(std::find(kept.begin(), kept.end(), size_t(77777)), kept.end());
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
}

TEST(Memory, ShardedBuffersAndCollectiveBuffers) {
  auto m = parse("sdy.mesh @mesh = <[\"d\"=4]>\n" +
                 chain(" {sdy.sharding = #sdy.sharding<@mesh, [{\"d\"}]>, jax.buffer_donor = true}"));
  ShardingMap map = ShardingMap::fromModule(*m);
  MemoryReport r = analyzeMemory(*m, m->functions()[0], map);
  // Only %a is sharded (1 KiB local); the replicated results are 4 KiB.
  EXPECT_EQ(r.peakBytes, 8192);
  MemoryReport t = analyzeMemory(*m, m->functions()[0], map, [&](OpId op) {
    return m->isa(op, "stablehlo.exponential") ? 4096 : 0;
  });
  EXPECT_EQ(t.peakBytes, 8192 + 4096);
}

// The category of each op's results that is not a terminator, in walk order
// (an op before the ops of its regions).
std::vector<MemoryCategory> resultCategories(const Module &m) {
  OpId func = m.functions()[0];
  std::vector<MemoryCategory> category = valueCategories(m, func), out;
  m.walk(func, [&](OpId op) {
    for (uint32_t r = 0; r < m.numResults(op); ++r) out.push_back(category[m.result(op, r)]);
  });
  return out;
}

void expectBreakdown(const MemoryReport &r, const MemoryBreakdown &expected) {
  int64_t sum = 0;
  for (size_t c = 0; c < kNumMemoryCategories; ++c) {
    EXPECT_EQ(r.breakdown[c], expected[c]) << memoryCategoryName(MemoryCategory(c));
    sum += r.breakdown[c];
  }
  EXPECT_EQ(sum, r.peakBytes);
}

// One SGD-with-momentum step on an 8x4 weight: a bf16 forward dot, the
// weight gradient x^T . y, the new moment and the new weight returned.
constexpr const char *kTrainStep = R"(
func.func @main(%w: tensor<8x4xf32> {jax.arg_info = "params['w']"},
                %m: tensor<8x4xf32> {jax.arg_info = "opt_state['mu']"},
                %x: tensor<2x8xf32> {jax.arg_info = "batch['x']"}) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %wb = stablehlo.convert %w : (tensor<8x4xf32>) -> tensor<8x4xbf16>
  %xb = stablehlo.convert %x : (tensor<2x8xf32>) -> tensor<2x8xbf16>
  %y = stablehlo.dot_general %xb, %wb, contracting_dims = [1] x [0] : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
  %g = stablehlo.dot_general %xb, %y, contracting_dims = [0] x [0] : (tensor<2x8xbf16>, tensor<2x4xbf16>) -> tensor<8x4xbf16>
  %dead = stablehlo.negate %g : tensor<8x4xbf16>
  %gf = stablehlo.convert %g : (tensor<8x4xbf16>) -> tensor<8x4xf32>
  %lr = stablehlo.constant dense<1.000000e-01> : tensor<8x4xf32>
  %m1 = stablehlo.add %m, %gf : tensor<8x4xf32>
  %s = stablehlo.multiply %lr, %m1 : tensor<8x4xf32>
  %w1 = stablehlo.subtract %w, %s : tensor<8x4xf32>
  return %w1, %m1 : tensor<8x4xf32>, tensor<8x4xf32>
}
)";

TEST(Memory, CategoriesOfATrainingStep) {
  auto m = parse(kTrainStep);
  using C = MemoryCategory;
  // %wb a cast of the weight; %xb and %y depend on data; %g and %gf are
  // weight-shaped and reach the returned state, %dead is weight-shaped but
  // reaches nothing; %lr only a constant; %m1 is returned as the moment, %w1
  // as the weight; %s is the scaled gradient.
  EXPECT_EQ(resultCategories(*m), (std::vector<C>{C::Parameters, C::Activations, C::Activations, C::Gradients,
                                                  C::Activations, C::Gradients, C::Other, C::OptimizerState, C::Gradients,
                                                  C::Parameters}));
  FuncView f{*m, m->functions()[0]};
  std::vector<MemoryCategory> category = valueCategories(*m, f.op);
  EXPECT_EQ(category[f.args()[0]], C::Parameters);
  EXPECT_EQ(category[f.args()[1]], C::OptimizerState);
  EXPECT_EQ(category[f.args()[2]], C::Inputs);
}

TEST(Memory, BreakdownOfATrainingStepPeak) {
  // Arguments: w 128 B, m 128 B, x 64 B, all resident. The splat %lr holds
  // no buffer (XLA fuses it into its consumer). The peak (704 B) is reached
  // at %w1: arguments + %m1 128 + %s 128 + %w1 128.
  auto m = parse(kTrainStep);
  MemoryReport r = analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m));
  EXPECT_EQ(r.peakBytes, 704);
  //                 params     opt        grads act inputs coll other
  expectBreakdown(r, {128 + 128, 128 + 128, 128, 0, 64, 0, 0});

  // 1000 B of collective buffers at the gradient dot move the peak there:
  // arguments + %xb 32 + %y 16 (activations) + %g 64 (gradient) + 1000.
  MemoryReport t = analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m), [&](OpId op) {
    return m->isa(op, "stablehlo.dot_general") && m->numOperands(op) == 2 &&
                   m->types.shape(m->type(m->result(op))) == std::vector<int64_t>{8, 4}
               ? 1000
               : 0;
  });
  EXPECT_EQ(t.peakBytes, 320 + 32 + 16 + 64 + 1000);
  expectBreakdown(t, {128, 128, 64, 32 + 16, 64, 1000, 0});

  // The search's path leaves it empty.
  MemoryReport fast = analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m), {}, false);
  EXPECT_EQ(fast.peakBytes, 704);
  EXPECT_EQ(fast.breakdown, MemoryBreakdown{});
}

// Gradient accumulation in a loop: each iteration adds x^T . (x . w) to the
// accumulator, which updates w after the loop.
constexpr const char *kLoopStep = R"(
func.func @main(%w: tensor<8x4xf32> {jax.arg_info = "params['w']"},
                %x: tensor<2x8xf32> {jax.arg_info = "batch['x']"}) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<8x4xf32>
  %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i64>, tensor<8x4xf32>
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i64>
    %p = stablehlo.compare LT, %i, %c3 : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i64>
    %i1 = stablehlo.add %i, %c1 : tensor<i64>
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    %g = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<2x8xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
    %acc1 = stablehlo.add %acc, %g : tensor<8x4xf32>
    stablehlo.return %i1, %acc1 : tensor<i64>, tensor<8x4xf32>
  }
  %w1 = stablehlo.subtract %w, %r#1 : tensor<8x4xf32>
  return %w1 : tensor<8x4xf32>
}
)";

TEST(Memory, CategoriesInsideALoop) {
  auto m = parse(kLoopStep);
  using C = MemoryCategory;
  // c0, z, the loop's counter and accumulator, cond's c3 and p, body's c1,
  // i1, y, g, acc1, then w1. The accumulator turns data-dependent through
  // what the body returns at its position; the counter never does.
  EXPECT_EQ(resultCategories(*m),
            (std::vector<C>{C::Other, C::Other, C::Other, C::Gradients, C::Other, C::Other, C::Other, C::Other,
                            C::Activations, C::Gradients, C::Gradients, C::Parameters}));
}

TEST(Memory, BreakdownOfAPeakInsideALoop) {
  // Resident w 128 + x 64. At the loop: c0 8, which the loop updates in
  // place (its result aliases it: nothing reads c0 afterwards), the
  // accumulator 128 (a fresh buffer: its initial value, the splat z, holds
  // none), and the body's peak at %acc1: i1 8 + g 128 + acc1 128.
  auto m = parse(kLoopStep);
  MemoryReport r = analyzeMemory(*m, m->functions()[0], ShardingMap::fromModule(*m));
  EXPECT_EQ(r.peakBytes, 192 + 8 + 128 + 264);
  // Gradients: the accumulator, g and acc1; other: c0 (holding the
  // counter) and i1.
  expectBreakdown(r, {128, 0, 128 + 128 + 128, 0, 64, 0, 8 + 8});
}

}  // namespace
}  // namespace autopart
