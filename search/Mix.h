// One 64-bit mixing function for the search's hashes and random streams:
// the grouping of alike names (search/Action.cpp), the transposition table
// (search/Mcts.cpp), the signatures of alike units (search/RefineUnits.cpp)
// and the annealing walk (search/RefineMoves.cpp). What these compute is
// part of what a seed reproduces, so there is one copy to keep, not four.
//
// It is the finalizer of SplitMix64 (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014): a bijection in
// which every output bit depends on every input bit. Chained it hashes a
// sequence, `h = mix64(h ^ x)` for each x; stepped it is a random stream,
// `s = mix64(s + 0x9E3779B97F4A7C15)`.
#pragma once

#include <cstdint>

namespace autopart {

inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace autopart
