// The Alpa/XLA-style ILP of search/ilp/IlpBaseline.h, inside: decision nodes
// (ops with their strategies, values, fixed ops), groups of nodes that
// decide together (an elementwise op follows its producer), producer ->
// consumer edges priced by reshard cost, and the builder that turns a
// function into columns and rows for CBC. IlpBuilder.cpp builds the model
// from the rule registry and the simulator (strategies, op and edge costs);
// IlpSolve.cpp adds the memory rows, solves it with CBC (memory rounds) and
// reads the plan back.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/ManualAxes.h"
#include "ir/ShardingRule.h"
#include "search/ilp/IlpBaseline.h"

namespace autopart::ilp {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The objective is scaled to microseconds and memory rows to gigabytes so
// that CBC's absolute tolerances (1e-7..1e-6) stay below anything that
// matters.
constexpr double kObjectiveScale = 1e6;
constexpr double kMemoryScale = 1e-9;

using ShardingId = int32_t;

// Distinct shardings, so strategies, edge classes and the reshard-cost cache
// compare small integers.
class ShardingPool {
public:
  ShardingId intern(TensorSharding s) {
    std::string key = s.strBody();
    auto [it, inserted] = index_.try_emplace(std::move(key), ShardingId(list_.size()));
    if (inserted) list_.push_back(std::move(s));
    return it->second;
  }
  const TensorSharding &get(ShardingId id) const { return list_[size_t(id)]; }

private:
  std::vector<TensorSharding> list_;
  std::unordered_map<std::string, ShardingId> index_;
};

// A value an ILP node reads, and the sharding it wants it in under each
// strategy of the node's group.
struct Input {
  ValueId value = kNone;
  double weight = -1;  // executions; < 0: the reading node's multiplier
  std::vector<ShardingId> wanted;
};

// One decision unit: an op with a rule (its strategies are factor
// assignments), a value without a defining op node (an argument, a constant,
// a call or loop boundary: its strategies are shardings), or a fixed op
// (no rule: replicated) or sink (a function result with a given sharding).
struct Node {
  enum class Kind : uint8_t { Op, Value, Fixed } kind = Kind::Value;
  OpId op = kNone;
  int group = -1;
  double multiplier = 0;           // executions per step (ops)
  std::vector<double> opCost;      // seconds per execution, per strategy (ops)
  std::vector<ValueId> defs;       // values it decides
  std::vector<std::vector<ShardingId>> defShardings;  // [def][strategy]
  std::vector<Input> inputs;
};

struct Group {
  int size = 1;               // strategies
  std::vector<double> cost;   // seconds, per strategy
  int firstColumn = -1;       // binary columns when size > 1
  std::vector<int> members;   // nodes
};

// A producer -> consumer edge whose cost depends on both strategies; the
// strategies are folded into classes (distinct producer shardings, distinct
// wanted shardings) so an edge has |A|·|B| columns, not |Kp|·|Kc|.
struct Edge {
  int producer = -1, consumer = -1;  // groups
  std::vector<int> producerClass, consumerClass;  // per strategy
  int numA = 0, numB = 0;
  std::vector<double> cost;  // [a * numB + b], seconds
  int firstColumn = -1;
};

struct Row {
  std::vector<int> columns;
  std::vector<double> values;
  double lower = 0, upper = 0;
};

class IlpBuilder {
public:
  IlpBuilder(const Module &m, OpId func, const Mesh &mesh, const std::string &meshName,
             const DeviceParams &device, const IlpOptions &opts)
      : m_(m), func_(func), mesh_(mesh), meshName_(meshName), device_(device), opts_(opts), manual_(m) {
    scratch_.addMesh(meshName, mesh);
    valueNode_.assign(m.values.size(), -1);
    valueDef_.assign(m.values.size(), 0);
  }

  // False when `deadline` passed before the model was complete.
  bool build(const Simulator &sim, Clock::time_point deadline);
  std::optional<IlpPlan> solve(std::string *error, Clock::time_point deadline);

private:
  bool shardable(ValueId v) const {
    TypeId t = m_.type(v);
    return m_.types.isTensor(t) && !m_.types.hasDynamicDim(t);
  }
  TensorSharding replicated(ValueId v) const {
    return TensorSharding::closed(meshName_, size_t(std::max<int64_t>(0, m_.types.rank(m_.type(v)))));
  }
  ShardingId shardingOf(ValueId v, int k) const {
    const Node &n = nodes_[size_t(valueNode_[v])];
    return n.defShardings[valueDef_[v]][size_t(k)];
  }
  int groupOf(ValueId v) const { return valueNode_[v] < 0 ? -1 : nodes_[size_t(valueNode_[v])].group; }
  int newGroup(int size) {
    groups_.push_back({size, std::vector<double>(size_t(size), 0), -1, {}});
    return int(groups_.size() - 1);
  }
  int addNode(Node n) {
    int id = int(nodes_.size());
    groups_[size_t(n.group)].members.push_back(id);
    for (size_t d = 0; d < n.defs.size(); ++d) {
      valueNode_[n.defs[d]] = id;
      valueDef_[n.defs[d]] = uint32_t(d);
    }
    nodes_.push_back(std::move(n));
    return id;
  }

  std::vector<TensorSharding> enumerateShardings(ValueId v) const;
  int addValueNode(const std::vector<ValueId> &defs, ValueId follow);
  int nodeFor(ValueId v);
  void addOpNode(OpId op, const OpShardingRule &rule, double multiplier);
  void addFixedNode(OpId op, double multiplier);
  void addSink(ValueId v, const TensorSharding *target, double weight);
  void addInput(int node, ValueId v, double weight);
  double reshardSeconds(ValueId v, ShardingId from, ShardingId to);
  void buildEdges();
  Row memoryRow(const MemoryReport &report, double *least) const;
  ShardingMap planMap(const std::vector<int> &choice) const;
  double edgeCost(const Edge &e, const std::vector<int> &choice) const {
    return e.cost[size_t(e.producerClass[size_t(choice[size_t(e.producer)])] * e.numB +
                         e.consumerClass[size_t(choice[size_t(e.consumer)])])];
  }
  double objectiveOf(const std::vector<int> &choice) const;
  void polishValues(std::vector<int> &choice) const;

  const Module &m_;
  OpId func_;
  const Mesh &mesh_;
  std::string meshName_;
  const DeviceParams &device_;
  const IlpOptions &opts_;
  // Strategies inside a manual computation leave its manual axes out.
  ManualAxes manual_;
  ShardingPool pool_;
  ShardingMap scratch_;
  std::vector<Node> nodes_;
  std::vector<Group> groups_;
  std::vector<Edge> edges_;
  std::vector<int> valueNode_;
  std::vector<uint32_t> valueDef_;
  std::map<OpId, int> opNode_;
  std::map<OpId, std::vector<int>> loopTies_;  // while / case results
  std::vector<OpId> callStack_;
  std::map<std::tuple<TypeId, ShardingId, ShardingId>, double> reshardCache_;
  int64_t numOps_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace autopart::ilp
