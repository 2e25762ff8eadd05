// `-sdy-update-non-divisible-input-output-shardings`: the shardings at
// function boundaries (arguments, results, call results) and on manual
// computations' operands and results must split every dimension evenly, since
// no padding can be added there. Each dimension keeps its axes while their
// product divides the dimension; the first axis that does not divide what is
// left shrinks to the largest sub-axis that does (the gcd), and the axes after
// it are dropped. Intermediate values keep their (padded) shardings.
//
//   sdy.mesh @mesh = <["x"=8, "y"=3]>
//   %arg0: tensor<6xf32> {sdy.sharding = <@mesh, [{"y", "x"}]>}
//   -> "y" splits 6 into 2, gcd(8, 2) = 2: [{"y", "x":(1)2}]
#include <numeric>

#include "ir/MeshLookup.h"
#include "ir/Pass.h"
#include "ir/ShardingWalk.h"

namespace autopart {

namespace {

// Makes `s` split the static shape `shape` evenly; returns whether it changed.
bool makeEvenlySharded(TensorSharding &s, const std::vector<int64_t> &shape, const Mesh &mesh) {
  if (shape.size() != s.dims.size()) return false;
  bool changed = false;
  for (size_t d = 0; d < s.dims.size(); ++d) {
    std::vector<AxisRef> &axes = s.dims[d].axes;
    int64_t left = shape[d];
    size_t kept = 0;
    for (; kept < axes.size(); ++kept) {
      int64_t size = axes[kept].size(mesh);
      if (left % size == 0) {
        left /= size;
        continue;
      }
      int64_t g = std::gcd(size, left);
      if (g > 1) {
        AxisRef &a = axes[kept];
        a.preSize = a.isSubAxis() ? a.preSize : 1;
        a.subSize = g;
        ++kept;
        changed = true;
      }
      break;
    }
    if (kept < axes.size()) {
      axes.resize(kept);
      changed = true;
    }
  }
  return changed;
}

// Rewrites the shardings in attribute `name` of `op`; slot i has type `types[i]`.
void updateAttr(Module &m, OpId op, std::string_view name, const std::vector<TypeId> &types) {
  AttrId old = m.attr(op, name);
  if (old == kNoAttr) return;
  AttrId updated = rewriteShardingsIn(m, old, [&](size_t slot, TensorSharding &s) {
    if (slot >= types.size() || !m.types.isTensor(types[slot]) || m.types.hasDynamicDim(types[slot])) return false;
    const Mesh *mesh = shardingMesh(m, s);
    return mesh && makeEvenlySharded(s, m.types.shape(types[slot]), *mesh);
  });
  if (updated != old) m.setAttr(op, name, updated);
}

std::vector<TypeId> valueTypes(const Module &m, auto values) {
  std::vector<TypeId> types;
  for (ValueId v : values) types.push_back(m.type(v));
  return types;
}

std::vector<TypeId> resultTypes(const Module &m, OpId op) {
  std::vector<TypeId> types;
  for (uint32_t i = 0; i < m.numResults(op); ++i) types.push_back(m.type(m.result(op, i)));
  return types;
}

bool run(Module &m, const PassOptions &, Diagnostics &) {
  if (m.top == kNone) return true;
  for (OpId func : m.functions()) {
    FuncView f{m, func};
    AttrId ft = m.attr(func, "function_type");
    std::vector<TypeId> inputs = ft == kNoAttr ? valueTypes(m, f.args()) : m.types.get(m.attrs.get(ft).type).members;
    updateAttr(m, func, "arg_attrs", inputs);
    updateAttr(m, func, "res_attrs", f.resultTypes());
  }
  std::vector<OpId> ops;
  m.walk(m.top, [&](OpId op) {
    if (m.isa(op, "func.call") || m.isa(op, "sdy.manual_computation")) ops.push_back(op);
  });
  for (OpId op : ops) {
    if (m.isa(op, "func.call")) {
      updateAttr(m, op, "sdy.sharding", resultTypes(m, op));
      continue;
    }
    updateAttr(m, op, "in_shardings", valueTypes(m, m.operands(op)));
    updateAttr(m, op, "out_shardings", resultTypes(m, op));
  }
  return true;
}

PassRegistration reg("sdy-update-non-divisible-input-output-shardings",
                     "Makes function, call and manual-computation boundary shardings split their dimensions evenly",
                     run);

}  // namespace

}  // namespace autopart
