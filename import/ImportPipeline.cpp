#include "import/ImportPipeline.h"

#include "ir/Pass.h"

namespace autopart {

const std::vector<std::string> &importPipelineSteps() {
  static const std::vector<std::string> steps = {
      "sdy-lift-inlined-meshes",        "sdy-remove-size-one-axes",       "sdy-constant-or-scalar-splitter",
      "sdy-manual-axes-cleanup",        "sdy-add-data-flow-edges",        "sdy-apply-sharding-constraints",
      "sdy-sharding-group-import",
  };
  return steps;
}

namespace {

bool runImportPipeline(Module &m, const PassOptions &opts, Diagnostics &diags) {
  for (const std::string &name : importPipelineSteps())
    if (!runPipelineStep("sdy-import-pipeline", name, m, opts, diags)) return false;
  return true;
}

PassRegistration reg("sdy-import-pipeline",
                     "Shardy's import passes in order: the preparation every propagation starts from",
                     runImportPipeline,
                     {{"dedup-functions-fully", "bool",
                       "accepted as Shardy's import pipeline takes it; the import keeps calls as they are, "
                       "so it changes nothing here (-sdy-unflatten-call-graph reads it)"}});

}  // namespace

}  // namespace autopart
