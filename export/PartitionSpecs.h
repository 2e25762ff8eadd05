// JAX PartitionSpecs of a function's arguments and results, so a plan can be
// applied from Python with `jax.jit(f, in_shardings=..., out_shardings=...)`:
//
//   [{"data"}, {}]            -> ["data", null]
//   [{"data", "model"}, {}]   -> [["data", "model"], null]
//   [{"x":(1)2}, {}]          -> not expressible (sub-axis): reported
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "ir/Module.h"
#include "ir/Sharding.h"

namespace autopart {

// Null JSON and a reason in `why` when the sharding has sub-axes or
// unreduced axes, which PartitionSpec cannot say.
nlohmann::json partitionSpec(const TensorSharding &s, std::string *why);

// A planned function's specs, as `autopart plan --specs` writes them:
// `sharding(v)` is the plan's sharding of a value (null: replicated).
//
//   {"mesh": {"data": 8, "model": 4},
//    "in_specs": [{"name": "params['w1']", "spec": [null, "model"]}, ...],
//    "out_specs": [{"name": "", "spec": []}]}
nlohmann::json functionPartitionSpecs(const Module &m, OpId func, const Mesh &mesh,
                                      const std::function<const TensorSharding *(ValueId)> &sharding);

}  // namespace autopart
