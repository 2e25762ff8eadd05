// `-sdy-sharding-group-import`: validates and canonicalizes sharding
// groups before propagation.
//
// - Validation: all members of a group sit under the same manual
//   computation (or none) and have the same shape; otherwise an error.
// - Unification: groups sharing a value are merged (transitively), and the
//   merged groups are renumbered 0..N-1 in order of appearance.
// - A value in the same group twice keeps one `sdy.sharding_group`.
//
//   sdy.sharding_group %arg0 group_id=1234   sdy.sharding_group %arg0 group_id=2345
//   sdy.sharding_group %arg1 group_id=1234   sdy.sharding_group %arg1 group_id=3456
//   ->
//   sdy.sharding_group %arg0 group_id=0      sdy.sharding_group %arg1 group_id=0
//
// Reconciling the members' initial shardings is left to propagation
// (propagation/ShardingGroups).
#pragma once

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

bool importShardingGroups(Module &m, Diagnostics &diags);

}  // namespace autopart
