// `-sdy-remove-sharding-groups`: sharding groups only tie values together
// during propagation; afterwards the `sdy.sharding_group` ops are erased.
//
//   sdy.sharding_group %0 group_id = 747 : tensor<32x96xf32>
//   -> (nothing)
#include "ir/Pass.h"

namespace autopart {

namespace {

PassRegistration reg("sdy-remove-sharding-groups", "Erases every sdy.sharding_group op",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       if (m.top == kNone) return true;
                       std::vector<OpId> groups;
                       m.walk(m.top, [&](OpId op) {
                         if (m.isa(op, "sdy.sharding_group")) groups.push_back(op);
                       });
                       for (OpId op : groups) m.eraseOp(op);
                       return true;
                     });

}  // namespace

}  // namespace autopart
