// Reading and writing the shardings at function boundaries, shared by the
// export passes that work on calls (sink-func-data-flow-edges,
// propagate-to-func-results, unflatten-call-graph, insert-func-call-reshards).
//
//   func.func private @bar(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = S})
//   %0:2 = call @foo(%a) : (...) -> (tensor<8xf32>, tensor<4x4xf32>)
//
//   setValueSharding(%arg0 of @bar, T)  -> @bar(%arg0: tensor<8xf32> {sdy.sharding = T})
//   setValueSharding(%0#1, T)           -> call @foo(%a) {sdy.sharding =
//                                           #sdy.sharding_per_value<[<@m, [{?}]>, T]>}
//   (the results that had no sharding get fully open ones on T's mesh)
//   funcResultSharding(@bar, 0)         -> S
#pragma once

#include <optional>
#include <vector>

#include "ir/Module.h"

namespace autopart {

// A fully open sharding on `like`'s mesh for a value of type `t` (rank 0
// for non-tensors), as Shardy's getFullyOpenLike.
TensorSharding fullyOpenLike(const Module &m, const TensorSharding &like, TypeId t);

// Stores `s` as the sharding of `v`: a function entry-block argument's
// `sdy.sharding` argument attribute, or entry `i` of the defining op's
// `sdy.sharding` list. Returns false (and changes nothing) for other block
// arguments.
bool setValueSharding(Module &m, ValueId v, const TensorSharding &s);

// The `sdy.sharding` of a function's argument / result `i`, or null.
const TensorSharding *funcArgSharding(const Module &m, OpId func, size_t i);
const TensorSharding *funcResultSharding(const Module &m, OpId func, size_t i);

// All argument (result) shardings of a function as one list, the missing
// ones fully open on the mesh of the first one present; nullopt when none
// has a sharding (Shardy's getFuncArgShardings / getFuncResultShardings).
std::optional<std::vector<TensorSharding>> funcArgShardings(const Module &m, OpId func);
std::optional<std::vector<TensorSharding>> funcResultShardings(const Module &m, OpId func);

}  // namespace autopart
