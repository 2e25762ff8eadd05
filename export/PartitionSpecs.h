// JAX PartitionSpecs of a function's arguments and results, so a plan can be
// applied from Python with `jax.jit(f, in_shardings=..., out_shardings=...)`:
//
//   [{"data"}, {}]            -> ["data", null]
//   [{"data", "model"}, {}]   -> [["data", "model"], null]
//   [{"x":(1)2}, {}]          -> not expressible (sub-axis): reported
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ir/Sharding.h"

namespace autopart {

// Null JSON and a reason in `why` when the sharding has sub-axes or
// unreduced axes, which PartitionSpec cannot say.
nlohmann::json partitionSpec(const TensorSharding &s, std::string *why);

}  // namespace autopart
