// Collectives of `interpreter.run_parallel` on four devices, against answers
// computed by hand from the StableHLO spec's process-group definitions
// (docs/spec.md: cross_replica, cross_partition, cross_replica_and_partition,
// flattened_ids). Device d = replica r * numPartitions + partition p. Each
// test runs one collective on a 4x1 (4 replicas), 1x4 (4 partitions) or 2x2
// grid with the groupings [[0,1],[2,3]], [[0,2],[1,3]] and [[0,1,2,3]]:
//
//   @f(%x) { all_reduce(%x) {replica_groups = [[0,1],[2,3]]} }
//   x0 = [0, 100], x1 = [1, 101], x2 = [2, 102], x3 = [3, 103]
//   -> d0, d1: [1, 201]   d2, d3: [5, 205]
#include <gtest/gtest.h>

#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {
namespace {

// Two-element inputs x_d = [d, 100 + d]; four-element ones add 200 + d, 300 + d.
const std::vector<std::string> kX2 = {"[0, 100]", "[1, 101]", "[2, 102]", "[3, 103]"};
const std::vector<std::string> kX4 = {"[0, 100, 200, 300]", "[1, 101, 201, 301]", "[2, 102, 202, 302]",
                                      "[3, 103, 203, 303]"};

struct Case {
  int replicas, partitions;           // the grid; replicas * partitions == 4
  std::string inType, outType;        // e.g. "tensor<2xi64>"
  std::string body;                   // computes %r from %x
  std::vector<std::string> inputs;    // dense literals, per device
  std::vector<std::string> expected;  // dense literals, per device
};

std::string program(const Case &c) {
  std::string s = "module {\n  func.func @f(%x: " + c.inType + ") -> " + c.outType + " {\n" + c.body +
                  "\n    return %r : " + c.outType + "\n  }\n  func.func @main() {\n";
  for (size_t d = 0; d < 4; ++d)
    s += "    %x" + std::to_string(d) + " = stablehlo.constant dense<" + c.inputs[d] + "> : " + c.inType + "\n";
  std::string programs;
  for (int r = 0; r < c.replicas; ++r) {
    programs += r ? ", [" : "[";
    for (int p = 0; p < c.partitions; ++p) programs += p ? ", @f" : "@f";
    programs += "]";
  }
  s += "    %r:4 = \"interpreter.run_parallel\"(%x0, %x1, %x2, %x3) {programs = [" + programs + "]} : (" + c.inType +
       ", " + c.inType + ", " + c.inType + ", " + c.inType + ") -> (" + c.outType + ", " + c.outType + ", " +
       c.outType + ", " + c.outType + ")\n";
  for (size_t d = 0; d < 4; ++d)
    s += "    check.expect_eq_const %r#" + std::to_string(d) + ", dense<" + c.expected[d] + "> : " + c.outType + "\n";
  return s + "    func.return\n  }\n}\n";
}

// Runs the case; every device's result must equal its hand-computed answer.
void expectCase(const Case &c) {
  std::string text = program(c);
  std::unique_ptr<Module> m = testing::parse(text);
  ASSERT_TRUE(m) << text;
  RunResult r = runModule(*m, {"", "zeros", 0, {}});
  for (const FunctionRun &f : r.functions) EXPECT_FALSE(f.failed) << f.error << "\n" << text;
  for (const CheckFailure &f : r.failures) ADD_FAILURE() << m->where(f.op) << ": " << f.message << "\n" << text;
  EXPECT_EQ(r.checksTotal, 4);
  EXPECT_EQ(r.checksPassed, 4) << text;
}

std::string allReduce(const std::string &groups, const std::string &shape, const std::string &attrs = "",
                      const std::string &op = "add") {
  return R"(    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.)" +
         op + R"( %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<)" +
         groups + "> : tensor<" + shape + "xi64>" + attrs + "} : (tensor<2xi64>) -> tensor<2xi64>";
}

const char *kI2 = "tensor<2xi64>";
const char *kI4 = "tensor<4xi64>";
const char *kI8 = "tensor<8xi64>";
const std::string kChannel = ", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>";

// --- all_reduce ---------------------------------------------------------------

TEST(ExecCollective, AllReduceCrossReplica4x1) {
  // [[0,1],[2,3]]: x0+x1 = [1, 201], x2+x3 = [5, 205].
  expectCase({4, 1, kI2, kI2, allReduce("[[0, 1], [2, 3]]", "2x2"), kX2, {"[1, 201]", "[1, 201]", "[5, 205]", "[5, 205]"}});
  // [[0,2],[1,3]]: x0+x2 = [2, 202], x1+x3 = [4, 204].
  expectCase({4, 1, kI2, kI2, allReduce("[[0, 2], [1, 3]]", "2x2"), kX2, {"[2, 202]", "[4, 204]", "[2, 202]", "[4, 204]"}});
  // [[0,1,2,3]]: 0+1+2+3 = 6, 100*4+6 = 406.
  expectCase({4, 1, kI2, kI2, allReduce("[[0, 1, 2, 3]]", "1x4"), kX2, {"[6, 406]", "[6, 406]", "[6, 406]", "[6, 406]"}});
}

TEST(ExecCollective, AllReduceOn2x2GridByMode) {
  // No channel: cross_replica, [[0,1]] replicas within each partition:
  // devices {0,2} (partition 0) and {1,3} (partition 1).
  expectCase({2, 2, kI2, kI2, allReduce("[[0, 1]]", "1x2"), kX2,
              {"[2, 202]", "[4, 204]", "[2, 202]", "[4, 204]"}});
  // Channel, no use_global_device_ids: cross_replica_and_partition; group [0]
  // of replicas takes every partition of replica 0 -> {0,1}, [1] -> {2,3}.
  expectCase({2, 2, kI2, kI2, allReduce("[[0], [1]]", "2x1", kChannel), kX2, {"[1, 201]", "[1, 201]", "[5, 205]", "[5, 205]"}});
  // Channel + use_global_device_ids: flattened ids [[0,3],[1,2]] with max:
  // max(x0, x3) = [3, 103], max(x1, x2) = [2, 102].
  expectCase({2, 2, kI2, kI2, allReduce("[[0, 3], [1, 2]]", "2x2", kChannel + ", use_global_device_ids", "maximum"), kX2,
              {"[3, 103]", "[2, 102]", "[2, 102]", "[3, 103]"}});
}

TEST(ExecCollective, AllReduceAcrossPartitions1x4) {
  // Channel on a 1x4 grid, replica group [[0]]: cross_replica_and_partition
  // joins every partition of replica 0: [6, 406] everywhere.
  expectCase({1, 4, kI2, kI2, allReduce("[[0]]", "1x1", kChannel), kX2, {"[6, 406]", "[6, 406]", "[6, 406]", "[6, 406]"}});
  // Flattened [[0,1],[2,3]] on the same grid.
  expectCase({1, 4, kI2, kI2, allReduce("[[0, 1], [2, 3]]", "2x2", kChannel + ", use_global_device_ids"), kX2,
              {"[1, 201]", "[1, 201]", "[5, 205]", "[5, 205]"}});
}

// --- all_gather ---------------------------------------------------------------

std::string allGather(const std::string &groups, const std::string &shape, const std::string &out,
                      const std::string &attrs = "") {
  return "    %r = \"stablehlo.all_gather\"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<" + groups +
         "> : tensor<" + shape + "xi64>" + attrs + "} : (tensor<2xi64>) -> " + out;
}

TEST(ExecCollective, AllGatherGroupOrder) {
  // [[0,1],[2,3]]: x0 ++ x1, x2 ++ x3.
  expectCase({4, 1, kI2, kI4, allGather("[[0, 1], [2, 3]]", "2x2", kI4), kX2,
              {"[0, 100, 1, 101]", "[0, 100, 1, 101]", "[2, 102, 3, 103]", "[2, 102, 3, 103]"}});
  // [[0,2],[1,3]]: x0 ++ x2, x1 ++ x3.
  expectCase({4, 1, kI2, kI4, allGather("[[0, 2], [1, 3]]", "2x2", kI4), kX2,
              {"[0, 100, 2, 102]", "[1, 101, 3, 103]", "[0, 100, 2, 102]", "[1, 101, 3, 103]"}});
  // 1x4, flattened [[0,1,2,3]]: all four in order.
  std::string all = "[0, 100, 1, 101, 2, 102, 3, 103]";
  expectCase({1, 4, kI2, kI8, allGather("[[0, 1, 2, 3]]", "1x4", kI8, kChannel + ", use_global_device_ids"), kX2,
              {all, all, all, all}});
  // 2x2, channel without global ids: cross_replica_and_partition orders the
  // group partition-major: (r0,p0), (r1,p0), (r0,p1), (r1,p1) = 0, 2, 1, 3.
  std::string crp = "[0, 100, 2, 102, 1, 101, 3, 103]";
  expectCase({2, 2, kI2, kI8, allGather("[[0, 1]]", "1x2", kI8, kChannel), kX2, {crp, crp, crp, crp}});
}

// --- reduce_scatter -----------------------------------------------------------

std::string reduceScatter(const std::string &groups, const std::string &shape, const std::string &out,
                          const std::string &attrs = "") {
  return R"(    %r = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<)" +
         groups + "> : tensor<" + shape + "xi64>" + attrs + "} : (tensor<4xi64>) -> " + out;
}

TEST(ExecCollective, ReduceScatterGroups) {
  // [[0,1],[2,3]]: x0+x1 = [1, 201, 401, 601] split in halves over 0, 1;
  // x2+x3 = [5, 205, 405, 605] over 2, 3.
  expectCase({4, 1, kI4, kI2, reduceScatter("[[0, 1], [2, 3]]", "2x2", kI2), kX4,
              {"[1, 201]", "[401, 601]", "[5, 205]", "[405, 605]"}});
  // [[0,2],[1,3]]: x0+x2 = [2, 202, 402, 602] over 0, 2; x1+x3 = [4, 204, 404, 604] over 1, 3.
  expectCase({4, 1, kI4, kI2, reduceScatter("[[0, 2], [1, 3]]", "2x2", kI2), kX4,
              {"[2, 202]", "[4, 204]", "[402, 602]", "[404, 604]"}});
  // 1x4 flattened [[0,1,2,3]]: sum [6, 406, 806, 1206], one element each.
  expectCase({1, 4, kI4, "tensor<1xi64>",
              reduceScatter("[[0, 1, 2, 3]]", "1x4", "tensor<1xi64>", kChannel + ", use_global_device_ids"), kX4,
              {"[6]", "[406]", "[806]", "[1206]"}});
}

// --- all_to_all ---------------------------------------------------------------

std::string allToAll(const std::string &groups, const std::string &shape, int count, const std::string &attrs = "") {
  return "    %r = \"stablehlo.all_to_all\"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, "
         "split_count = " +
         std::to_string(count) + " : i64, replica_groups = dense<" + groups + "> : tensor<" + shape + "xi64>" +
         attrs + "} : (tensor<4xi64>) -> tensor<4xi64>";
}

TEST(ExecCollective, AllToAllGroups) {
  // [[0,1,2,3]], split 4: device j receives element j of every device, in
  // group order: a transpose, d_j = [100j, 100j+1, 100j+2, 100j+3].
  std::vector<std::string> transposed = {"[0, 1, 2, 3]", "[100, 101, 102, 103]", "[200, 201, 202, 203]",
                                         "[300, 301, 302, 303]"};
  expectCase({4, 1, kI4, kI4, allToAll("[[0, 1, 2, 3]]", "1x4", 4), kX4, transposed});
  // The same across partitions (channel: cross_partition) on a 1x4 grid.
  expectCase({1, 4, kI4, kI4, allToAll("[[0, 1, 2, 3]]", "1x4", 4, kChannel), kX4, transposed});
  // [[0,1],[2,3]], split 2: d0 = x0[0:2] ++ x1[0:2] = [0, 100, 1, 101],
  // d1 = x0[2:4] ++ x1[2:4] = [200, 300, 201, 301], likewise d2, d3.
  expectCase({4, 1, kI4, kI4, allToAll("[[0, 1], [2, 3]]", "2x2", 2), kX4,
              {"[0, 100, 1, 101]", "[200, 300, 201, 301]", "[2, 102, 3, 103]", "[202, 302, 203, 303]"}});
  // [[0,2],[1,3]]: d0 = x0[0:2] ++ x2[0:2], d2 = x0[2:4] ++ x2[2:4], ...
  expectCase({4, 1, kI4, kI4, allToAll("[[0, 2], [1, 3]]", "2x2", 2), kX4,
              {"[0, 100, 2, 102]", "[1, 101, 3, 103]", "[200, 300, 202, 302]", "[201, 301, 203, 303]"}});
  // 2x2 without channel: cross_replica [[0,1]] pairs devices {0,2} and {1,3}:
  // the same answer as the flattened [[0,2],[1,3]] above.
  expectCase({2, 2, kI4, kI4, allToAll("[[0, 1]]", "1x2", 2), kX4,
              {"[0, 100, 2, 102]", "[1, 101, 3, 103]", "[200, 300, 202, 302]", "[201, 301, 203, 303]"}});
}

// --- collective_permute -------------------------------------------------------

std::string permute(const std::string &pairs, const std::string &shape, const std::string &attrs = "") {
  return "    %r = \"stablehlo.collective_permute\"(%x) {source_target_pairs = dense<" + pairs + "> : tensor<" + shape +
         "xi64>" + attrs + "} : (tensor<2xi64>) -> tensor<2xi64>";
}

TEST(ExecCollective, CollectivePermutePairs) {
  // A ring over 4 replicas: d receives x_{d-1}.
  expectCase({4, 1, kI2, kI2, permute("[[0, 1], [1, 2], [2, 3], [3, 0]]", "4x2"), kX2,
              {"[3, 103]", "[0, 100]", "[1, 101]", "[2, 102]"}});
  // Pairs 0->1 and 2->3: 0 and 2 receive nothing and produce zeros.
  expectCase({4, 1, kI2, kI2, permute("[[0, 1], [2, 3]]", "2x2"), kX2, {"[0, 0]", "[0, 100]", "[0, 0]", "[2, 102]"}});
  // 2x2 with a channel: cross_partition, 0->1 within each replica: d1 gets
  // x0, d3 gets x2.
  expectCase({2, 2, kI2, kI2, permute("[[0, 1]]", "1x2", kChannel), kX2, {"[0, 0]", "[0, 100]", "[0, 0]", "[2, 102]"}});
  // 2x2 without: cross_replica, replica 1 -> 0 within each partition: d0 gets
  // x2, d1 gets x3.
  expectCase({2, 2, kI2, kI2, permute("[[1, 0]]", "1x2"), kX2, {"[2, 102]", "[3, 103]", "[0, 0]", "[0, 0]"}});
}

// --- collective_broadcast -----------------------------------------------------

std::string broadcast(const std::string &groups, const std::string &shape, const std::string &attrs = "") {
  return "    %r = \"stablehlo.collective_broadcast\"(%x) {replica_groups = dense<" + groups + "> : tensor<" + shape +
         "xi64>" + attrs + "} : (tensor<2xi64>) -> tensor<2xi64>";
}

TEST(ExecCollective, CollectiveBroadcastFromTheGroupsFirstProcess) {
  // [[0,1],[2,3]]: sources 0 and 2.
  expectCase({4, 1, kI2, kI2, broadcast("[[0, 1], [2, 3]]", "2x2"), kX2, {"[0, 100]", "[0, 100]", "[2, 102]", "[2, 102]"}});
  // [[2,0],[3,1]]: sources 2 and 3 (the first of each group, not the lowest).
  expectCase({4, 1, kI2, kI2, broadcast("[[2, 0], [3, 1]]", "2x2"), kX2, {"[2, 102]", "[3, 103]", "[2, 102]", "[3, 103]"}});
  // [[1,0]] alone: 2 and 3 are in no group and produce zeros.
  expectCase({4, 1, kI2, kI2, broadcast("[[1, 0]]", "1x2"), kX2, {"[1, 101]", "[1, 101]", "[0, 0]", "[0, 0]"}});
  // 1x4 with a channel (cross_partition) [[3,0,1,2]]: everyone gets x3.
  expectCase({1, 4, kI2, kI2, broadcast("[[3, 0, 1, 2]]", "1x4", kChannel), kX2,
              {"[3, 103]", "[3, 103]", "[3, 103]", "[3, 103]"}});
}

}  // namespace
}  // namespace autopart::exec
