#include "search/Action.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "tactics/ArgumentRoles.h"

namespace autopart {

namespace {

bool usesAxis(const std::optional<TensorSharding> &s, const std::string &axis) {
  if (!s) return false;
  for (const AxisRef &a : s->allAxes())
    if (a.name == axis) return true;
  return false;
}

bool dimSharded(const std::optional<TensorSharding> &s, size_t d) {
  return s && d < s->dims.size() && !s->dims[d].axes.empty();
}

}  // namespace

ActionSpace ActionSpace::build(const Module &m, OpId func, const NamedDimensions &names, const Mesh &mesh,
                               const std::string &meshName, const std::vector<std::string> &axes,
                               const ShardingVector &base) {
  ActionSpace s;
  s.m = &m;
  s.func = func;
  s.names = &names;
  s.mesh = mesh;
  s.meshName = meshName;
  s.base = base;
  s.base.resize(m.values.size());
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    const MeshAxis &a = mesh.axes[i];
    if (a.size <= 1) continue;
    if (!axes.empty() && std::find(axes.begin(), axes.end(), a.name) == axes.end()) continue;
    s.axes.push_back({a.name, a.size, int(i)});
  }

  FuncView f{const_cast<Module &>(m), func};
  std::span<const ValueId> args = f.args();
  s.fixed.assign(m.values.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    AttrId a = f.argAttr(i, "sdy.sharding");
    if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding) s.fixed[args[i]] = true;
  }

  struct Candidate {
    Action action;
    double prior;
  };
  std::vector<Candidate> candidates;

  // ShardName: every name whose size the axis divides.
  for (size_t n = 0; n < names.names.size(); ++n)
    for (size_t a = 0; a < s.axes.size(); ++a)
      if (names.names[n].size % s.axes[a].size == 0)
        candidates.push_back({{ActionKind::ShardName, uint32_t(n), int(a)}, double(names.names[n].bytes)});

  // ShardAtRest: per axis, non-data arguments grouped by the name of their
  // at-rest dimension.
  std::vector<ArgumentInfo> infos = classifyArguments(m, func);
  for (size_t a = 0; a < s.axes.size(); ++a) {
    const SearchAxis &axis = s.axes[a];
    std::map<NameId32, size_t> groupOfName;
    for (size_t i = 0; i < args.size(); ++i) {
      ValueId v = args[i];
      TypeId t = m.type(v);
      if (infos[i].role == ArgRole::Data || s.fixed[v] || !m.types.isTensor(t)) continue;
      if (usesAxis(s.base[v], axis.name)) continue;
      const std::vector<int64_t> &shape = m.types.shape(t);
      int best = -1;
      for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] > 1 && shape[d] % axis.size == 0 && !dimSharded(s.base[v], d) &&
            (best < 0 || shape[d] > shape[size_t(best)]))
          best = int(d);
      if (best < 0) continue;
      NameId32 name = names.nameOf(v, uint32_t(best));
      size_t g;
      auto it = name == kNoDimName ? groupOfName.end() : groupOfName.find(name);
      if (it != groupOfName.end()) {
        g = it->second;
      } else {
        g = s.restGroups.size();
        s.restGroups.push_back({name, int(a), {}, 0});
        if (name != kNoDimName) groupOfName[name] = g;
      }
      s.restGroups[g].members.push_back({v, uint32_t(best)});
      s.restGroups[g].bytes += infos[i].bytes;
    }
  }
  for (size_t g = 0; g < s.restGroups.size(); ++g) {
    const RestGroup &rg = s.restGroups[g];
    // A name that lives only at these arguments: ShardName is the same action.
    if (rg.name != kNoDimName && names.names[rg.name].members.size() == rg.members.size()) continue;
    candidates.push_back({{ActionKind::ShardAtRest, uint32_t(g), rg.axis}, double(rg.bytes)});
  }

  s.conflictsOfName.resize(names.names.size());
  s.conflictSiblings.resize(names.conflicts.size());
  for (size_t c = 0; c < names.conflicts.size(); ++c) {
    const DimConflict &dc = names.conflicts[c];
    s.conflictsOfName[dc.name].push_back(uint32_t(c));
    for (size_t o = 0; o < names.conflicts.size(); ++o)
      if (o != c && names.conflicts[o].name == dc.name && names.conflicts[o].value == dc.value)
        s.conflictSiblings[c].push_back(uint32_t(o));
    // Only worth choosing when the name can be sharded at all.
    bool shardable = std::any_of(s.axes.begin(), s.axes.end(),
                                 [&](const SearchAxis &a) { return names.names[dc.name].size % a.size == 0; });
    if (shardable)
      candidates.push_back({{ActionKind::ResolveConflict, uint32_t(c), -1}, 0.5 * double(names.names[dc.name].bytes)});
  }

  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate &x, const Candidate &y) { return x.prior > y.prior; });
  for (const Candidate &c : candidates) {
    s.actions.push_back(c.action);
    s.prior.push_back(c.prior);
  }
  return s;
}

std::string ActionSpace::describe(uint32_t id) const {
  const Action &a = actions[id];
  auto example = [&](const std::vector<DimRef> &members) {
    const DimRef *pick = &members.front();
    for (const DimRef &d : members)
      if (m->values[d.value].isBlockArg) {
        pick = &d;
        break;
      }
    return describeDim(*m, *pick);
  };
  switch (a.kind) {
  case ActionKind::ShardName: {
    const DimName &n = names->names[a.target];
    return "shard n" + std::to_string(a.target) + " (size " + std::to_string(n.size) + ", " +
           std::to_string(n.members.size()) + " dims, e.g. " + example(n.members) + ") on \"" +
           axes[size_t(a.axis)].name + "\"";
  }
  case ActionKind::ShardAtRest: {
    const RestGroup &g = restGroups[a.target];
    return "shard at rest " + std::to_string(g.members.size()) + " argument(s) (e.g. " + example(g.members) +
           ") on \"" + axes[size_t(a.axis)].name + "\"";
  }
  case ActionKind::ResolveConflict: {
    const DimConflict &c = names->conflicts[a.target];
    return "resolve conflict of n" + std::to_string(c.name) + ": " + describeDim(*m, {c.value, c.dimB}) +
           " keeps it, not dim " + std::to_string(c.dimA);
  }
  }
  return "?";
}

}  // namespace autopart
