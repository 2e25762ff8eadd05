// The action space is rich enough to reach every expert tactic's plan: for
// each schedule, actions are applied greedily as long as what they add stays
// inside the expert plan, and the result must equal the expert plan exactly.
#include "search/SearchState.h"

#include "tests/search/SearchFixtures.h"

namespace autopart {
namespace {

using testing::expertPlan;
using testing::parseProgram;
using testing::sameSharding;

// Every axis `state` puts on a value is in `target` at the same dimension.
bool within(const ShardingVector &state, const ShardingVector &target) {
  for (size_t v = 0; v < state.size(); ++v) {
    if (!state[v]) continue;
    for (size_t d = 0; d < state[v]->dims.size(); ++d)
      for (const AxisRef &a : state[v]->dims[d].axes) {
        if (!target[v] || d >= target[v]->dims.size()) return false;
        const std::vector<AxisRef> &t = target[v]->dims[d].axes;
        if (std::find(t.begin(), t.end(), a) == t.end()) return false;
      }
  }
  return true;
}

size_t axesPlaced(const ShardingVector &state) {
  size_t n = 0;
  for (const auto &s : state)
    if (s)
      for (const DimSharding &d : s->dims) n += d.axes.size();
  return n;
}

// Applies, while any exists, the action that keeps the state within
// `target` and places the most axes: a small action taken first (the
// optimizer update of one moment) could make the larger one the expert
// took (the state at rest with its update) illegal.
std::vector<uint32_t> reach(SearchState &st, const ShardingVector &target) {
  for (;;) {
    uint32_t best = ~0u;
    size_t bestPlaced = axesPlaced(st.shardings());
    for (uint32_t id = 0; id < st.space().size(); ++id) {
      if (!st.legal(id)) continue;
      st.apply(id);
      size_t placed = axesPlaced(st.shardings());
      if (within(st.shardings(), target) && placed > bestPlaced) {
        best = id;
        bestPlaced = placed;
      }
      st.undo();
    }
    if (best == ~0u) break;
    st.apply(best);
  }
  return st.path();
}

struct Case {
  std::string program;
  const char *tactics;
};

class ExpertReachable : public ::testing::TestWithParam<Case> {};

TEST_P(ExpertReachable, BySequenceOfActions) {
  auto m = parseProgram(GetParam().program);
  ASSERT_TRUE(m);
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh{{{"data", 2}, {"model", 4}}, {}};
  ShardingVector expert = expertPlan(*m, names, mesh, GetParam().tactics);
  ActionSpace space = ActionSpace::build(*m, m->findEntryFunction(), names, mesh, "mesh", {},
                                         ShardingVector(m->values.size()));
  SearchState st(space, DeviceParams{});
  std::vector<uint32_t> path = reach(st, expert);
  EXPECT_FALSE(path.empty());
  size_t sharded = 0;
  for (size_t v = 0; v < expert.size(); ++v) {
    sharded += !sameSharding(expert[v], std::nullopt);
    EXPECT_TRUE(sameSharding(st.shardings()[v], expert[v]))
        << GetParam().tactics << ": value " << v << " expert "
        << (expert[v] ? expert[v]->str() : "none") << " reached "
        << (st.shardings()[v] ? st.shardings()[v]->str() : "none");
  }
  EXPECT_GT(sharded, 0u);
  // The path is replayable from the base state and gives the same plan.
  ShardingVector reached = st.shardings();
  st.reset();
  EXPECT_EQ(st.applyAll(path), path.size());
  for (size_t v = 0; v < reached.size(); ++v) EXPECT_TRUE(sameSharding(st.shardings()[v], reached[v]));
}

INSTANTIATE_TEST_SUITE_P(
    Tactics, ExpertReachable,
    ::testing::Values(Case{testing::mlpStep(), "dp"}, Case{testing::mlpStep(), "fsdp"},
                      Case{testing::mlpStep(), "megatron"}, Case{testing::mlpStep(), "dp,megatron"},
                      Case{testing::mlpStep(), "fsdp,megatron"}, Case{testing::mlpStep(), "dp,fsdp"},
                      Case{testing::transformerBlock(), "dp"}, Case{testing::transformerBlock(), "fsdp"},
                      Case{testing::transformerBlock(), "megatron"},
                      Case{testing::transformerBlock(), "dp,megatron"},
                      Case{testing::transformerBlock(), "fsdp,megatron"}));

TEST(ActionSpace, LegalityAxisDividesAndUsedOnce) {
  auto m = parseProgram(testing::mlpStep());
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh{{{"data", 2}, {"model", 3}}, {}};
  ActionSpace space = ActionSpace::build(*m, m->findEntryFunction(), names, mesh, "mesh", {},
                                         ShardingVector(m->values.size()));
  // No name of size 64, 512 or 2048 is divisible by 3: no action uses "model".
  for (const Action &a : space.actions) EXPECT_NE(a.axis, 1);
  SearchState st(space, DeviceParams{});
  // After one ShardName on "data", no other action touching those values
  // may use "data" again.
  uint32_t first = 0;
  while (space.actions[first].kind != ActionKind::ShardName) ++first;
  ASSERT_TRUE(st.legal(first));
  st.apply(first);
  EXPECT_FALSE(st.legal(first));
  for (size_t v = 0; v < st.shardings().size(); ++v)
    if (st.shardings()[v]) {
      EXPECT_EQ(st.shardings()[v]->verify(mesh, int64_t(st.shardings()[v]->rank())), "");
    }
  st.undo();
  for (const auto &s : st.shardings()) EXPECT_FALSE(s);
}

TEST(ActionSpace, InputShardingIsFixed) {
  std::string text = testing::mlpStep();
  // w1 comes sharded by the input: no action may change it.
  size_t at = text.find("{jax.arg_info = \"params['w1']\"}");
  text.replace(at, std::string("{jax.arg_info = \"params['w1']\"}").size(),
               "{jax.arg_info = \"params['w1']\", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}");
  text = "sdy.mesh @mesh = <[\"data\"=2, \"model\"=4]>\n" + text;
  auto m = parseProgram(text);
  ASSERT_TRUE(m);
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh{{{"data", 2}, {"model", 4}}, {}};
  OpId func = m->findEntryFunction();
  ShardingVector base(m->values.size());
  seedFromInput(*m, func, base);
  ActionSpace space = ActionSpace::build(*m, func, names, mesh, "mesh", {}, base);
  SearchState st(space, DeviceParams{});
  ValueId w1 = FuncView{*m, func}.args()[0];
  for (uint32_t id = 0; id < space.size(); ++id) {
    if (!st.legal(id)) continue;
    st.apply(id);
    EXPECT_TRUE(sameSharding(st.shardings()[w1], std::nullopt)) << space.describe(id);
    st.undo();
  }
}

}  // namespace
}  // namespace autopart

