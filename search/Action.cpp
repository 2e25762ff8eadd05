#include "search/Action.h"

#include "analysis/LoopSums.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "analysis/ArgumentRoles.h"
#include "search/Mix.h"

namespace autopart {

namespace {

bool usesAxis(const std::optional<TensorSharding> &s, const std::string &axis) {
  if (!s) return false;
  for (const AxisRef &a : s->allAxes())
    if (a.name == axis) return true;
  return false;
}

// Whether sharding the names on `axis` reaches a value no enclosing manual
// computation binds it at; otherwise the action would change nothing.
bool anyFreeMember(const ActionSpace &s, const std::vector<NameId32> &group, const std::string &axis) {
  for (NameId32 n : group)
    for (const DimRef &d : s.names->names[n].members)
      if (!s.manual.binds(d.value, axis)) return true;
  return false;
}

bool dimSharded(const std::optional<TensorSharding> &s, size_t d) {
  return s && d < s->dims.size() && !s->dims[d].axes.empty();
}

// What kind of value `v` is, for recognising repeated structure: its type
// and its defining op (result index), or for an argument its role.
uint64_t valueKind(const Module &m, ValueId v, const std::vector<int8_t> &argRole) {
  const ValueInfo &info = m.values[v];
  uint64_t h = mix64(uint64_t(m.type(v)) + 1);
  if (!info.isBlockArg) return mix64(h ^ std::hash<std::string_view>{}(m.opName(info.owner)) ^ (uint64_t(info.index) << 40));
  if (argRole[v] >= 0) return mix64(h ^ uint64_t(argRole[v] + 1) * 0x51ED27ull);
  OpId parent = m.regions[m.blocks[info.owner].parent].parent;
  uint64_t p = parent == kNone ? 0 : std::hash<std::string_view>{}(m.opName(parent));
  return mix64(h ^ p ^ (uint64_t(info.index) << 32) ^ 0xB10Cull);
}

bool isElementwise(const Module &m, OpId op) {
  if (m.numResults(op) != 1 || m.numRegions(op) != 0 || m.numOperands(op) == 0) return false;
  TypeId t = m.type(m.result(op));
  if (!m.types.isTensor(t)) return false;
  for (ValueId u : m.operands(op)) {
    TypeId ut = m.type(u);
    if (!m.types.isTensor(ut)) return false;
    if (m.types.rank(ut) != 0 && m.types.shape(ut) != m.types.shape(t)) return false;
  }
  return true;
}

// Values of the optimizer update: from each returned value typed like a
// parameter or optimizer-state argument, backwards through elementwise ops
// on that shape (stopping at the gradients' contractions).
std::vector<bool> updateCone(const Module &m, FuncView &f, const std::vector<ArgumentInfo> &infos) {
  std::vector<bool> cone(m.values.size(), false);
  std::span<const ValueId> args = f.args();
  std::vector<TypeId> stateTypes;
  for (size_t i = 0; i < args.size(); ++i)
    if (infos[i].role != ArgRole::Data) stateTypes.push_back(m.type(args[i]));
  OpId ret = f.returnOp();
  if (ret == kNone) return cone;
  std::vector<ValueId> work;
  for (ValueId r : m.operands(ret))
    if (std::find(stateTypes.begin(), stateTypes.end(), m.type(r)) != stateTypes.end() && !cone[r]) {
      cone[r] = true;
      work.push_back(r);
    }
  LoopSums sums(m, f.op);
  while (!work.empty()) {
    ValueId v = work.back();
    work.pop_back();
    if (const LoopSum *sum = sums.of(v)) {
      for (ValueId u : {sum->init, sum->arg, sum->sum, sum->part})
        if (m.type(u) == m.type(v) && !cone[u]) {
          cone[u] = true;
          work.push_back(u);
        }
      continue;
    }
    if (m.values[v].isBlockArg) continue;
    OpId op = m.values[v].owner;
    if (!isElementwise(m, op)) continue;
    for (ValueId u : m.operands(op))
      if (m.type(u) == m.type(v) && !cone[u]) {
        cone[u] = true;
        work.push_back(u);
      }
  }
  return cone;
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
  s.manual = ManualAxes(m);
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    const MeshAxis &a = mesh.axes[i];
    if (a.size <= 1) continue;
    if (!axes.empty() && std::find(axes.begin(), axes.end(), a.name) == axes.end()) continue;
    s.axes.push_back({a.name, a.size, int(i)});
  }

  FuncView f{m, func};
  std::span<const ValueId> args = f.args();
  std::vector<ArgumentInfo> infos = classifyArguments(m, func);
  std::vector<int8_t> argRole(m.values.size(), -1);
  s.fixed.assign(m.values.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    argRole[args[i]] = int8_t(infos[i].role);
    AttrId a = f.argAttr(i, "sdy.sharding");
    if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding) s.fixed[args[i]] = true;
  }

