#include "propagation/ShardingPropagation.h"

#include "propagation/UserPriorityPropagation.h"

namespace autopart {

bool propagateShardings(Module &m, const PropagationOptions &options, Diagnostics &diags,
                        PropagationStats *stats) {
  if (options.userPriorities) return UserPriorityPropagation(m, options, diags).run(stats);
  if (options.opPriorities) return OpPriorityPropagation(m, options, diags).run(stats);
  return BasicPropagation(m, options, diags).run(stats);
}

}  // namespace autopart
