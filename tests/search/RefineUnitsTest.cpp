// The units, classes, groups and name windows of the per-value refinement
// (search/RefineUnits.h): which values move together, checked on programs
// small enough to list by hand.
#include "search/RefineUnits.h"

#include <algorithm>

#include "tests/search/SearchFixtures.h"

namespace autopart {
namespace {

using testing::parseProgram;

struct Program {
  std::unique_ptr<Module> m;
  NamedDimensions names;
  Mesh mesh;
  ActionSpace space;
  std::vector<ValueId> args;
  std::vector<ValueId> results;  // the first result of each op of the entry block, in order

  explicit Program(const std::string &text, const ShardingVector &base = {})
      : m(parseProgram(text)), names(analyzeNamedDimensions(*m)) {
    mesh.axes = {{"data", 2}, {"model", 4}};
    ShardingVector start = base.empty() ? ShardingVector(m->values.size()) : base;
    space = ActionSpace::build(*m, m->findEntryFunction(), names, mesh, "mesh", {}, start);
    FuncView f{*m, space.func};
    args.assign(f.args().begin(), f.args().end());
    for (OpId op : m->blocks[f.entry()].ops)
      results.push_back(m->numResults(op) ? m->result(op) : ValueId(kNone));
  }
};

std::vector<std::vector<ValueId>> unitValues(const RefineUnits &u) {
  std::vector<std::vector<ValueId>> out;
  for (const RefineUnit &unit : u.units) out.push_back(unit.values);
  return out;
}

// The class of alike units that holds unit `unit` (each unit is in exactly
// one of them; group classes come after).
size_t unitClassOf(const RefineUnits &u, int32_t unit) {
  for (size_t c = 0; c < u.classes.size(); ++c) {
    const std::vector<uint32_t> &members = u.classes[c].units;
    if (std::find(members.begin(), members.end(), uint32_t(unit)) != members.end()) return c;
  }
  ADD_FAILURE() << "unit " << unit << " in no class";
  return u.classes.size();
}

// mlpStep: %0 = x·w1, %1 = broadcast b1, %2 = %0 + %1, %3 = logistic %2,
// %4 = %3·w2, %5 = %4 + x, %6 = w1 - mu. Arguments w1, b1, w2, x, mu.
TEST(RefineUnits, ElementwiseFollowersJoinTheirOperandsUnit) {
  Program p(testing::mlpStep());
  RefineUnits u = buildRefineUnits(p.space);
  const std::vector<ValueId> &a = p.args, &r = p.results;
  // Arguments first; %2 follows %0, its first operand (the broadcast is
  // shaped alike too), %5 follows %4, and the update follows w1, its first
  // operand. Neither dot nor the broadcast follows anything.
  std::vector<std::vector<ValueId>> expected = {{a[0], r[6]}, {a[1]}, {a[2]}, {a[3]}, {a[4]},
                                                {r[0], r[2], r[3]}, {r[1]}, {r[4], r[5]}};
  EXPECT_EQ(unitValues(u), expected);
  ASSERT_EQ(u.unitOf.size(), p.m->values.size());
  for (size_t k = 0; k < u.units.size(); ++k)
    for (ValueId v : u.units[k].values) EXPECT_EQ(u.unitOf[v], int32_t(k)) << "value " << v;
  // Every other value (none here but non-tensors) is in no unit.
  size_t inUnits = 0;
  for (const RefineUnit &unit : u.units) inUnits += unit.values.size();
  EXPECT_EQ(size_t(std::count_if(u.unitOf.begin(), u.unitOf.end(), [](int32_t k) { return k >= 0; })), inUnits);
}

// mlpStack(1): h1 = x + b0 follows b0, an op result, before the argument
// x listed first (as the ILP merges them).
TEST(RefineUnits, AnOpResultIsFollowedBeforeAnArgument) {
  Program p(testing::mlpStack(1));
  RefineUnits u = buildRefineUnits(p.space);
  ValueId x = p.args[0], b0 = p.results[2], h1 = p.results[3];
  ASSERT_GE(u.unitOf[h1], 0);
  EXPECT_EQ(u.unitOf[h1], u.unitOf[b0]);
  EXPECT_NE(u.unitOf[h1], u.unitOf[x]);
  EXPECT_EQ(u.units[size_t(u.unitOf[b0])].values, (std::vector<ValueId>{b0, h1}));
}

TEST(RefineUnits, GroupsJoinUnitsAnElementwiseOpMergesButNotComputedArguments) {
  Program p(testing::mlpStep());
  RefineUnits u = buildRefineUnits(p.space);
  // No two units look alike: one class each, in unit order; then the one
  // group, {x·w1 + b1} and {broadcast b1} joined by the add. The update
  // w1 - mu does not join mu's unit to w1's: w1 feeds the matmul, and split
  // with its update it would be gathered there.
  ASSERT_EQ(u.classes.size(), u.units.size() + 1);
  for (uint32_t k = 0; k < u.units.size(); ++k) EXPECT_EQ(u.classes[k].units, std::vector<uint32_t>{k});
  EXPECT_EQ(u.classes.back().units, (std::vector<uint32_t>{5, 6}));
}

TEST(RefineUnits, CandidatesAreEveryAxisPlacementReplicatedFirst) {
  Program p(testing::mlpStep());
  RefineUnits u = buildRefineUnits(p.space);
  // w1 is 512 x 2048 on data=2, model=4: each axis on dimension 0, 1 or
  // none, every combination dividing: 9 candidates.
  const RefineClass &w1 = u.classes[size_t(u.unitOf[p.args[0]])];
  ASSERT_EQ(w1.candidates.size(), 9u);
  EXPECT_FALSE(w1.candidates[0].has_value());
  for (size_t k = 1; k < w1.candidates.size(); ++k) {
    ASSERT_TRUE(w1.candidates[k].has_value());
    EXPECT_EQ(w1.candidates[k]->dims.size(), 2u);
  }
  // b1 is rank 1: data, model, both (in mesh order) or none.
  EXPECT_EQ(u.classes[size_t(u.unitOf[p.args[1]])].candidates.size(), 4u);
}

TEST(RefineUnits, ValuesSetInTheBaseStateNeverMove) {
  Program probe(testing::mlpStep());
  ShardingVector base(probe.m->values.size());
  ValueId x = probe.args[3];
  base[x] = TensorSharding::closed("mesh", 2);
  base[x]->dims[0].axes.push_back(AxisRef{"data", 0, 0});
  Program p(testing::mlpStep(), base);
  RefineUnits u = buildRefineUnits(p.space);
  EXPECT_FALSE(refinementMovable(p.space, x));
  EXPECT_EQ(u.unitOf[x], -1);
  for (const RefineUnit &unit : u.units)
    EXPECT_EQ(std::count(unit.values.begin(), unit.values.end(), x), 0);
  for (const std::vector<DimRef> &members : u.nameMembers) {
    EXPECT_TRUE(std::is_sorted(members.begin(), members.end(),
                               [](const DimRef &a, const DimRef &b) { return a.value < b.value; }));
    for (const DimRef &d : members) EXPECT_NE(d.value, x);
  }
  // The batch name still has its other members (x·w1 and the rest).
  EXPECT_FALSE(u.nameMembers.empty());
}

// mlpStack: per layer l, ops 6l.. are a = h·w1, g = logistic a, b = g·w2,
// h' = h + b, and the two updates. Layers deep enough that their producers
// a few ops up are layers too look alike and move as one class; the first
// layer, fed by the argument x, does not.
TEST(RefineUnits, AlikeLayersShareAClass) {
  constexpr int kLayers = 6;
  Program p(testing::mlpStack(kLayers));
  RefineUnits u = buildRefineUnits(p.space);
  auto unitOfOp = [&](int layer, int k) { return u.unitOf[p.results[size_t(6 * layer + k)]]; };
  // a and its logistic are one unit, in every layer.
  for (int l = 0; l < kLayers; ++l) {
    ASSERT_GE(unitOfOp(l, 0), 0);
    EXPECT_EQ(unitOfOp(l, 0), unitOfOp(l, 1)) << "layer " << l;
  }
  size_t deep = unitClassOf(u, unitOfOp(kLayers - 1, 0));
  EXPECT_EQ(unitClassOf(u, unitOfOp(kLayers - 2, 0)), deep);
  EXPECT_EQ(unitClassOf(u, unitOfOp(kLayers - 3, 0)), deep);
  EXPECT_NE(unitClassOf(u, unitOfOp(0, 0)), deep);
  // A class never mixes units of different sizes or shapes.
  for (const RefineClass &c : u.classes) {
    TypeId t = p.m->type(u.units[c.units[0]].values[0]);
    for (uint32_t k : c.units)
      EXPECT_EQ(p.m->types.shape(p.m->type(u.units[k].values[0])), p.m->types.shape(t));
  }
  // Fewer classes than units: the stack costs about one layer's moves.
  EXPECT_LT(u.classes.size(), u.units.size());
}

TEST(RefineUnits, SameSpaceSameUnits) {
  Program p(testing::transformerBlock());
  RefineUnits a = buildRefineUnits(p.space), b = buildRefineUnits(p.space);
  EXPECT_EQ(unitValues(a), unitValues(b));
  ASSERT_EQ(a.classes.size(), b.classes.size());
  for (size_t c = 0; c < a.classes.size(); ++c) {
    EXPECT_EQ(a.classes[c].units, b.classes[c].units);
    EXPECT_EQ(a.classes[c].candidates, b.classes[c].candidates);
  }
}

}  // namespace
}  // namespace autopart
