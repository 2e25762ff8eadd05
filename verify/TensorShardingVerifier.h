// A tensor sharding checked against the value it shards and its mesh, with
// Shardy's messages. Every place that carries a `#sdy.sharding` (function
// arguments and results, op results, sharding constraints, reshards,
// collectives' out_sharding, manual computations' in/out shardings) calls
// this one check.
//
//   mesh ["a"=8], tensor<16x8xf32>
//   [{"a":(1)4, "a":(2)4}, {}]   -> overlapping sub-axes: "a":(1)4, "a":(2)4
//   [{"a"}]                      -> sharding doesn't match tensor rank: 1 != 2
#pragma once

#include <functional>
#include <string>

#include "verify/Verifier.h"

namespace autopart {

// Emits each problem through `emit` (which adds the "'op' op arg 0 - "
// context) and returns false when there is any. `type` is the value's type.
bool verifyTensorSharding(VerifyContext &ctx, const TensorSharding &s, TypeId type,
                          const std::function<void(const std::string &)> &emit);

}  // namespace autopart
