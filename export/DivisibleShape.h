// The shape a tensor must take so that its sharding splits every dimension
// evenly: each sharded dimension rounds up to a multiple of its shard count
// (the product of its axes' sizes). pad-for-divisibility grows tensors to
// these shapes; the partitioner then sees only even splits.
//
//   sdy.mesh @mesh = <["x"=4, "y"=2]>
//   tensor<7x5xf32>, <@mesh, [{"x"}, {"y"}]>   -> tensor<8x6xf32>
//   tensor<8x4xf32>, <@mesh, [{"x"}, {"y"}]>   -> tensor<8x4xf32> (already even)
//   tensor<7xf32>,   no sharding / replicated -> tensor<7xf32>
#pragma once

#include <cstdint>
#include <vector>

#include "ir/Module.h"

namespace autopart {

// `shape` grown so `s` (on `mesh`) divides every static dimension.
std::vector<int64_t> divisibleShape(const std::vector<int64_t> &shape, const TensorSharding &s,
                                    const Mesh &mesh);

// The divisible form of `type` under `s` on `mesh`: `type` itself when it is
// not a ranked tensor, `s` or `mesh` is null, `s` is fully replicated, or
// every dimension already divides.
TypeId divisibleType(Module &m, TypeId type, const TensorSharding *s, const Mesh *mesh);
// The same with `s`'s mesh looked up in the module (a symbol-table scan).
TypeId divisibleType(Module &m, TypeId type, const TensorSharding *s);

}  // namespace autopart
