// Per-device sizes of a sharded tensor: the local shard is the global shape
// with each dimension divided (rounding up: uneven shards are padded) by the
// product of the axes sharding it.
//
//   tensor<1024x512xf32> sharded [{"x"}, {"y"}] on ["x"=8, "y"=4]
//   -> local 128x128, 65536 bytes
#pragma once

#include "ir/Module.h"

namespace autopart {

// Bytes of the local shard of a value of type `t` (0 for non-tensors with no
// static size); `s` may be null (replicated).
int64_t localBytes(const TypeTable &types, TypeId t, const TensorSharding *s, const Mesh *mesh);
// Elements of the local shard.
int64_t localElements(const TypeTable &types, TypeId t, const TensorSharding *s, const Mesh *mesh);

}  // namespace autopart
