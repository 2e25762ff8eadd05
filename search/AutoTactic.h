// The `auto` tactic of a schedule (`autopart plan --tactics dp,auto`): the
// MCTS search (search/Mcts.h) run from the state earlier tactics left, on the
// axes the tactic names, its plan written back into that state. The plan
// driver passes it to applySchedule (tactics/ApplySchedule.h), which has no
// search of its own.
//
//   applySchedule(ctx, parse("dp,auto"), state, makeAutoTactic({}), &err)
//   -> dp shards the batch on "data"; auto then adds what the search finds
//      best on top (e.g. the MLP hidden names on "model"), never undoing dp.
#pragma once

#include <string>

#include "search/SearchMethod.h"
#include "tactics/ApplySchedule.h"

namespace autopart {

struct AutoTacticOptions {
  std::string device = "h100-80gb";  // preset name or JSON file (sim/Hardware.h)
  SearchBudget budget;
};

AutoTacticFn makeAutoTactic(AutoTacticOptions options = {});

}  // namespace autopart
