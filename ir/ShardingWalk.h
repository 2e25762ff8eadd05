// Every tensor sharding a module's attributes hold, wherever it sits:
// `sdy.sharding` on function arguments and results (inside `arg_attrs` /
// `res_attrs`), `sdy.sharding` per result on ops, the `sharding` of
// sharding constraints and reshards, collectives' `out_sharding`, manual
// computations' `in_shardings` / `out_shardings`.
//
//   func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
//     %0 = sdy.sharding_constraint %a <@mesh, [{}]> : tensor<8xf32>
//   forEachSharding -> (func @f, [{"x"}]), (the constraint, [{}])
//   rewriteShardings(rename "x" -> "data") -> both rewritten, interned anew
#pragma once

#include <functional>

#include "ir/Module.h"

namespace autopart {

// Calls `fn(op, sharding)` for each sharding, ops in program order.
void forEachSharding(const Module &m, const std::function<void(OpId, const TensorSharding &)> &fn);
// The shardings inside one attribute (through arrays and dictionaries).
void forEachShardingIn(const Module &m, AttrId a, const std::function<void(const TensorSharding &)> &fn);

// The attribute `a` with `fn`'s edits of the shardings inside it (the same
// id when it changed none). `fn` also gets the slot: the index in the
// outermost array or sharding list (`arg_attrs` entry i, result i's
// sharding), 0 for a lone sharding.
AttrId rewriteShardingsIn(Module &m, AttrId a, const std::function<bool(size_t slot, TensorSharding &)> &fn);

// Lets `fn` edit each sharding in place (it returns true when it changed
// it) and stores the edited ones back. Returns how many it changed.
size_t rewriteShardings(Module &m, const std::function<bool(TensorSharding &)> &fn);

}  // namespace autopart
