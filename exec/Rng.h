// The counter-based bit generators behind stablehlo.rng_bit_generator, laid
// out as XLA's CPU and GPU compilers lay them out (RngBitGeneratorExpander +
// the ThreeFry/Philox bit generators of xla/hlo/builder/lib/prng), so that a
// program run here draws the same bits as under XLA for the same state:
//
//   state [1, 2], THREE_FRY, tensor<2x2xui64>   (the spec's example)
//   key = state[0], counter = state[1] + row-major index
//   -> bits [9236835810183407956, 16087790271692313299,
//            18212823393184779219, 2658481902456610144], state [1, 6]
//
//   state [k, lo] or [k, lo, hi], PHILOX (and DEFAULT, which XLA maps to
//   PHILOX): 128-bit counter (lo, hi), hi = k when the state has 2 words;
//   Philox4x32-10 of counter + i gives 4 words for elements 4i..4i+3
//   (64-bit elements: 2 per block, low word first).
//
// 32-bit THREE_FRY outputs use both halves of a block for two neighbouring
// elements along the first even dimension (or the largest one); elements
// narrower than 32 bits keep the low bits of a 32-bit draw.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace autopart::exec {

// Threefry-2x32 with 20 rounds (Salmon et al., SC 2011): key (k0, k1),
// counter (x0, x1) -> two words.
std::array<uint32_t, 2> threefry2x32(std::array<uint32_t, 2> key, std::array<uint32_t, 2> counter);

// Philox-4x32 with 10 rounds: counter (4 words), key (2 words) -> four words.
std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);

enum class RngAlgorithm { Default, ThreeFry, Philox };

struct RngBits {
  std::vector<uint64_t> bits;   // one per element, row-major, in the low `bitWidth` bits
  std::vector<uint64_t> state;  // output_state
};

// Draws elements of `bitWidth` bits (1..64) for a result of `shape` from
// `state`. Throws std::runtime_error when the state's size does not fit the
// algorithm (THREE_FRY: 2 words; PHILOX/DEFAULT: 2 or 3).
RngBits generateRngBits(RngAlgorithm alg, const std::vector<uint64_t> &state, const std::vector<int64_t> &shape,
                        int bitWidth);

}  // namespace autopart::exec
