// The shape of a training step inside one block, as the memory levers need
// it: which values depend on the data, where the forward pass ends and the
// backward pass begins, which forward values the backward pass reads
// (residuals), and where the repeated layers meet (checkpoints).
//
// No frontend marks the backward pass. The forward pass is what the step's
// loss is computed from (the returned values that carry no state to the
// next step, analysis/CarriedState.h); the backward pass and the update are
// the rest, so a residual is a forward value a backward op reads. A step
// that returns no loss (a bare jax.grad) is cut where the bytes of live
// data-dependent values peak: they grow through the forward pass (every
// activation is kept for the gradient) and shrink through the backward
// pass. Layer boundaries are the forward points where the
// data-dependent values still needed by the forward pass are fewest in bytes:
// in a transformer only the residual stream crosses from one layer to the
// next.
//
//   %h1 = dot %x, %w1 ; %a1 = tanh %h1 ; %y = dot %a1, %w2 ; %l = reduce %y   <- forward
//   %g  = ... ; %dw2 = dot %a1, %g ; %da = ... %h1 ...                         <- backward
//   boundary: before %g; residuals: %a1, %h1 (read on both sides)
#pragma once

#include <cstdint>
#include <vector>

#include "ir/Module.h"

namespace autopart {

struct StepStructure {
  BlockId block = kNone;
  std::vector<OpId> ops;        // the block's ops in order
  std::vector<bool> dataDependent;  // per ValueId (whole function)
  // Per ValueId: depends on some argument (else a function of constants and
  // iotas, such as a causal mask).
  std::vector<bool> argumentDependent;
  // Per op of the block (by index in `ops`): part of the forward pass.
  std::vector<char> forward;
  // Index in `ops` of the first backward op (ops.size(): no backward pass).
  size_t boundary = 0;
  // Values defined by forward ops of the block and read by backward ops, in
  // program order.
  std::vector<ValueId> residuals;
  // Forward values live across a layer boundary (the fewest forward-live
  // bytes), in program order; `layerBoundaries` counts those points.
  std::vector<ValueId> checkpoints;
  int layerBoundaries = 0;
  // Per op of the block: its index in `ops` (kNone elsewhere), by OpId.
  std::vector<uint32_t> position;
  // Per value defined in the block: index of the last op reading it
  // (uses nested in regions count at their top op).
  std::vector<uint32_t> lastUse;
};

// `dataRoots`: the step's per-example inputs (its data arguments).
StepStructure analyzeStep(const Module &m, OpId func, BlockId block, const std::vector<ValueId> &dataRoots);

// The function's data arguments by analysis/ArgumentRoles.h.
std::vector<ValueId> dataArguments(const Module &m, OpId func);

}  // namespace autopart
