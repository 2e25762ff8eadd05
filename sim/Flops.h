// Floating-point operation counts per op, the one place that evaluates them
// (the stats command, the simulator's roofline and the reports all read it);
// which formula an op uses is its op-table row's FlopModel (rules/OpInfo.h):
//
//   dot_general  2 * |result| * prod(contracting dims)
//                e.g. (128x784) x (784x512): 2 * 128*512 * 784 = 102.8 MFLOP
//   convolution  2 * |result| * prod(kernel spatial) * kernel input features
//   reduce, reduce_window  one op per input element (per window element)
//   elementwise  one op per result element
//   data movement (reshape, transpose, slice, broadcast, gather, ...) 0
#pragma once

#include <cstdint>

#include "ir/Module.h"

namespace autopart {

// FLOPs of one execution of `op` on the global (unsharded) shapes; regions
// (loop bodies, reducers) are not included.
double opFlops(const Module &m, OpId op);

}  // namespace autopart
