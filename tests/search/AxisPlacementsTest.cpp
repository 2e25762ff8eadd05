// Placements of whole mesh axes on a tensor's dimensions
// (search/AxisPlacements.h), as the refinement and the ILP enumerate them.
#include "search/AxisPlacements.h"

#include <gtest/gtest.h>

namespace autopart {
namespace {

Mesh dataModel() {
  Mesh mesh;
  mesh.axes = {{"data", 2}, {"model", 4}};
  return mesh;
}

std::vector<std::string> bodies(const std::vector<TensorSharding> &list) {
  std::vector<std::string> out;
  for (const TensorSharding &s : list) out.push_back(s.strBody());
  return out;
}

TEST(AxisPlacements, EachAxisOnAtMostOneDimensionThatItDivides) {
  std::vector<TensorSharding> got = everyAxisPlacement("mesh", dataModel(), {"data", "model"}, {8, 6});
  // [{}, {"model"}] and [{"data"}, {"model"}] are left out: 4 does not divide 6.
  EXPECT_EQ(bodies(got), (std::vector<std::string>{
                             R"(<@mesh, [{}, {}]>)",
                             R"(<@mesh, [{"data"}, {}]>)",
                             R"(<@mesh, [{}, {"data"}]>)",
                             R"(<@mesh, [{"model"}, {}]>)",
                             R"(<@mesh, [{"data", "model"}, {}]>)",
                             R"(<@mesh, [{"model"}, {"data"}]>)",
                         }));
}

TEST(AxisPlacements, AxesShareADimensionInTheGivenOrderAndOnlyWhenTheProductDivides) {
  // 8 takes "data" and "model" together (2 * 4); 4 takes either, not both.
  std::vector<TensorSharding> wide = everyAxisPlacement("mesh", dataModel(), {"model", "data"}, {8});
  EXPECT_EQ(bodies(wide), (std::vector<std::string>{R"(<@mesh, [{}]>)", R"(<@mesh, [{"model"}]>)",
                                                    R"(<@mesh, [{"data"}]>)", R"(<@mesh, [{"model", "data"}]>)"}));
  std::vector<TensorSharding> narrow = everyAxisPlacement("mesh", dataModel(), {"data", "model"}, {4});
  EXPECT_EQ(narrow.size(), 3u);
  // A scalar and an empty axis list: only the replicated sharding.
  EXPECT_EQ(bodies(everyAxisPlacement("mesh", dataModel(), {"data"}, {})),
            (std::vector<std::string>{R"(<@mesh, []>)"}));
  EXPECT_EQ(everyAxisPlacement("mesh", dataModel(), {}, {8, 6}).size(), 1u);
}

TEST(AxisPlacements, OdometerVisitsEveryChoiceOnceFirstAxisFastest) {
  std::vector<int> choice(2, -1);
  std::vector<std::vector<int>> seen{choice};
  while (nextAxisChoice(choice, 2)) seen.push_back(choice);
  EXPECT_EQ(seen, (std::vector<std::vector<int>>{
                      {-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}));
  EXPECT_EQ(choice, (std::vector<int>{-1, -1}));
  std::vector<int> none;
  EXPECT_FALSE(nextAxisChoice(none, 3));
}

}  // namespace
}  // namespace autopart
