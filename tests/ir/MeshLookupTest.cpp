// Finding the mesh a sharding refers to.
#include "ir/MeshLookup.h"

#include "tests/TestUtil.h"

namespace autopart {
namespace {

TEST(MeshLookupTest, NamedInlineAndMissingMeshes) {
  std::unique_ptr<Module> m = testing::parse(R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(m);
  const Mesh *mesh = meshNamed(*m, "mesh");
  ASSERT_NE(mesh, nullptr);
  EXPECT_EQ(mesh->str(), R"(<["x"=2]>)");
  EXPECT_EQ(meshNamed(*m, "f"), nullptr);  // a symbol, but not a mesh
  EXPECT_EQ(meshNamed(*m, "other"), nullptr);
  TensorSharding named = TensorSharding::closed("mesh", 1);
  EXPECT_EQ(shardingMesh(*m, named), mesh);
  TensorSharding inlined = TensorSharding::closed("", 1);
  inlined.inlineMesh = Mesh{{{"y", 4}}, {}};
  EXPECT_EQ(shardingMesh(*m, inlined), &*inlined.inlineMesh);
}

}  // namespace
}  // namespace autopart
