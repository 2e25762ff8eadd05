// The propagation graph: which values share a slot, and what an edge reads.
#include <gtest/gtest.h>

#include <algorithm>

#include "propagation/DataFlowEdges.h"
#include "propagation/PropagationGraph.h"

#include "tests/TestUtil.h"
#include "tests/propagation/WhileProgram.h"

namespace autopart {
namespace {

using testing::opsNamed;
using testing::kWhile;
using testing::parse;

TEST(PropagationGraph, WhileEdgeTiesResultBlockArgumentsAndEdgeToOneSlot) {
  std::unique_ptr<Module> m = parse(kWhile);
  ASSERT_TRUE(m);
  ASSERT_EQ(addDataFlowEdges(*m), 2u);
  OpId whileOp = opsNamed(*m, "stablehlo.while").at(0);
  OpId edgeOp = opsNamed(*m, "sdy.data_flow_edge").at(0);
  ASSERT_EQ(m->operand(edgeOp, 0), m->result(whileOp, 0));

  PropagationGraph g(*m);
  uint32_t slot = g.slotOf(m->result(edgeOp, 0));
  ASSERT_NE(slot, kNoSlot);
  EXPECT_EQ(g.slot(slot).storage, Storage::OpAttr);
  EXPECT_EQ(g.slot(slot).op, edgeOp);
  EXPECT_EQ(g.slotOf(m->result(whileOp, 0)), slot);
  for (uint32_t r = 0; r < 2; ++r) {
    BlockId b = m->regions[m->region(whileOp, r)].blocks.front();
    EXPECT_EQ(g.slotOf(m->blocks[b].args[0]), slot) << "region " << r;
  }

  // Sources: the while's operand and what the body returns (the block
  // argument, itself in the edge's slot).
  const Edge *e = g.edgeOf(edgeOp);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->target.slot, slot);
  ASSERT_EQ(e->sources.size(), 2u);
  EXPECT_EQ(e->sources[0].slot, g.slotOf(m->operand(whileOp, 0)));
  EXPECT_EQ(e->sources[1].slot, slot);
  std::span<const OpId> readers = g.edgesReading(whileOp, 0);
  EXPECT_NE(std::find(readers.begin(), readers.end(), edgeOp), readers.end());
  // The abs reads the edge, not the while: no edge reads its operand.
  EXPECT_TRUE(g.edgesReading(opsNamed(*m, "stablehlo.abs").at(0), 0).empty());
}

// The flat tables: the edge's slot holds the edge's result, then (as they
// were bound to it) the while result and both block arguments; a change
// to it revisits the while, the edge and the abs that reads the edge.
TEST(PropagationGraph, SlotMembersAndTheStepsThatReadThem) {
  std::unique_ptr<Module> m = parse(kWhile);
  ASSERT_TRUE(m);
  ASSERT_EQ(addDataFlowEdges(*m), 2u);
  OpId whileOp = opsNamed(*m, "stablehlo.while").at(0);
  OpId edgeOp = opsNamed(*m, "sdy.data_flow_edge").at(0);
  OpId absOp = opsNamed(*m, "stablehlo.abs").at(0);
  PropagationGraph g(*m);
  uint32_t slot = g.slotOf(m->result(edgeOp, 0));
  std::span<const ValueId> members = g.membersOf(slot);
  ASSERT_EQ(members.size(), 4u);
  EXPECT_EQ(members[0], m->result(edgeOp, 0));
  EXPECT_EQ(members[1], m->result(whileOp, 0));
  for (ValueId v : members) EXPECT_EQ(g.slotOf(v), slot);
  for (uint32_t r = 0; r < 2; ++r) {
    ValueId arg = m->blocks[m->regions[m->region(whileOp, r)].blocks.front()].args[0];
    EXPECT_NE(std::find(members.begin(), members.end(), arg), members.end()) << "region " << r;
  }
  std::span<const OpId> readers = g.stepsReading(slot);
  for (OpId op : {whileOp, edgeOp, absOp})
    EXPECT_NE(std::find(readers.begin(), readers.end(), op), readers.end()) << m->opName(op);
  // The body's return feeds the edge (it is one of its sources), never the
  // return itself.
  for (OpId op : readers) EXPECT_NE(m->opName(op), "stablehlo.return");

  // Every operand is a use, in op order.
  std::span<const Use> uses = g.usesOf(m->result(edgeOp, 0));
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].user, absOp);
  EXPECT_EQ(uses[0].index, 0u);
}

TEST(PropagationGraph, FunctionResultsHaveSlotsOfTheirOwn) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(m);
  PropagationGraph g(*m);
  OpId func = m->functions().at(0);
  ASSERT_EQ(g.funcResultSlots(func).size(), 1u);
  uint32_t result = g.funcResultSlots(func)[0];
  uint32_t arg = g.slotOf(FuncView{*m, func}.args()[0]);
  EXPECT_NE(result, arg);
  EXPECT_EQ(g.slot(result).storage, Storage::FuncResult);
  EXPECT_FALSE(g.slot(result).sharding);
  ASSERT_TRUE(g.slot(arg).sharding);
  EXPECT_NE(g.meshOf(*g.slot(arg).sharding), nullptr);
}

// Slots hold interned shardings: equal shardings are one pointer, which is
// what lets a step compare and memoize by address.
TEST(PropagationGraph, EqualShardingsAreOnePointer) {
  std::unique_ptr<Module> m = parse(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
             %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
             %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
)");
  ASSERT_TRUE(m);
  PropagationGraph g(*m);
  std::span<const ValueId> args = FuncView{*m, m->functions().at(0)}.args();
  const TensorSharding *a0 = g.slot(g.slotOf(args[0])).sharding;
  const TensorSharding *a1 = g.slot(g.slotOf(args[1])).sharding;
  const TensorSharding *a2 = g.slot(g.slotOf(args[2])).sharding;
  ASSERT_TRUE(a0 && a1 && a2);
  EXPECT_EQ(a0, a1);
  EXPECT_NE(a0, a2);  // open vs closed second dimension
  EXPECT_EQ(g.intern(TensorSharding(*a2)), a2);
  TensorSharding withPriority = *a0;
  withPriority.dims[0].priority = 1;
  EXPECT_NE(g.intern(withPriority), a0);
}

}  // namespace
}  // namespace autopart
