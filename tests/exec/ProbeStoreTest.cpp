// exec/ProbeStore: probe values come back by id and iteration, from memory
// or from a given directory; memory is bounded.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "exec/ProbeStore.h"

using namespace autopart::exec;

namespace {

TensorPtr i64s(std::vector<int64_t> v) {
  TensorPtr t = makeTensor(dtypeByName("i64"), {int64_t(v.size())});
  for (size_t i = 0; i < v.size(); ++i) t->data<int64_t>()[i] = v[i];
  return t;
}

TEST(ProbeStoreTest, IterationsComeBackInOrder) {
  ProbeStore s;
  s.write("sum/0", *i64s({1, 2}));
  s.write("sum/0", *i64s({3, 4}));
  s.write("sum_0", *i64s({5, 6}));  // sanitizes like "sum/0", stays apart
  std::string why;
  TensorPtr second = s.read("sum/0", 1, *i64s({0, 0}), why);
  ASSERT_TRUE(second) << why;
  EXPECT_EQ(second->data<int64_t>()[0], 3);
  TensorPtr other = s.read("sum_0", 0, *i64s({0, 0}), why);
  ASSERT_TRUE(other) << why;
  EXPECT_EQ(other->data<int64_t>()[1], 6);
  EXPECT_FALSE(s.read("sum/0", 2, *i64s({0, 0}), why));
  EXPECT_NE(why.find("no iteration 2"), std::string::npos) << why;
}

TEST(ProbeStoreTest, AnotherTypeIsReported) {
  ProbeStore s;
  s.write("p", *i64s({1, 2}));
  std::string why;
  EXPECT_FALSE(s.read("p", 0, *i64s({1, 2, 3}), why));
  EXPECT_NE(why.find("tensor<2xi64>"), std::string::npos) << why;
}

TEST(ProbeStoreTest, NothingWrittenNothingRead) {
  ProbeStore s;
  std::string why;
  EXPECT_FALSE(s.read("p", 0, *i64s({1}), why));
  EXPECT_FALSE(why.empty());
}

// A probe in a loop that never ends must stop with an error, not fill the
// machine (before, each execution was a file in /tmp).
TEST(ProbeStoreTest, MemoryIsBounded) {
  ProbeStore s({}, 32);
  s.write("p", *i64s({1, 2}));
  s.write("p", *i64s({3, 4}));
  EXPECT_THROW(s.write("p", *i64s({5})), std::runtime_error);
}

TEST(ProbeStoreTest, GivenDirectoryRoundTrips) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("autopart-probe-store-rt-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ProbeStore s(dir.string());
  s.write("p", *i64s({7, 8}));
  std::string why;
  TensorPtr back = s.read("p", 0, *i64s({0, 0}), why);
  ASSERT_TRUE(back) << why;
  EXPECT_EQ(back->data<int64_t>()[1], 8);
  std::filesystem::remove_all(dir);
}

TEST(ProbeStoreTest, GivenDirectoryIsKept) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("autopart-probe-store-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    ProbeStore s(dir.string());
    s.write("p", *i64s({7}));
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "index.csv"));
  std::filesystem::remove_all(dir);
}

}  // namespace
