#include "sim/Memory.h"

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

}  // namespace
}  // namespace autopart
