#include "fuzz/MutationSites.h"

#include <algorithm>

#include "ir/ShardingWalk.h"

namespace autopart::fuzz {






bool insideManualComputation(const Module &m, OpId op) {
  for (OpId p = m.parentOp(op); p != kNone; p = m.parentOp(p))
    if (m.isa(p, "sdy.manual_computation")) return true;
  return false;
}

TypeId siteType(const Module &m, OpId op, std::string_view attr, size_t slot) {
  if (m.isa(op, "func.func")) {
    FuncView f{m, op};
    if (attr == "arg_attrs") return slot < f.args().size() ? m.type(f.args()[slot]) : kNoType;
    std::vector<TypeId> results = f.resultTypes();
    return attr == "res_attrs" && slot < results.size() ? results[slot] : kNoType;
  }
  if (attr == "in_shardings") return slot < m.numOperands(op) ? m.type(m.operand(op, slot)) : kNoType;
  if (attr == "sdy.sharding" || attr == "out_shardings" || attr == "sharding" || attr == "out_sharding")
    return slot < m.numResults(op) ? m.type(m.result(op, slot)) : kNoType;
  return kNoType;
}

std::string siteWhere(const Module &m, OpId op, std::string_view attr, size_t slot) {
  if (m.isa(op, "func.func")) {
    FuncView f{m, op};
    return "func @" + std::string(f.name()) + (attr == "arg_attrs" ? " arg " : " result ") + std::to_string(slot);
  }
  return "'" + std::string(m.opName(op)) + "' " + std::string(attr) + " #" + std::to_string(slot) +
         " (base line " + std::to_string(m.lineCol(m.ops[op].srcOffset).line) + ")";
}

std::vector<Site> collectSites(Module &m) {
  std::vector<Site> sites;
  std::vector<OpId> ops;
  m.walk(m.top, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops) {
    bool isFunc = m.isa(op, "func.func");
    bool free = isFunc || (!m.opName(op).starts_with("sdy.") && !insideManualComputation(m, op));
    for (const NamedAttr &na : std::vector<NamedAttr>(m.attributes(op).begin(), m.attributes(op).end())) {
      std::string_view attr = m.names.str(na.name);
      size_t ordinal = 0;
      rewriteShardingsIn(m, na.value, [&](size_t slot, TensorSharding &t) {
        Site s;
        s.sharding = t;
        s.op = op;
        s.attr = na.name;
        s.ordinal = ordinal++;
        s.slot = slot;
        s.type = siteType(m, op, attr, slot);
        s.free = free && (isFunc ? attr == "arg_attrs" || attr == "res_attrs" : attr == "sdy.sharding");
        s.where = siteWhere(m, op, attr, slot);
        sites.push_back(std::move(s));
        return false;
      });
    }
  }
  return sites;
}

void writeSite(Module &m, const Site &s, const TensorSharding &value) {
  std::string name(m.names.str(s.attr));
  size_t seen = 0;
  AttrId n = rewriteShardingsIn(m, m.attr(s.op, name), [&](size_t, TensorSharding &t) {
    if (seen++ != s.ordinal) return false;
    t = value;
    return true;
  });
  m.setAttr(s.op, name, n);
}

std::optional<Mesh> meshOf(const Module &m, const TensorSharding &s) {
  if (s.inlineMesh) return s.inlineMesh;
  OpId op = m.lookupSymbol(s.meshName);
  if (op == kNone || !m.isa(op, "sdy.mesh")) return std::nullopt;
  AttrId a = m.attr(op, "mesh");
  if (a == kNoAttr || !m.attrs.get(a).mesh) return std::nullopt;
  return *m.attrs.get(a).mesh;
}

bool usesAxis(const TensorSharding &s, const std::string &name) {
  for (const AxisRef &a : s.allAxes())
    if (a.name == name) return true;
  return false;
}

// Removes every reference to axis `name` (so that a sub-axis put in its
// place is the only one and the verifier names the intended rule).
void dropAxis(TensorSharding &s, const std::string &name) {
  auto drop = [&](std::vector<AxisRef> &v) {
    std::erase_if(v, [&](const AxisRef &a) { return a.name == name; });
  };
  for (DimSharding &d : s.dims) {
    drop(d.axes);
    if (d.axes.empty() && d.closed) d.priority.reset();
  }
  drop(s.replicated);
  drop(s.unreduced);
}

std::vector<int64_t> shapeOf(const Module &m, TypeId t) {
  if (t == kNoType || !m.types.isTensor(t)) return {};
  return m.types.shape(t);
}

// A list of axes of `s` a sub-axis of `axis` may be placed in: a dimension,
// or (for rank 0) the replicated axes.
std::vector<AxisRef> &someAxisList(TensorSharding &s, Rng &rng) {
  if (s.dims.empty()) return s.replicated;
  return s.dims[pick(rng, s.dims.size())].axes;
}

// What a mutation works on: the parsed program, its sharding sites and
// meshes, and where the description goes.

}  // namespace autopart::fuzz
