// `-sdy-import-pipeline`: the import passes in Shardy's order, the
// preparation every propagation starts from:
//
//   -sdy-lift-inlined-meshes         meshes as symbols, duplicates merged
//   -sdy-remove-size-one-axes        no axis of size 1 in any sharding
//   -sdy-constant-or-scalar-splitter one copy of each constant per user
//   -sdy-manual-axes-cleanup         manual axes explicit and sorted
//   -sdy-add-data-flow-edges         edges on while/case/barrier/computations
//   -sdy-apply-sharding-constraints  closed constraints onto their inputs
//   -sdy-sharding-group-import       groups validated, merged, renumbered
//
// Calls stay calls (Shardy's non-flat call graph support: propagation
// crosses them through their callees), so neither -sdy-import-func-calls
// nor the inliner runs. Shardy also runs MLIR's symbol DCE first; autopart
// has no symbol DCE, so unused private functions are kept. The steps are
// found by their registered names, so a stage that registers one (the
// data-flow edges live with propagation) is not a build dependency.
// Options (Shardy's propagation options, e.g. `dedup-functions-fully`) are
// accepted and passed to every step.
#pragma once

#include <string>
#include <vector>

namespace autopart {

// The pipeline's steps, by registered pass name, in order.
const std::vector<std::string> &importPipelineSteps();

}  // namespace autopart
