// The axis relations propagation adds to AxisList, on small hand-made meshes.
#include <gtest/gtest.h>

#include "ir/AxisList.h"

namespace autopart {
namespace {

Mesh mesh(std::vector<MeshAxis> axes) { return Mesh{std::move(axes), {}}; }
AxisRef full(const char *n) { return AxisRef{n, 0, 0}; }
AxisRef sub(const char *n, int64_t pre, int64_t size) { return AxisRef{n, pre, size}; }

TEST(AxisList, PrefixAndContainment) {
  Mesh m = mesh({{"x", 8}});
  EXPECT_TRUE(axisPrefixOf(sub("x", 1, 2), full("x"), m));
  EXPECT_TRUE(axisPrefixOf(full("x"), full("x"), m));
  EXPECT_FALSE(axisPrefixOf(sub("x", 2, 2), full("x"), m));
  EXPECT_TRUE(axisContains(full("x"), sub("x", 2, 2), m));
  EXPECT_FALSE(axisContains(sub("x", 1, 2), sub("x", 2, 2), m));
  EXPECT_EQ(axisEnd(sub("x", 2, 2), m), 4);
  EXPECT_EQ(axisEnd(full("x"), m), 8);
}

TEST(AxisList, PrefixWithoutOverlapKeepsTheMajorFreePart) {
  Mesh m = mesh({{"x", 8}, {"y", 2}});
  EXPECT_EQ(prefixWithoutOverlap(full("x"), {sub("x", 4, 2)}, m), sub("x", 1, 4));
  EXPECT_EQ(prefixWithoutOverlap(full("x"), {full("y")}, m), full("x"));
  EXPECT_EQ(prefixWithoutOverlap(sub("x", 2, 4), {sub("x", 1, 2)}, m), sub("x", 2, 4));
  EXPECT_EQ(prefixWithoutOverlap(sub("x", 2, 4), {sub("x", 2, 2)}, m), std::nullopt);
  EXPECT_EQ(prefixWithoutOverlap(full("x"), {sub("x", 1, 2)}, m), std::nullopt);
}

TEST(AxisList, SubAxesOfDifferentDecompositionsCannotCoexist) {
  Mesh m = mesh({{"a", 6}});
  EXPECT_FALSE(canCoexist(sub("a", 1, 2), sub("a", 3, 2), m));
  EXPECT_TRUE(canCoexist(sub("a", 1, 2), sub("a", 2, 3), m));
  EXPECT_EQ(prefixWithoutOverlap(sub("a", 1, 2), {sub("a", 3, 2)}, m), std::nullopt);
}

TEST(AxisList, AppendOrMergeJoinsAbuttingSubAxes) {
  Mesh m = mesh({{"x", 8}});
  AxisList l = {sub("x", 1, 2)};
  appendOrMerge(l, sub("x", 2, 4), m);
  EXPECT_EQ(l, AxisList({full("x")}));
  AxisList k = {sub("x", 1, 2)};
  appendOrMerge(k, sub("x", 4, 2), m);
  EXPECT_EQ(k.size(), 2u);
}

TEST(AxisList, MeshOrderIsAxisIndexThenMajorSubAxesFirst) {
  Mesh m = mesh({{"x", 8}, {"y", 2}});
  AxisList l = {full("y"), sub("x", 4, 2), sub("x", 1, 2)};
  EXPECT_FALSE(isSortedByMesh(l, m));
  sortByMesh(l, m);
  EXPECT_EQ(l, AxisList({sub("x", 1, 2), sub("x", 4, 2), full("y")}));
  EXPECT_TRUE(isSortedByMesh(l, m));
  EXPECT_EQ(axisListStr(l), R"({"x":(1)2, "x":(4)2, "y"})");
  EXPECT_EQ(axisListStr(l, "[]"), R"(["x":(1)2, "x":(4)2, "y"])");
}

TEST(AxisList, SubtractKeepsTheUncoveredSubAxes) {
  Mesh m = mesh({{"x", 16}, {"y", 2}});
  // A middle piece removed leaves both ends; untouched axes stay whole.
  EXPECT_EQ(subtractAxes({full("x"), full("y")}, {sub("x", 4, 2)}, m),
            AxisList({sub("x", 1, 4), sub("x", 8, 2), full("y")}));
  EXPECT_EQ(subtractAxes({sub("x", 2, 8)}, {sub("x", 4, 2)}, m), AxisList({sub("x", 2, 2), sub("x", 8, 2)}));
  EXPECT_EQ(subtractAxes({full("x")}, {sub("x", 1, 8)}, m), AxisList({sub("x", 8, 2)}));
  // Fully covered axes vanish; the rest keeps its order.
  EXPECT_EQ(subtractAxes({full("y"), sub("x", 1, 2)}, {full("y")}, m), AxisList({sub("x", 1, 2)}));
  EXPECT_EQ(subtractAxes({full("y"), full("x")}, {}, m), AxisList({full("y"), full("x")}));
  EXPECT_TRUE(subtractAxes({sub("x", 2, 4)}, {full("x")}, m).empty());
}

}  // namespace
}  // namespace autopart
