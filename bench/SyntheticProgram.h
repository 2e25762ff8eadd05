// Synthetic StableHLO programs of a chosen size for benchmarks: an MLP-like
// chain of dot_general / broadcast / add / maximum ops in JAX's print style,
// about 110 bytes per op.
#pragma once

#include <string>

namespace autopart::bench {

std::string syntheticChain(int64_t numOps);

// A chain of about `numOps` ops on mesh ["data"=2, "model"=4] whose only
// sharding is the function result's: blocks of dot_general, reshape,
// transpose, reshape, add (of the block's input) and negate, so that
// sharding propagation must carry it backwards through every op:
//
//   %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] ...
//   %1 = stablehlo.reshape %0 : (tensor<64x256xf32>) -> tensor<64x16x16xf32>
//   %2 = stablehlo.transpose %1, dims = [0, 2, 1] ...
//   %3 = stablehlo.reshape %2 : (tensor<64x16x16xf32>) -> tensor<64x256xf32>
//   %4 = stablehlo.add %3, %arg0 : tensor<64x256xf32>
//   %5 = stablehlo.negate %4 : tensor<64x256xf32>   (next block's input)
std::string propagationChain(int64_t numOps);

// A chain of `numOps` adds on mesh ["a"=2, "b"=2] whose shardings alternate
// between dimension 0 and dimension 1 on "a", so that every op's operand
// needs a reshard: the worst case for passes that insert ops
// (-sdy-insert-explicit-reshards inserts one per op).
//
//   %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = ...[{}, {"a"}]...}
//   %1 = stablehlo.add %0, %0 {sdy.sharding = ...[{"a"}, {}]...}
std::string reshardChain(int64_t numOps);

}  // namespace autopart::bench
