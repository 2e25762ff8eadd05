// `-sdy-close-shardings`: every sharding of the module becomes closed and
// loses its replicated axes, so nothing after propagation can widen it.
//
//   %arg0 {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}], replicated={"y"}>}
//   -> %arg0 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
//
// Priorities go too: they only steer propagation, which is over.
#include "ir/Pass.h"
#include "ir/ShardingWalk.h"

namespace autopart {

namespace {

bool closeSharding(TensorSharding &s) {
  bool changed = !s.replicated.empty();
  s.replicated.clear();
  for (DimSharding &d : s.dims) {
    changed |= !d.closed || d.priority.has_value();
    d.closed = true;
    d.priority.reset();
  }
  return changed;
}

PassRegistration reg("sdy-close-shardings", "Closes every sharding and removes its replicated axes",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       rewriteShardings(m, closeSharding);
                       return true;
                     });

}  // namespace

}  // namespace autopart
