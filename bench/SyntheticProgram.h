// Synthetic StableHLO programs of a chosen size for benchmarks: an MLP-like
// chain of dot_general / broadcast / add / maximum ops in JAX's print style,
// about 110 bytes per op.
#pragma once

#include <string>

namespace autopart::bench {

std::string syntheticChain(int64_t numOps);

}  // namespace autopart::bench
