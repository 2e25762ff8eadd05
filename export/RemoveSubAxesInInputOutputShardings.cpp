// `-sdy-remove-sub-axes-in-input-output-shardings`: the entry function's
// argument and result shardings must be expressible to the runtime, which
// knows whole mesh axes only. In every open dimension the axes from the
// first sub-axis on are dropped (a later axis would change meaning once the
// sub-axis before it is gone). Closed dimensions, other functions and
// intermediate values are left alone.
//
//   @main(%arg0 {sdy.sharding = <@mesh, [{"x":(1)2, "y", ?}, {"z"}]>})
//   -> @main(%arg0 {sdy.sharding = <@mesh, [{?}, {"z"}]>})
#include <algorithm>

#include "ir/Pass.h"

namespace autopart {

namespace {

constexpr const char *kName = "sdy-remove-sub-axes-in-input-output-shardings";

// The sharding attribute `a` with open dimensions cut at their first
// sub-axis; `a` itself when nothing changes.
AttrId withoutSubAxes(Module &m, AttrId a) {
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) return a;
  TensorSharding s = *m.attrs.get(a).sharding;
  bool changed = false;
  for (DimSharding &d : s.dims) {
    if (d.closed) continue;
    auto firstSub = std::find_if(d.axes.begin(), d.axes.end(), [](const AxisRef &x) { return x.isSubAxis(); });
    if (firstSub == d.axes.end()) continue;
    d.axes.erase(firstSub, d.axes.end());
    changed = true;
  }
  return changed ? m.attrs.sharding(std::move(s)) : a;
}

bool run(Module &m, const PassOptions &, Diagnostics &diags) {
  OpId func = m.findEntryFunction();
  if (func == kNone) {
    diags.error(std::string(kName) + ": the module has no main function");
    return false;
  }
  MutableFuncView f(m, func);
  for (size_t i = 0; i < f.args().size(); ++i) {
    AttrId old = f.argAttr(i, "sdy.sharding");
    if (AttrId updated = withoutSubAxes(m, old); updated != old) f.setArgAttr(i, "sdy.sharding", updated);
  }
  for (size_t i = 0; i < f.numResults(); ++i) {
    AttrId old = f.resultAttr(i, "sdy.sharding");
    if (AttrId updated = withoutSubAxes(m, old); updated != old) f.setResultAttr(i, "sdy.sharding", updated);
  }
  return true;
}

PassRegistration reg(kName, "Drops sub-axes (and the axes after them) from the open dimensions of the main function's "
                     "argument and result shardings", run);

}  // namespace

}  // namespace autopart
