#include "sim/ExplicitCollectives.h"

#include <string>

#include "ir/CollectiveAxes.h"
#include "ir/DeviceGroups.h"
#include "sim/LocalSize.h"

namespace autopart {

namespace {

// The mesh the op's device ids index: its manual computation's, else the
// program's only mesh with axes.
const Mesh *meshFor(const Module &m, OpId op, const ShardingMap &shardings) {
  for (OpId parent = m.parentOp(op); parent != kNone; parent = m.parentOp(parent))
    if (m.isa(parent, "sdy.manual_computation"))
      if (const Mesh *mesh = shardings.computationMesh(m, parent)) return mesh;
  const Mesh *only = nullptr;
  for (const auto &[name, mesh] : shardings.meshes()) {
    if (mesh.axes.empty()) continue;
    if (only && !(*only == mesh)) return nullptr;
    only = &mesh;
  }
  return only;
}

// A one-axis mesh standing for devices whose place in the mesh is unknown.
ExplicitCollective standIn(CollectiveKind kind, int64_t n, int64_t bytes, ValueId v) {
  std::string name = "groups of " + std::to_string(n);
  return {Collective{kind, {AxisRef{name}}, bytes, v}, Mesh{{{name, n}}, {}}};
}

int64_t bytesOf(const Module &m, ValueId v, const ShardingMap &shardings) {
  const TensorSharding *s = shardings.get(v);
  return localBytes(m.types, m.type(v), s, s ? shardings.mesh(*s) : nullptr);
}

std::vector<ExplicitCollective> permute(const Module &m, OpId op, const Mesh *mesh, const ShardingMap &shardings) {
  std::vector<std::vector<int64_t>> pairs = denseIntRows(m, op, "source_target_pairs");
  ValueId in = m.operand(op, 0);
  int64_t bytes = bytesOf(m, in, shardings);
  bool moves = false;
  std::vector<bool> spans(mesh ? mesh->axes.size() : 0, false);
  bool placed = mesh != nullptr;
  for (const std::vector<int64_t> &p : pairs) {
    if (p.size() != 2 || p[0] == p[1]) continue;
    moves = true;
    if (!placed) continue;
    int64_t source = devicePosition(*mesh, p[0]), target = devicePosition(*mesh, p[1]);
    if (source < 0 || target < 0) {
      placed = false;
      continue;
    }
    std::vector<int64_t> from = meshCoordinates(*mesh, source), to = meshCoordinates(*mesh, target);
    for (size_t a = 0; a < from.size(); ++a) spans[a] = spans[a] || from[a] != to[a];
  }
  if (!moves) return {};
  if (!placed) return {standIn(CollectiveKind::CollectivePermute, 2, bytes, in)};
  AxisList axes;
  for (size_t a = 0; a < spans.size(); ++a)
    if (spans[a]) axes.push_back(AxisRef{mesh->axes[a].name});
  return {{Collective{CollectiveKind::CollectivePermute, axes, bytes, in}, *mesh}};
}

// sdy.all_reduce {"x"} sums partial values over x in place (priced on the
// result's local buffer); sdy.reduce_scatter [{}, {"y"}] sums over y and
// keeps each device's slice of dimension 1 (priced on the operand's local,
// unscattered buffer). Both name their axes on their result's mesh.
std::vector<ExplicitCollective> sdyCollective(const Module &m, OpId op, CollectiveKind kind,
                                              const ShardingMap &shardings) {
  if (m.numOperands(op) != 1 || m.numResults(op) != 1) return {};
  ValueId in = m.operand(op, 0);
  const TensorSharding *out = shardings.get(m.result(op)), *from = shardings.get(in);
  const Mesh *mesh = out ? shardings.mesh(*out) : from ? shardings.mesh(*from) : nullptr;
  AttrId text = m.attr(op, kind == CollectiveKind::AllReduce ? "reduction_axes" : "reduce_scatter_axes");
  std::optional<CollectiveAxes> parsed = text == kNoAttr ? std::nullopt : parseCollectiveAxes(m.attrs.str(text));
  if (!mesh || !parsed) return {};
  AxisList axes = parsed->axes;
  for (const AxisList &dim : parsed->perDim) axes.insert(axes.end(), dim.begin(), dim.end());
  if (axes.empty()) return {};
  const TensorSharding *buffer = kind == CollectiveKind::AllReduce ? out : from;
  return {{Collective{kind, axes, localBytes(m.types, m.type(in), buffer, mesh), in}, *mesh}};
}

}  // namespace

std::vector<ExplicitCollective> explicitCollectives(const Module &m, OpId op, const ShardingMap &shardings) {
  std::string_view name = m.opName(op);
  if (name == "sdy.all_reduce") return sdyCollective(m, op, CollectiveKind::AllReduce, shardings);
  if (name == "sdy.reduce_scatter") return sdyCollective(m, op, CollectiveKind::ReduceScatter, shardings);
  CollectiveKind kind;
  if (name == "stablehlo.all_reduce" || name == "stablehlo.cross-replica-sum")
    kind = CollectiveKind::AllReduce;
  else if (name == "stablehlo.all_gather")
    kind = CollectiveKind::AllGather;
  else if (name == "stablehlo.reduce_scatter")
    kind = CollectiveKind::ReduceScatter;
  else if (name == "stablehlo.all_to_all")
    kind = CollectiveKind::AllToAll;
  else if (name == "stablehlo.collective_permute")
    kind = CollectiveKind::CollectivePermute;
  else if (name == "stablehlo.collective_broadcast")
    kind = CollectiveKind::Broadcast;
  else
    return {};
  if (!m.numOperands(op)) return {};
  const Mesh *mesh = meshFor(m, op, shardings);
  if (kind == CollectiveKind::CollectivePermute) return permute(m, op, mesh, shardings);

  std::vector<std::vector<int64_t>> groups = denseIntRows(m, op, "replica_groups");
  std::optional<AxisList> axes;
  int64_t groupSize = 0;
  if (groups.empty() || (groups.size() == 1 && groups[0].empty())) {
    // Every device in one group.
    if (mesh) {
      axes = AxisList{};
      for (const MeshAxis &a : mesh->axes) axes->push_back(AxisRef{a.name});
    }
  } else {
    groupSize = int64_t(groups[0].size());
    if (mesh) axes = axesOfGroups(*mesh, groups);
  }
  if (axes) {  // found only on a mesh
    groupSize = 1;
    for (const AxisRef &a : *axes) groupSize *= a.size(*mesh);
  }
  if (groupSize <= 1) return {};

  // The buffer each kind is priced on (sim/Collective.h); an all-gather's
  // gathered result, the operand otherwise.
  std::vector<std::pair<ValueId, ValueId>> buffers;  // (tensor moved, buffer measured)
  if (kind == CollectiveKind::AllGather) {
    for (uint32_t i = 0; i < m.numOperands(op) && i < m.numResults(op); ++i)
      buffers.push_back({m.operand(op, i), m.result(op, i)});
  } else {
    for (uint32_t i = 0; i < m.numOperands(op); ++i) buffers.push_back({m.operand(op, i), m.operand(op, i)});
  }
  std::vector<ExplicitCollective> out;
  for (const auto &[moved, measured] : buffers) {
    int64_t bytes = bytesOf(m, measured, shardings);
    if (axes)
      out.push_back({Collective{kind, *axes, bytes, moved}, *mesh});
    else
      out.push_back(standIn(kind, groupSize, bytes, moved));
  }
  return out;
}

}  // namespace autopart
