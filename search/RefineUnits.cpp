#include "search/RefineUnits.h"

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "rules/OpShardingRuleRegistry.h"
#include "search/AxisPlacements.h"
#include "search/Mix.h"
#include "support/UnionFind.h"

namespace autopart {

namespace {

// Rounds of producer hashing: enough for layer 3 and layer 17 of a stack to
// look alike while the first layer (fed by the embedding) does not.
constexpr int kSignatureRounds = 3;
// Seeds a group's signature, so a group never hashes like one of its units.
constexpr uint64_t kGroupSeed = 0x6A09E667F3BCC909ull;

// A value's op applies elementwise: one result shaped like the operand it
// would follow (scalars aside), no regions.
bool followsOperand(const Module &m, OpId op, ValueId operand) {
  if (m.numResults(op) != 1 || m.numRegions(op) != 0) return false;
  TypeId t = m.type(m.result(op)), ut = m.type(operand);
  if (!m.types.isTensor(t) || !m.types.isTensor(ut) || m.types.shape(ut) != m.types.shape(t)) return false;
  for (ValueId u : m.operands(op)) {
    TypeId x = m.type(u);
    if (!m.types.isTensor(x) || (m.types.rank(x) != 0 && m.types.shape(x) != m.types.shape(t))) return false;
  }
  return true;
}

uint64_t opNameHash(const Module &m, OpId op) { return std::hash<std::string_view>{}(m.opName(op)); }

// Per value, a hash of its type and defining op, then of its producers'
// hashes kSignatureRounds deep; an argument by its type and how it is used.
// Alike values (the same op of two layers) hash alike.
std::vector<uint64_t> valueSignatures(const Module &m, std::span<const ValueId> args, const std::vector<OpId> &ops) {
  std::vector<uint64_t> sig(m.values.size(), 0);
  for (ValueId v : args) sig[v] = mix64(uint64_t(m.type(v)) + 0xA59ull);
  for (OpId op : ops)
    for (uint32_t i = 0; i < m.numResults(op); ++i)
      sig[m.result(op, i)] = mix64(uint64_t(m.type(m.result(op, i))) ^ opNameHash(m, op) ^ (uint64_t(i) << 40));
  for (OpId op : ops) {
    const auto &operands = m.operands(op);
    for (size_t k = 0; k < operands.size(); ++k)
      if (m.values[operands[k]].isBlockArg) sig[operands[k]] += mix64(opNameHash(m, op) ^ (uint64_t(k) << 48));
  }
  for (int round = 0; round < kSignatureRounds; ++round) {
    std::vector<uint64_t> next = sig;
    for (OpId op : ops) {
      uint64_t h = 0;
      const auto &operands = m.operands(op);
      for (size_t k = 0; k < operands.size(); ++k) h = mix64(h ^ sig[operands[k]] ^ uint64_t(k));
      for (uint32_t i = 0; i < m.numResults(op); ++i) next[m.result(op, i)] = mix64(sig[m.result(op, i)] ^ h);
    }
    sig = std::move(next);
  }
  return sig;
}

void newUnit(RefineUnits &out, ValueId v) {
  out.unitOf[v] = int32_t(out.units.size());
  out.units.push_back({{v}});
}

// Each movable value heads a unit unless its op follows an operand's unit.
void buildUnits(const ActionSpace &space, std::span<const ValueId> args, const std::vector<OpId> &ops,
                RefineUnits &out) {
  const Module &m = *space.m;
  out.unitOf.assign(m.values.size(), -1);
  for (ValueId v : args)
    if (refinementMovable(space, v)) newUnit(out, v);
  for (OpId op : ops) {
    // Control flow keeps its results with its regions; a scatter, reduce or
    // sort body is only the combiner, the results move like any op's.
    if (isDataFlowOp(m, op)) continue;
    for (uint32_t i = 0; i < m.numResults(op); ++i) {
      ValueId v = m.result(op, i);
      if (!refinementMovable(space, v)) continue;
      // Follow an op result before an argument, as the ILP does.
      int32_t join = -1;
      for (bool argsToo : {false, true})
        for (ValueId u : m.operands(op))
          if (join < 0 && out.unitOf[u] >= 0 && (argsToo || !m.values[u].isBlockArg) && followsOperand(m, op, u))
            join = out.unitOf[u];
      if (join < 0) {
        newUnit(out, v);
        continue;
      }
      out.unitOf[v] = join;
      out.units[size_t(join)].values.push_back(v);
    }
  }
}

// Classes of alike units (same signature and size), in program order of
// their first unit. Returns each unit's signature for the group classes.
std::vector<uint64_t> addUnitClasses(const std::vector<uint64_t> &sig, RefineUnits &out) {
  std::vector<uint64_t> unitSig(out.units.size(), 0);
  for (size_t u = 0; u < out.units.size(); ++u)
    for (ValueId v : out.units[u].values) unitSig[u] = mix64(unitSig[u] ^ sig[v]);
  std::map<std::pair<uint64_t, size_t>, size_t> index;
  for (size_t u = 0; u < out.units.size(); ++u) {
    auto [it, inserted] = index.try_emplace({unitSig[u], out.units[u].values.size()}, out.classes.size());
    if (inserted) out.classes.emplace_back();
    out.classes[it->second].units.push_back(uint32_t(u));
  }
  return unitSig;
}

// Arguments an op other than an elementwise follower reads (a parameter the
// forward pass computes with).
std::vector<bool> argumentsComputedWith(const Module &m, const std::vector<OpId> &ops) {
  std::vector<bool> computedWith(m.values.size(), false);
  for (OpId op : ops) {
    if (m.numResults(op) == 0) continue;  // the return
    for (ValueId u : m.operands(op))
      if (m.values[u].isBlockArg && !followsOperand(m, op, u)) computedWith[u] = true;
  }
  return computedWith;
}

// Groups: units an elementwise op joins, moved as one so a chain of
// same-shaped values can change layout without a reshard inside it: the
// optimizer update of one parameter split over "data" takes its gradient,
// both moments and the new value at once. Alike groups (same unit
// signatures in order, same size) form a class, after the unit classes.
void addGroupClasses(const Module &m, const std::vector<OpId> &ops, const std::vector<uint64_t> &unitSig,
                     RefineUnits &out) {
  const std::vector<int32_t> &unitOf = out.unitOf;
  // An argument the program also computes with stays out of groups: split
  // with its update it would be gathered at every such use, where left
  // whole only the returned new value is gathered, once.
  std::vector<bool> computedWith = argumentsComputedWith(m, ops);
  auto headComputedWith = [&](int32_t unit) { return bool(computedWith[out.units[size_t(unit)].values[0]]); };
  UnionFind forest(out.units.size());
  for (OpId op : ops) {
    if (m.numResults(op) != 1 || m.numRegions(op) != 0) continue;
    ValueId res = m.result(op);
    if (unitOf[res] < 0) continue;
    for (ValueId u : m.operands(op))
      if (unitOf[u] >= 0 && unitOf[u] != unitOf[res] && followsOperand(m, op, u) && !headComputedWith(unitOf[u]) &&
          !headComputedWith(unitOf[res]))
        forest.join(uint32_t(unitOf[u]), uint32_t(unitOf[res]));
  }
  std::vector<std::vector<uint32_t>> groups(out.units.size());
  for (uint32_t u = 0; u < out.units.size(); ++u) groups[forest.find(u)].push_back(u);
  std::map<std::pair<uint64_t, size_t>, size_t> index;
  for (const std::vector<uint32_t> &group : groups) {
    if (group.size() < 2) continue;
    uint64_t h = kGroupSeed;
    size_t n = 0;
    for (uint32_t u : group) {
      h = mix64(h ^ unitSig[u]);
      n += out.units[u].values.size();
    }
    auto [it, inserted] = index.try_emplace({h, n}, out.classes.size());
    if (inserted) out.classes.emplace_back();
    std::vector<uint32_t> &members = out.classes[it->second].units;
    members.insert(members.end(), group.begin(), group.end());
  }
}

// Every placement of the search axes (search/AxisPlacements.h), replicated
// as nullopt, first.
std::vector<std::optional<TensorSharding>> candidateShardings(const ActionSpace &space,
                                                              const std::vector<int64_t> &shape) {
  std::vector<std::string> axes;
  for (const SearchAxis &a : space.axes) axes.push_back(a.name);
  std::vector<std::optional<TensorSharding>> out{std::nullopt};
  std::vector<TensorSharding> placements = everyAxisPlacement(space.meshName, space.mesh, axes, shape);
  for (size_t k = 1; k < placements.size(); ++k) out.emplace_back(std::move(placements[k]));
  return out;
}

// A name's movable members sorted by value; a value listed twice in a row
// (a name on two of its dimensions) counts once.
std::vector<std::vector<DimRef>> nameWindowMembers(const ActionSpace &space) {
  std::vector<std::vector<DimRef>> out;
  for (const DimName &n : space.names->names) {
    std::vector<DimRef> members;
    for (const DimRef &d : n.members)
      if (refinementMovable(space, d.value) && (members.empty() || members.back().value != d.value))
        members.push_back(d);
    std::sort(members.begin(), members.end(), [](const DimRef &a, const DimRef &b) { return a.value < b.value; });
    if (!members.empty()) out.push_back(std::move(members));
  }
  return out;
}

}  // namespace

bool refinementMovable(const ActionSpace &space, ValueId v) {
  const Module &m = *space.m;
  return m.types.isTensor(m.type(v)) && m.types.rank(m.type(v)) > 0 && !space.fixed[v] && !space.base[v];
}

RefineUnits buildRefineUnits(const ActionSpace &space) {
  const Module &m = *space.m;
  FuncView f{m, space.func};
  const std::vector<OpId> &ops = m.blocks[f.entry()].ops;
  std::span<const ValueId> args = f.args();
  RefineUnits out;
  buildUnits(space, args, ops, out);
  std::vector<uint64_t> unitSig = addUnitClasses(valueSignatures(m, args, ops), out);
  addGroupClasses(m, ops, unitSig, out);
  for (RefineClass &c : out.classes)
    c.candidates = candidateShardings(space, m.types.shape(m.type(out.units[c.units[0]].values[0])));
  out.nameMembers = nameWindowMembers(space);
  return out;
}

}  // namespace autopart