  // Names that look alike (repeated layers) share a signature.
  std::vector<uint32_t> signatureOf(names.names.size());
  {
    std::map<std::vector<uint64_t>, uint32_t> ids;
    for (size_t n = 0; n < names.names.size(); ++n) {
      const DimName &dn = names.names[n];
      std::vector<uint64_t> sig;
      sig.reserve(dn.members.size() + 2);
      for (const DimRef &d : dn.members) sig.push_back(mix64(valueKind(m, d.value, argRole) ^ d.dim));
      std::sort(sig.begin(), sig.end());
      sig.push_back(uint64_t(dn.size));
      sig.push_back(dn.reducedAt.size());
      signatureOf[n] = ids.try_emplace(std::move(sig), uint32_t(ids.size())).first->second;
    }
  }
  // Groups of alike names whose values are disjoint (else one per name).
  {
    std::map<uint32_t, std::vector<NameId32>> bySignature;
    for (size_t n = 0; n < names.names.size(); ++n) bySignature[signatureOf[n]].push_back(NameId32(n));
    std::vector<uint32_t> owner(m.values.size(), kNoDimName);  // name claiming each value
    for (auto &entry : bySignature) {
      const std::vector<NameId32> &group = entry.second;
      bool disjoint = true;
      for (NameId32 n : group)
        for (const DimRef &d : names.names[n].members) {
          if (owner[d.value] == kNoDimName)
            owner[d.value] = n;
          else
            disjoint &= owner[d.value] == n;
        }
      for (NameId32 n : group)
        for (const DimRef &d : names.names[n].members) owner[d.value] = kNoDimName;
      if (disjoint) {
        s.nameGroups.push_back(group);
      } else {
        for (NameId32 n : group) s.nameGroups.push_back({n});
      }
    }
  }

  struct Candidate {
    Action action;
    double prior;
  };
  std::vector<Candidate> candidates;

  // ShardName: every group whose size the axis divides.
  for (size_t g = 0; g < s.nameGroups.size(); ++g) {
    const DimName &first = names.names[s.nameGroups[g][0]];
    double bytes = 0;
    for (NameId32 n : s.nameGroups[g]) bytes += double(names.names[n].bytes);
    for (size_t a = 0; a < s.axes.size(); ++a)
      if (first.size % s.axes[a].size == 0 && anyFreeMember(s, s.nameGroups[g], s.axes[a].name))
        candidates.push_back({{ActionKind::ShardName, uint32_t(g), int(a)}, bytes});
  }

