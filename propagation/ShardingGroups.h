// Sharding groups (`sdy.sharding_group %v group_id=N`): values that must end
// up with the same sharding. Before propagation the members' initial
// shardings are reconciled as Shardy does:
//
// - members without a sharding, or with a fully open unsharded one, take the
//   one sharding the others agree on;
// - when two members start with different shardings, a warning names the
//   group and every member gets an open `sdy.sharding_constraint` after it,
//   which becomes the group member; propagation then fills the constraints
//   from both sides and keeps them equal:
//
//   %arg0 [{"a"}, {}], %arg1 [{"b"}, {}], both in group 0
//   ->
//   %0 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]>
//   %1 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {?}]>
//   sdy.sharding_group %1 group_id=0 / sdy.sharding_group %0 group_id=0
#pragma once

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

// Rewrites groups whose members conflict (see above); members that agree are
// left for the propagation driver to synchronise. Returns the number of
// constraints inserted.
size_t isolateConflictingShardingGroups(Module &m, Diagnostics &diags);

// Whether `s` shards nothing and leaves every dimension open.
bool isFullyOpenUnsharded(const TensorSharding &s);

}  // namespace autopart
