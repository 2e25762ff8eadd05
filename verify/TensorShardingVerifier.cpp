#include "verify/TensorShardingVerifier.h"

#include <algorithm>

namespace autopart {

namespace {

// `pre * size` (the pre-size of whatever follows a sub-axis), or -1 when it
// does not fit: such a sub-axis cannot lie inside any real axis anyway.
int64_t nextPreSize(const AxisRef &r) {
  int64_t out;
  if (__builtin_mul_overflow(r.preSize, r.subSize, &out)) return -1;
  return out;
}

bool canMerge(const AxisRef &prev, const AxisRef &next) {
  return prev.isSubAxis() && next.isSubAxis() && prev.name == next.name &&
         nextPreSize(prev) == next.preSize;
}

std::string axisListError(const char *what) {
  return std::string(what) + " axes are not ordered w.r.t. mesh";
}

// The axes made manual by the `sdy.manual_computation` ops around `op`, each
// with the outermost op that made it manual (Shardy points its note there).
std::vector<std::pair<std::string_view, OpId>> boundManualAxes(const Module &m, OpId op) {
  std::vector<std::pair<std::string_view, OpId>> out;
  for (OpId p = m.parentOp(op); p != kNone; p = m.parentOp(p)) {
    if (!m.isa(p, "sdy.manual_computation")) continue;
    AttrId axes = m.attr(p, "manual_axes");
    if (axes == kNoAttr || m.attrs.kind(axes) != AttrKind::Array) continue;
    for (AttrId name : m.attrs.get(axes).elems) {
      std::string_view n = m.attrs.stringValue(name);
      auto it = std::find_if(out.begin(), out.end(), [&](const auto &e) { return e.first == n; });
      if (it == out.end()) {
        out.push_back({n, p});
      } else {
        it->second = p;
      }
    }
  }
  return out;
}

}  // namespace

bool axisRefLess(const Mesh &mesh, const AxisRef &a, const AxisRef &b) {
  if (a.name != b.name) {
    // Unknown axes sort last; they are reported as unknown right after.
    auto index = [&](const AxisRef &r) {
      int i = mesh.axisIndex(r.name);
      return i < 0 ? int(mesh.axes.size()) : i;
    };
    return index(a) < index(b);
  }
  if (!a.isSubAxis()) return b.isSubAxis() && b.preSize > 1;
  if (!b.isSubAxis()) return a.preSize == 1;
  return std::pair(a.preSize, a.subSize) < std::pair(b.preSize, b.subSize);
}

bool AxisRefChecker::addList(const std::vector<AxisRef> &axes) {
  const AxisRef *prev = nullptr;
  for (const AxisRef &r : axes) {
    if (mesh_.axisIndex(r.name) < 0) {
      emit_("unknown axis name: \"" + r.name + "\"");
      return false;
    }
    if (std::find(seen_.begin(), seen_.end(), r) != seen_.end()) {
      emit_("duplicate axis ref: " + r.str());
      return false;
    }
    seen_.push_back(r);
    // Overlapping neighbours are left to checkSubAxes.
    if (prev && canMerge(*prev, r)) {
      emit_("two consecutive sub-axes can be merged: " + prev->str() + ", " + r.str());
      return false;
    }
    prev = &r;
  }
  return true;
}

bool AxisRefChecker::checkSubAxes() {
  for (const MeshAxis &axis : mesh_.axes) {
    std::vector<AxisRef> subAxes;
    bool full = false;
    for (const AxisRef &r : seen_) {
      if (r.name != axis.name) continue;
      if (r.isSubAxis()) {
        subAxes.push_back(r);
      } else {
        full = true;
      }
    }
    if (subAxes.empty()) continue;
    if (full) {
      emit_("both sub-axis and full-axis are used for axis name: \"" + axis.name + "\"");
      return false;
    }
    std::sort(subAxes.begin(), subAxes.end(),
              [&](const AxisRef &a, const AxisRef &b) { return axisRefLess(mesh_, a, b); });
    const AxisRef *prev = nullptr;
    for (const AxisRef &r : subAxes) {
      if (r.preSize < 1) {
        emit_("sub-axis pre-size must be at least 1: " + r.str());
        return false;
      }
      if (r.subSize <= 1) {
        emit_("sub-axis sizes must be greater than 1: " + r.str());
        return false;
      }
      int64_t next = nextPreSize(r);
      if (next <= 0 || axis.size % next != 0) {
        emit_("sub-axis next pre-size " + std::to_string(next) +
              " doesn't divide the size of the full axis " + std::to_string(axis.size) + ": " +
              r.str());
        return false;
      }
      if (r.subSize == axis.size) {
        emit_("sub-axis size is equal to the full axis size: " + r.str());
        return false;
      }
      if (prev && nextPreSize(*prev) > r.preSize) {
        emit_("overlapping sub-axes: " + prev->str() + ", " + r.str());
        return false;
      }
      prev = &r;
    }
  }
  return true;
}

bool verifyTensorSharding(VerifyContext &ctx, const TensorSharding &s, TypeId type,
                          const EmitFn &emit, OpId op) {
  const Module &m = ctx.m;
  const Mesh *mesh = ctx.mesh(s);
  if (!mesh) {
    emit("unknown mesh: @" + s.meshName);
    return false;
  }
  // A maximal sharding places the whole value on one device: it names no
  // dimension, whatever the value's type. So does the sharding of an op
  // without results.
  if (mesh->isMaximal() || (type == kNoType && s.isFullyReplicated())) {
    if (s.rank() != 0 || !s.replicated.empty() || !s.unreduced.empty()) {
      emit("a maximal sharding can only have a sharding with rank 0 and no replicated or "
           "unreduced axes.");
      return false;
    }
    return true;
  }
  if (type != kNoType && m.types.get(type).kind == TypeKind::Tuple) {
    // A tuple of one tensor (a custom call's result) is sharded as the tensor.
    const TypeStorage &tuple = m.types.get(type);
    if (tuple.members.size() != 1) {
      emit("ops can only have a sharding for a tuple of size 1: " + std::string(m.types.str(type)));
      return false;
    }
    type = tuple.members[0];
  }
  TypeKind kind = type == kNoType ? TypeKind::None : m.types.get(type).kind;
  if (kind != TypeKind::Tensor && kind != TypeKind::UnrankedTensor) {
    if (s.rank() != 0 || !s.replicated.empty() || !s.unreduced.empty()) {
      emit("non-shaped tensors can only have a sharding with rank 0 and no replicated or "
           "unreduced axes. type: " +
           std::string(type == kNoType ? "<<NULL TYPE>>" : m.types.str(type)) +
           ", sharding: " + s.str());
      return false;
    }
    return true;
  }
  if (kind == TypeKind::UnrankedTensor) {
    emit("only ranked tensors can have a sharding. type: " + std::string(m.types.str(type)));
    return false;
  }
  size_t rank = m.types.get(type).shape.size();
  if (s.rank() != rank) {
    emit("sharding doesn't match tensor rank: " + std::to_string(s.rank()) +
         " != " + std::to_string(rank));
    return false;
  }

  AxisRefChecker axes(*mesh, emit);
  for (size_t d = 0; d < s.dims.size(); ++d) {
    const DimSharding &dim = s.dims[d];
    if (dim.priority) {
      if (*dim.priority < 0) {
        emit("dim " + std::to_string(d) + " has a negative priority");
        return false;
      }
      if (dim.closed && dim.axes.empty()) {
        emit("dim " + std::to_string(d) + " is empty and closed but has a priority");
        return false;
      }
    }
    if (!axes.addList(dim.axes)) return false;
  }
  auto sortedList = [&](const std::vector<AxisRef> &list, const char *what) {
    for (size_t i = 1; i < list.size(); ++i)
      if (axisRefLess(*mesh, list[i], list[i - 1])) {
        emit(axisListError(what));
        return false;
      }
    return axes.addList(list);
  };
  if (!sortedList(s.replicated, "replicated") || !sortedList(s.unreduced, "unreduced"))
    return false;
  if (!axes.checkSubAxes()) return false;

  if (op == kNone) return true;
  std::vector<std::pair<std::string_view, OpId>> bound = boundManualAxes(m, op);
  if (bound.empty()) return true;
  for (const AxisRef &r : s.allAxes()) {
    auto it = std::find_if(bound.begin(), bound.end(),
                           [&](const auto &e) { return e.first == r.name; });
    if (it == bound.end()) continue;
    emit("operates on axis \"" + r.name +
         "\" which is already bound by a parent sdy.manual_computation op");
    ctx.note(it->second, "parent bounding this axis as manual");
    return false;
  }
  return true;
}

}  // namespace autopart
