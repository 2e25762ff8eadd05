// Batched use replacement: many values redirected with one walk of their
// function instead of one walk per value, for the passes that insert an op
// after each of many values (edges) or replace many ops (calls).
//
//   replaceUses(m, func, {%0 -> %5, %1 -> %6}, {edge ops})
//   -> every operand %0 / %1 under `func` reads %5 / %6, except in the
//      ops listed in `keep` (the edges still read their owners)
#pragma once

#include <unordered_map>
#include <unordered_set>

#include "ir/Module.h"

namespace autopart {

void replaceUses(Module &m, OpId scope, const std::unordered_map<ValueId, ValueId> &replace,
                 const std::unordered_set<OpId> &keep = {});

}  // namespace autopart
