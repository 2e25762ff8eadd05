// Microbatching (gradient accumulation): the step runs its forward and
// backward pass k times over slices of the batch inside a `stablehlo.while`,
// sums what each pass reduces over the batch (gradients, the loss), and runs
// what follows (the optimizer update) once on the sums. Activations shrink
// by k; the parameters and optimizer state do not.
//
// Which values are per example comes from the named-dimension analysis: the
// batch is the name of dimension 0 of the data argument of highest rank, and
// of the other data arguments whose dimension 0 has that size and a name no
// parameter shares (labels), as the dp tactic takes it; a value carries the
// batch when one of its dimensions has one of those names. Ops that read per-example values form the loop
// body (their per-example dimensions divided by k); an op that turns
// per-example values into a value without the batch must be a sum over it
// (dot_general, convolution, reduce or scatter with an add body), whose
// microbatch results add up to the original. Everything the body needs that
// does not depend on the data stays before the loop; what reads the sums
// moves after it.
//
//   %h = dot_general %x, %w            (x: tensor<64x512>, batch 64)
//   %g = dot_general %x, %dh, contracting 0   -> tensor<512x..>, a sum over the batch
//   %w2 = subtract %w, %g
// with k = 4:
//   %xs = stablehlo.reshape %x : tensor<16x4x512>  (row b = 4 * r + j)
//   %r:2 = stablehlo.while(%i = %c0, %acc = %zero) cond { %i < 4 } do {
//     %x_j = dynamic_slice %xs[0, %i, 0] sizes [16, 1, 512] -> reshape 16x512
//     %h = dot_general %x_j, %w ; %g = ... ; %acc2 = add %acc, %g
//     return %i + 1, %acc2 }
//   %w2 = subtract %w, %r#1
//
// Microbatch j takes rows j, j + k, ... so that a batch sharded over devices
// stays sharded the same way in every microbatch (the split keeps the
// batch's major factor). A program that mixes examples (batch statistics),
// slices, sorts or concatenates along the batch, or returns a per-example
// value is refused with the op that does it.
#pragma once

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

struct MicrobatchResult {
  OpId loop = kNone;
  BlockId body = kNone;
  int64_t batch = 0, microbatch = 0, count = 1;
  int accumulators = 0;
  int bodyOps = 0;
};

bool microbatch(Module &m, OpId func, int64_t count, MicrobatchResult &out, Diagnostics &diags);

// The data argument whose dimension 0 is the batch (highest rank, most
// bytes on ties), or kNone.
ValueId batchArgument(const Module &m, OpId func);

}  // namespace autopart
