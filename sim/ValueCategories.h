// What each value of a training step is, for the memory report's breakdown
// of the peak (sim/Memory.h): parameters, optimizer state, gradients,
// activations, inputs or other.
//
// - An argument takes its role (analysis/ArgumentRoles.h): Parameter ->
//   parameters, OptimizerState -> optimizer state, Data -> inputs.
// - A value returned at a position that carries a parameter or optimizer
//   state to the next step (analysis/CarriedState.h) is that state: the
//   updated weight is a parameter, the new moment optimizer state.
// - Any other value is data-dependent if it depends, transitively, on a
//   Data argument that is not carried (a step counter or an RNG key is
//   carried state, not per-step data). A data-dependent value is a gradient
//   if its shape equals that of a Parameter argument and it reaches (forward
//   along uses) a result that carries state; else an activation.
// - A value that does not depend on data is optimizer state if it derives
//   from an OptimizerState argument, parameters if it derives from Parameter
//   arguments (and constants: a bf16 cast of an f32 weight), else other
//   (constants alone, iota, a counter).
//
// Dependence is followed into regions: a while's carried position k takes
// operand k and what the body returns at k (the body is walked again until
// no position changes, in practice once or twice); another op with regions
// (case, reduce, sort) gives its block arguments the union of its operands
// and its results everything used inside. Reaching a carried result is
// followed back the same way. One walk in program order and one in reverse.
//
//   func @main(%w: tensor<8x4xf32> {jax.arg_info = "params['w']"},
//              %x: tensor<2x8xf32> {jax.arg_info = "batch['x']"})
//     %y  = dot_general %x, %w      // data-dependent, 2x4: activation
//     %g  = dot_general %x, %y      // data-dependent, 8x4 like %w, reaches %w1: gradient
//     %s  = multiply %lr, %g        // gradient
//     %w1 = subtract %w, %s         // returned, carries %w: parameters
//     return %w1
//
// What it cannot tell: a gradient that is not parameter-shaped (of an
// activation, or of a weight stacked differently from its argument) counts
// as an activation, and a parameter-shaped activation that feeds the update
// as a gradient.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "analysis/ArgumentRoles.h"
#include "ir/Module.h"

namespace autopart {

enum class MemoryCategory : uint8_t {
  Parameters,
  OptimizerState,
  Gradients,
  Activations,
  Inputs,
  CollectiveBuffers,  // the transient buffers of the op running (sim/Memory.h)
  Other,
};
inline constexpr size_t kNumMemoryCategories = 7;

// Bytes per category, indexed by MemoryCategory.
using MemoryBreakdown = std::array<int64_t, kNumMemoryCategories>;

// "optimizer state" (for text) and "optimizer_state" (a JSON key).
const char *memoryCategoryName(MemoryCategory c);
const char *memoryCategoryKey(MemoryCategory c);

// The category of every value of `func` (arguments, results, values inside
// regions), indexed by ValueId; values outside `func` are Other.
std::vector<MemoryCategory> valueCategories(const Module &m, OpId func);
// The same with the arguments' roles already classified (classifyArguments).
std::vector<MemoryCategory> valueCategories(const Module &m, OpId func, const std::vector<ArgumentInfo> &roles);

}  // namespace autopart
