#include "api/InputShardings.h"

#include <map>

#include "asm/Printer.h"
#include "export/PreserveText.h"
#include "ir/CollectiveAxes.h"
#include "ir/MeshLookup.h"
#include "ir/ShardingWalk.h"

namespace autopart {

namespace {

bool onMesh(const TensorSharding &s, const std::string &meshName) {
  return !s.inlineMesh && s.meshName == meshName;
}

// An axis of the input's mesh that the new mesh lacks, or has at another
// size: a sharding using it cannot stay as written.
bool axisConflicts(const std::string &axis, const Mesh &oldMesh, const Mesh &newMesh) {
  return newMesh.axisIndex(axis) < 0 || newMesh.axisSize(axis) != oldMesh.axisSize(axis);
}

struct Conflict {
  OpId op = kNone;
  std::string sharding;
  std::string axis;
};

std::string meshText(const std::string &name, const Mesh &mesh) { return "@" + name + " = " + mesh.str(); }

// The input's axes (those its shardings use) renamed to axes of the new
// mesh of equal size: an axis of the same name and size stays, others take
// the first unused new axis of their size, in mesh order.
std::optional<std::map<std::string, std::string>> axisMapping(const Mesh &oldMesh, const Mesh &newMesh,
                                                              const std::vector<bool> &used,
                                                              std::string *why) {
  std::map<std::string, std::string> mapping;
  std::vector<bool> taken(newMesh.axes.size(), false);
  for (size_t i = 0; i < oldMesh.axes.size(); ++i) {
    const MeshAxis &a = oldMesh.axes[i];
    int same = newMesh.axisIndex(a.name);
    if (used[i] && same >= 0 && newMesh.axes[size_t(same)].size == a.size) {
      taken[size_t(same)] = true;
      mapping[a.name] = a.name;
    }
  }
  for (size_t i = 0; i < oldMesh.axes.size(); ++i) {
    const MeshAxis &a = oldMesh.axes[i];
    if (!used[i] || mapping.count(a.name)) continue;
    // An axis of size 1 splits nothing: shardings lose it (as Shardy's
    // -sdy-remove-size-one-axes does) instead of taking a new axis.
    if (a.size == 1) {
      mapping[a.name] = "";
      continue;
    }
    for (size_t j = 0; j < newMesh.axes.size(); ++j)
      if (!taken[j] && newMesh.axes[j].size == a.size) {
        taken[j] = true;
        mapping[a.name] = newMesh.axes[j].name;
        break;
      }
    if (!mapping.count(a.name)) {
      *why = "--mesh has no axis of size " + std::to_string(a.size) + " left for the input's axis \"" + a.name + "\"";
      return std::nullopt;
    }
  }
  return mapping;
}

bool isSdyCollective(const Module &m, OpId op) {
  std::string_view n = m.opName(op);
  return n == "sdy.all_gather" || n == "sdy.all_slice" || n == "sdy.all_to_all" || n == "sdy.all_reduce" ||
         n == "sdy.reduce_scatter" || n == "sdy.collective_permute" || n == "sdy.sharded_to_unreduced" ||
         n == "sdy.replicated_to_unreduced";
}

// Ops whose meaning depends on the mesh's axes beyond a sharding: the body
// of a manual computation is per-device code, a collective moves data over
// named axes. Their axes can be kept or renamed to axes of the same sizes,
// not dropped.
OpId firstAxisBoundOp(const Module &m, const std::string &meshName) {
  OpId found = kNone;
  forEachSharding(m, [&](OpId op, const TensorSharding &s) {
    if (found == kNone && onMesh(s, meshName) && (m.isa(op, "sdy.manual_computation") || isSdyCollective(m, op)))
      found = op;
  });
  return found;
}

// Renames the axes that manual computations and collectives on `meshName`
// name outside their shardings: `manual_axes`, and the axis lists the
// collectives keep as written (`[{"x"}, {}]`), where names are quoted.
// The sizes are equal, so per-device bodies keep their meaning.
void renameBoundAxes(Module &m, const std::string &meshName, const std::map<std::string, std::string> &mapping) {
  std::vector<OpId> ops;
  forEachSharding(m, [&](OpId op, const TensorSharding &s) {
    if (onMesh(s, meshName) && (ops.empty() || ops.back() != op) &&
        (m.isa(op, "sdy.manual_computation") || isSdyCollective(m, op)))
      ops.push_back(op);
  });
  for (OpId op : ops) {
    if (AttrId a = m.attr(op, "manual_axes"); a != kNoAttr && m.attrs.kind(a) == AttrKind::Array) {
      std::vector<AttrId> names = m.attrs.get(a).elems;
      std::vector<AttrId> kept;
      for (AttrId n : names) {
        auto it = mapping.find(std::string(m.attrs.stringValue(n)));
        if (it == mapping.end()) kept.push_back(n);
        else if (!it->second.empty()) kept.push_back(m.attrs.string(it->second));
      }
      names = std::move(kept);
      m.setAttr(op, "manual_axes", m.attrs.array(std::move(names)));
    }
    std::vector<std::pair<std::string, AttrId>> edits;
    for (const NamedAttr &a : m.attributes(op)) {
      if (m.attrs.kind(a.value) != AttrKind::Opaque) continue;
      std::optional<CollectiveAxes> axes = parseCollectiveAxes(m.attrs.str(a.value));
      if (!axes) continue;
      // Renamed in place; an axis of size 1 (mapped to "") is removed.
      bool changed = false;
      auto rename = [&](AxisList &list) {
        for (AxisRef &r : list)
          if (auto it = mapping.find(r.name); it != mapping.end() && it->second != r.name) {
            r.name = it->second;
            changed = true;
          }
        std::erase_if(list, [](const AxisRef &r) { return r.name.empty(); });
      };
      for (AxisList &d : axes->perDim) rename(d);
      rename(axes->axes);
      for (AllToAllParam &p : axes->params) rename(p.axes);
      if (changed) edits.emplace_back(std::string(m.names.str(a.name)), m.attrs.opaque(axes->str()));
    }
    for (auto &[name, value] : edits) m.setAttr(op, name, value);
  }
}

// Removes every sharding on `meshName`: argument and result attributes,
// op shardings, and the constraints and reshards that only restate one.
size_t dropShardings(Module &m, const std::string &meshName) {
  size_t dropped = 0;
  auto mentions = [&](AttrId a) {
    bool any = false;
    forEachShardingIn(m, a, [&](const TensorSharding &t) { any |= onMesh(t, meshName); });
    return any;
  };
  std::vector<OpId> ops;
  m.walk(m.top, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops) {
    if (m.isa(op, "func.func")) {
      MutableFuncView f(m, op);
      size_t numArgs = f.entry() == kNone ? 0 : f.args().size();
      for (size_t i = 0; i < numArgs; ++i)
        if (mentions(f.argAttr(i, "sdy.sharding"))) {
          f.removeArgAttr(i, "sdy.sharding");
          ++dropped;
        }
      for (size_t i = 0; i < f.numResults(); ++i)
        if (mentions(f.resultAttr(i, "sdy.sharding"))) {
          f.removeResultAttr(i, "sdy.sharding");
          ++dropped;
        }
      continue;
    }
    if ((m.isa(op, "sdy.sharding_constraint") || m.isa(op, "sdy.reshard")) && mentions(m.attr(op, "sharding"))) {
      OpId func = m.enclosingFunc(op);
      m.replaceAllUsesWith(m.result(op), m.operand(op, 0), func == kNone ? m.top : func);
      m.eraseOp(op);
      ++dropped;
      continue;
    }
    if (AttrId a = m.attr(op, "sdy.sharding"); mentions(a)) {
      dropped += m.attrs.kind(a) == AttrKind::ShardingPerValue ? m.attrs.get(a).shardings.size() : 1;
      m.removeAttr(op, "sdy.sharding");
    }
  }
  return dropped;
}

// Replaces `m` by the parse of its own text, with the input's formatting
// where the edits allow (export/PreserveText.h).
bool reparse(std::unique_ptr<Module> &m, Diagnostics &diags) {
  std::string why;
  std::optional<std::string> text = preserveText(*m, &why);
  std::string fileName = m->fileName;
  std::unique_ptr<Module> fresh = parseProgram({text ? std::move(*text) : printModule(*m), fileName}, diags);
  if (!fresh) return false;
  m = std::move(fresh);
  return true;
}

}  // namespace

std::optional<InputShardingPolicy> parseInputShardingPolicy(const std::string &text, Diagnostics &diags) {
  if (text.empty() || text == "error") return InputShardingPolicy::Error;
  if (text == "keep") return InputShardingPolicy::Keep;
  if (text == "map") return InputShardingPolicy::Map;
  if (text == "drop") return InputShardingPolicy::Drop;
  diags.error("input shardings: expected keep, map, drop or error, got '" + text + "'");
  return std::nullopt;
}

bool reconcileInputShardings(std::unique_ptr<Module> &m, const std::string &meshName, const Mesh &newMesh,
                             InputShardingPolicy policy, Diagnostics &diags, std::vector<Note> &notes) {
  const Mesh *named = meshNamed(*m, meshName);
  if (!named) return true;
  const Mesh oldMesh = *named;
  OpId meshOp = m->lookupSymbol(meshName);
  if (oldMesh == newMesh) return true;

  size_t count = 0;
  Conflict conflict;
  std::vector<bool> used(oldMesh.axes.size(), false);
  auto useAxis = [&](OpId op, const std::string &axis, const std::string &where) {
    if (int i = oldMesh.axisIndex(axis); i >= 0) used[size_t(i)] = true;
    if (conflict.op == kNone && axisConflicts(axis, oldMesh, newMesh)) conflict = {op, where, axis};
  };
  OpId lastManual = kNone;
  forEachSharding(*m, [&](OpId op, const TensorSharding &s) {
    if (!onMesh(s, meshName)) return;
    ++count;
    for (const AxisRef &a : s.allAxes()) useAxis(op, a.name, s.str());
    // A manual computation's manual axes are the mesh's too, even those no
    // sharding names (an axis of size 1).
    AttrId manual = m->attr(op, "manual_axes");
    if (op == lastManual || manual == kNoAttr || m->attrs.kind(manual) != AttrKind::Array) return;
    lastManual = op;
    for (AttrId n : m->attrs.get(manual).elems)
      useAxis(op, std::string(m->attrs.stringValue(n)), "manual_axes of sdy.manual_computation");
  });
  std::string meshes = "the input's mesh " + meshText(meshName, oldMesh) + " differs from --mesh " + newMesh.str();
  auto setNewMesh = [&] { m->setAttr(meshOp, "mesh", m->attrs.mesh(newMesh)); };
  if (count == 0) return true;
  if (conflict.op == kNone && policy != InputShardingPolicy::Drop) {
    // Every axis the shardings use is in the new mesh at its size.
    notes.push_back({"kept " + std::to_string(count) + " input sharding(s): " + meshes +
                         ", which has every axis they use",
                     std::nullopt});
    setNewMesh();
    return reparse(m, diags);
  }
  std::string axisSize = "\"" + conflict.axis + "\"=" + std::to_string(oldMesh.axisSize(conflict.axis));
  switch (policy) {
  case InputShardingPolicy::Error:
    diags.error(*m, conflict.op,
                meshes + ", and " + std::to_string(count) + " input sharding(s) use its axes; " + conflict.sharding +
                    " uses axis " + axisSize + ", which --mesh lacks. Choose with --input-shardings: keep (--mesh "
                    "must contain the input's axes), map (rename them to --mesh axes of the same size) or drop "
                    "(plan from scratch)");
    return false;
  case InputShardingPolicy::Keep:
    diags.error(*m, conflict.op,
                "--input-shardings keep: " + conflict.sharding + " uses axis " + axisSize +
                    ", which --mesh " + newMesh.str() +
                    " lacks; keep the input's axes in --mesh (e.g. add them to it), or use map or drop");
    return false;
  case InputShardingPolicy::Map: {
    std::string why;
    std::optional<std::map<std::string, std::string>> mapping = axisMapping(oldMesh, newMesh, used, &why);
    if (!mapping) {
      diags.error(*m, conflict.op, "--input-shardings map: " + why + " (" + meshes + ")");
      return false;
    }
    rewriteShardings(*m, [&](TensorSharding &s) {
      if (!onMesh(s, meshName)) return false;
      bool changed = false;
      auto rename = [&](std::vector<AxisRef> &axes) {
        for (AxisRef &a : axes)
          if (auto it = mapping->find(a.name); it != mapping->end() && it->second != a.name) {
            a.name = it->second;
            changed = true;
          }
        size_t before = axes.size();
        std::erase_if(axes, [](const AxisRef &a) { return a.name.empty(); });
        changed |= axes.size() != before;
      };
      for (DimSharding &d : s.dims) rename(d.axes);
      rename(s.replicated);
      rename(s.unreduced);
      return changed;
    });
    renameBoundAxes(*m, meshName, *mapping);
    std::string pairs;
    for (const MeshAxis &a : oldMesh.axes)
      if (auto it = mapping->find(a.name); it != mapping->end())
        pairs += (pairs.empty() ? "" : ", ") + a.name + " -> " + (it->second.empty() ? "(size 1, removed)" : it->second);
    notes.push_back({"mapped " + std::to_string(count) + " input sharding(s) to --mesh " + newMesh.str() + ": " + pairs,
                     std::nullopt});
    setNewMesh();
    return reparse(m, diags);
  }
  case InputShardingPolicy::Drop: {
    if (OpId bound = firstAxisBoundOp(*m, meshName); bound != kNone) {
      diags.error(*m, bound,
                  "--input-shardings drop: " + std::string(m->opName(bound)) +
                      " cannot lose its shardings (its body or its data movement is written for them); use keep");
      return false;
    }
    size_t dropped = dropShardings(*m, meshName);
    notes.push_back({"", Diagnostic{Severity::Warning, m->fileName, 0, 0,
                                    "--input-shardings drop: dropped " + std::to_string(dropped) +
                                        " input sharding(s) on " + meshText(meshName, oldMesh) +
                                        "; planning from scratch on " + newMesh.str()}});
    setNewMesh();
    return reparse(m, diags);
  }
  }
  return true;
}

std::optional<Mesh> resolveRequestMesh(std::unique_ptr<Module> &m, const std::string &meshSpec,
                                       const std::string &policy, Diagnostics &diags, std::vector<Note> &notes,
                                       std::string *meshName) {
  Diagnostics local;
  std::optional<InputShardingPolicy> p = parseInputShardingPolicy(policy, local);
  if (!p) {
    addWithOption(diags, local, "--input-shardings");
    return std::nullopt;
  }
  std::optional<Mesh> mesh = resolveMesh(*m, meshSpec, diags, meshName);
  if (!mesh || !reconcileInputShardings(m, *meshName, *mesh, *p, diags, notes)) return std::nullopt;
  return mesh;
}

}  // namespace autopart