  // ShardAtRest: per axis, non-data arguments grouped by the name of their
  // at-rest dimension, then alike groups merged.
  std::vector<bool> cone = updateCone(m, f, infos);
  for (size_t a = 0; a < s.axes.size(); ++a) {
    const SearchAxis &axis = s.axes[a];
    std::map<NameId32, RestGroup> byName;
    std::vector<std::pair<uint64_t, RestGroup>> unnamed;
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
      RestGroup single{int(a), false, false, {{v, uint32_t(best)}}, infos[i].bytes};
      if (name == kNoDimName) {
        unnamed.push_back({mix64(valueKind(m, v, argRole) ^ uint64_t(best)), std::move(single)});
        continue;
      }
      RestGroup &g = byName.try_emplace(name, RestGroup{int(a), false, false, {}, 0}).first->second;
      g.members.push_back(single.members[0]);
      g.bytes += single.bytes;
    }
    std::map<uint64_t, size_t> merged;  // signature -> index in restGroups
    auto add = [&](uint64_t key, RestGroup g) {
      auto [it, inserted] = merged.try_emplace(key, s.restGroups.size());
      if (inserted) {
        s.restGroups.push_back(std::move(g));
        return;
      }
      RestGroup &into = s.restGroups[it->second];
      into.members.insert(into.members.end(), g.members.begin(), g.members.end());
      into.bytes += g.bytes;
    };
    std::vector<uint32_t> seen(m.values.size(), 0);
    for (auto &[name, g] : byName) {
      // The update variant: the name's members in the update cone, one
      // dimension per value (a conflict keeps the lower one).
      RestGroup withUpdate = g;
      withUpdate.withUpdate = true;
      for (const DimRef &d : g.members) seen[d.value] = name + 1;
      for (const DimRef &d : names.names[name].members)
        if (cone[d.value] && seen[d.value] != name + 1) {
          seen[d.value] = name + 1;
          withUpdate.members.push_back(d);
        }
      size_t whole = names.names[name].members.size();
      // A name that lives only at these values: ShardName is the same action.
      RestGroup optimizer = withUpdate;
      optimizer.parametersWhole = true;
      std::erase_if(optimizer.members,
                    [&](const DimRef &d) { return argRole[d.value] == int8_t(ArgRole::Parameter); });
      if (!optimizer.members.empty() && optimizer.members.size() != withUpdate.members.size())
        add(uint64_t(signatureOf[name]) | (1ull << 61), std::move(optimizer));
      if (withUpdate.members.size() > g.members.size() && withUpdate.members.size() != whole)
        add(uint64_t(signatureOf[name]) | (1ull << 62), std::move(withUpdate));
      if (g.members.size() != whole) add(uint64_t(signatureOf[name]), std::move(g));
    }
    for (auto &[key, g] : unnamed) add(key | (1ull << 63), std::move(g));
  }
  for (size_t g = 0; g < s.restGroups.size(); ++g) {
    const RestGroup &rest = s.restGroups[g];
    const std::string &axis = s.axes[size_t(rest.axis)].name;
    if (std::any_of(rest.members.begin(), rest.members.end(),
                    [&](const DimRef &d) { return !s.manual.binds(d.value, axis); }))
      candidates.push_back({{ActionKind::ShardAtRest, uint32_t(g), rest.axis}, double(rest.bytes)});
  }

  // Conflicts, grouped like their names and values.
  s.conflictsOfName.resize(names.names.size());
  s.conflictSiblings.resize(names.conflicts.size());
  std::map<std::vector<uint64_t>, size_t> conflictGroupOf;
  std::vector<double> conflictBytes;
  for (size_t c = 0; c < names.conflicts.size(); ++c) {
    const DimConflict &dc = names.conflicts[c];
    s.conflictsOfName[dc.name].push_back(uint32_t(c));
  }
  for (size_t c = 0; c < names.conflicts.size(); ++c) {
    const DimConflict &dc = names.conflicts[c];
    for (uint32_t o : s.conflictsOfName[dc.name])
      if (o != c && names.conflicts[o].value == dc.value) s.conflictSiblings[c].push_back(o);
    // Only worth choosing when the name can be sharded at all.
    bool shardable = std::any_of(s.axes.begin(), s.axes.end(),
                                 [&](const SearchAxis &a) { return names.names[dc.name].size % a.size == 0; });
    if (!shardable) continue;
    std::vector<uint64_t> key = {signatureOf[dc.name], valueKind(m, dc.value, argRole), dc.dimA, dc.dimB};
    auto [it, inserted] = conflictGroupOf.try_emplace(key, s.conflictGroups.size());
    if (inserted) {
      s.conflictGroups.emplace_back();
      conflictBytes.push_back(0);
    }
    s.conflictGroups[it->second].push_back(uint32_t(c));
    conflictBytes[it->second] += 0.5 * double(m.types.byteSize(m.type(dc.value)));
  }
  for (size_t g = 0; g < s.conflictGroups.size(); ++g)
    candidates.push_back({{ActionKind::ResolveConflict, uint32_t(g), -1}, conflictBytes[g]});

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
  auto more = [](size_t n, const char *what) {
    return n > 1 ? " and " + std::to_string(n - 1) + " more " + what + " like it" : std::string();
  };
  switch (a.kind) {
  case ActionKind::ShardName: {
    const std::vector<NameId32> &g = nameGroups[a.target];
    const DimName &n = names->names[g[0]];
    return "shard n" + std::to_string(g[0]) + more(g.size(), "name(s)") + " (size " + std::to_string(n.size) +
           ", " + std::to_string(n.members.size()) + " dims, e.g. " + example(n.members) + ") on \"" +
           axes[size_t(a.axis)].name + "\"";
  }
  case ActionKind::ShardAtRest: {
    const RestGroup &g = restGroups[a.target];
    size_t numArgs = 0;
    for (const DimRef &d : g.members) numArgs += m->values[d.value].isBlockArg;
    if (g.parametersWhole)
      return "shard the optimizer update (" + std::to_string(numArgs) + " state argument(s), " +
             std::to_string(g.members.size() - numArgs) + " values; parameters whole) (e.g. " + example(g.members) +
             ") on \"" + axes[size_t(a.axis)].name + "\"";
    return "shard at rest " + std::to_string(numArgs) + " argument(s)" +
           (g.withUpdate ? " with their update (" + std::to_string(g.members.size() - numArgs) + " values)" : "") +
           " (e.g. " + example(g.members) + ") on \"" + axes[size_t(a.axis)].name + "\"";
  }
  case ActionKind::ResolveConflict: {
    const std::vector<uint32_t> &g = conflictGroups[a.target];
    const DimConflict &c = names->conflicts[g[0]];
    return "resolve conflict of n" + std::to_string(c.name) + more(g.size(), "conflict(s)") + ": " +
           describeDim(*m, {c.value, c.dimB}) + " keeps it, not dim " + std::to_string(c.dimA);
  }
  }
  return "?";
}

}  // namespace autopart