namespace autopart {
namespace {

// Alike layers share actions: four blocks have the action space of one, and
// one action shards the hidden name of every block.
TEST(ActionSpace, RepeatedLayersShareActions) {
  Mesh mesh{{{"data", 2}, {"model", 4}}, {}};
  auto build = [&](int layers, std::unique_ptr<Module> &m, NamedDimensions &names) {
    m = testing::parseProgram(testing::mlpStack(layers));
    names = analyzeNamedDimensions(*m);
    return ActionSpace::build(*m, m->findEntryFunction(), names, mesh, "mesh", {}, ShardingVector(m->values.size()));
  };
  std::unique_ptr<Module> m1, m4;
  NamedDimensions n1, n4;
  ActionSpace one = build(1, m1, n1), four = build(4, m4, n4);
  EXPECT_GT(n4.names.size(), n1.names.size());
  EXPECT_EQ(four.size(), one.size());
  // Megatron's plan on four blocks is one ShardName away.
  ShardingVector expert = testing::expertPlan(*m4, n4, mesh, "megatron");
  SearchState st(four, DeviceParams{});
  bool reached = false;
  for (uint32_t id = 0; id < four.size() && !reached; ++id) {
    if (four.actions[id].kind != ActionKind::ShardName || !st.legal(id)) continue;
    st.apply(id);
    reached = true;
    for (size_t v = 0; v < expert.size(); ++v) reached &= testing::sameSharding(st.shardings()[v], expert[v]);
    if (!reached) st.undo();
  }
  EXPECT_TRUE(reached);
}

// At rest with the update also splits the new parameters the step returns;
// at rest alone leaves them whole.
TEST(ActionSpace, AtRestWithUpdateSplitsTheNewParameters) {
  auto m = testing::parseProgram(testing::mlpStack(2));
  NamedDimensions names = analyzeNamedDimensions(*m);
  Mesh mesh{{{"data", 8}}, {}};
  OpId func = m->findEntryFunction();
  ActionSpace space = ActionSpace::build(*m, func, names, mesh, "mesh", {}, ShardingVector(m->values.size()));
  OpId ret = FuncView{*m, func}.returnOp();
  ValueId newW1 = m->operand(ret, 1);  // %n1_0
  int withUpdate = 0, argsOnly = 0, checked = 0;
  for (uint32_t id = 0; id < space.size(); ++id) {
    if (space.actions[id].kind != ActionKind::ShardAtRest) continue;
    SearchState st(space, DeviceParams{});
    ASSERT_TRUE(st.legal(id));
    st.apply(id);
    bool split = st.shardings()[newW1] && !testing::sameSharding(st.shardings()[newW1], std::nullopt);
    bool update = space.restGroups[space.actions[id].target].withUpdate;
    (update ? withUpdate : argsOnly) += 1;
    // A group that holds w1 splits its update only in the update variant.
    bool holdsW1 = false;
    for (const DimRef &d : space.restGroups[space.actions[id].target].members)
      holdsW1 |= d.value == FuncView{*m, func}.args()[1];
    if (holdsW1) {
      EXPECT_EQ(split, update) << space.describe(id);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);  // w1's group, with and without the update
  EXPECT_GT(withUpdate, 0);
  EXPECT_GT(argsOnly, 0);
}

}  // namespace
}  // namespace autopart
