// Rematerialization: forward values the backward pass reads are recomputed
// just before their first backward use instead of being kept alive through
// the step, trading FLOPs for memory. The recomputation reads its inputs
// through one `stablehlo.optimization_barrier`, the form jax.checkpoint
// lowers to (remat with prevent_cse), so XLA's CSE cannot merge it back into
// the forward pass.
//
// Which residuals (levers/StepStructure.h) are kept is the policy, named as
// users know them:
//   none       keep every residual;
//   full       keep only the checkpoints (the values crossing layer
//              boundaries): each layer is recomputed from its input, as
//              jax.checkpoint around every layer / Megatron-LM's full
//              activation recomputation;
//   selective  recompute only the attention core: residuals with two
//              dimensions of one name (the S x S scores, probabilities and
//              dropout masks of q.k^T over one sequence), Korthikanti et al.
//              2022 (arXiv 2205.05198);
//   dots       keep checkpoints and the results of dot_general/convolution,
//              recompute the rest (JAX's checkpoint_dots policy);
//   dots-no-batch  the same for matmuls without batch dimensions only, so
//              the attention score and context matmuls (batched over heads)
//              are recomputed (JAX's dots_with_no_batch_dims_saveable, the
//              usual choice for transformers).
//
// Before (policy selective), forward then backward:
//   %s = dot_general %q, %k ...        %p = exponential %s
//   ...                                %dv = dot_general %p, %g ...
// After:
//   %s = dot_general %q, %k ...        %p = exponential %s
//   ...   %b:2 = stablehlo.optimization_barrier %q, %k
//         %s2 = dot_general %b#0, %b#1 ...  %p2 = exponential %s2
//         %dv = dot_general %p2, %g ...
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

enum class RematPolicy { None, Full, Selective, Dots, DotsNoBatch };

const char *rematPolicyName(RematPolicy p);
std::optional<RematPolicy> parseRematPolicy(const std::string &name);

struct RematResult {
  int layers = 0;            // layer boundaries found
  int recomputedValues = 0;  // residuals no longer kept
  int keptResiduals = 0;
  int clonedOps = 0;         // ops added to recompute them
  int barriers = 0;
  int64_t droppedBytes = 0;  // global bytes of the residuals recomputed
  // Per value of the rewritten module: the original value it recomputes
  // (kNone for values of the input).
  std::vector<ValueId> recomputes;
};

// Rewrites `block` (the function's entry block, or the body of a
// microbatching loop) of `func`. Fails (false, reason in diags) only on
// programs it cannot read; a step without a backward pass is left as is.
bool rematerialize(Module &m, OpId func, BlockId block, RematPolicy policy, RematResult &out,
                   Diagnostics &diags);

}  // namespace autopart
