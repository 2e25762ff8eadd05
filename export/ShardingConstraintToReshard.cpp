// `-sdy-sharding-constraint-to-reshard`: after propagation a sharding
// constraint has done its job as a hint; what remains is a point where the
// value must have that sharding, i.e. a reshard. The op keeps its operand,
// sharding and other attributes and only changes its name.
//
//   %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> {foo} : tensor<8x8xf32>
//   -> %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {?}]> {foo} : tensor<8x8xf32>
#include "ir/Pass.h"

namespace autopart {

namespace {

PassRegistration reg("sdy-sharding-constraint-to-reshard", "Turns every sdy.sharding_constraint into an sdy.reshard",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       if (m.top == kNone) return true;
                       NameId reshard = m.names.get("sdy.reshard");
                       m.walk(m.top, [&](OpId op) {
                         if (m.isa(op, "sdy.sharding_constraint")) m.ops[op].name = reshard;
                       });
                       return true;
                     });

}  // namespace

}  // namespace autopart
