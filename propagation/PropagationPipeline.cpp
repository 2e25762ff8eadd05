// `-sdy-propagation-pipeline`: what XLA runs on a module that carries
// shardings before it partitions, in Shardy's order:
//
//   -sdy-import-pipeline       (import/: meshes lifted, size-one axes
//                               removed, constants split, data-flow edges
//                               added, constraints applied, sharding groups
//                               imported)
//   -sdy-import-func-calls,    (each call becomes a named computation
//   symbol-dce,                 holding a copy of its callee, with data-flow
//   -sdy-pre-order-funcs        edges; callees left uncalled are erased;
//                               callers first)
//   user-priority propagation  (p0 first, each round an op-priority
//                               propagation with the aggressive factor
//                               strategy, UserPriorityPropagation.h)
//   -sdy-export-named-computations (the computations become calls of
//                               functions again, one per computation)
//   -sdy-export-pipeline       (export/ExportPipeline.cpp, the one list of
//                               export steps: call-boundary edges sunk, the
//                               call graph unflattened (copies sharded alike
//                               merged) and dead functions erased, constants merged, edges sunk,
//                               constraints to reshards, closed shardings,
//                               explicit reshards, meshes inlined)
//
//   %arg0 [{"a"}p1, {"b"}p1], %0 = add %arg0, %arg1,
//   %1 = divide %0, %arg2 [{"c"}p0, {?}]
//   -> round p0 gives %0 and %1 "c" on dimension 0 (and "b" on dimension 1
//      once %arg0's round comes); the priorities and open dimensions are gone
//      from the output, and every sharding carries its mesh inline.
//
// Options. The propagation passes' options (`propagationPassOptions`) reach
// the import steps and propagation. Shardy's propagation options that only
// its export reads are handed to the export pipeline as Shardy hands them
// (its populateExportOptions): keep-sharding-rules, the debug options as
// dump-sharding-origins / dump-propagation-edges, module-dump-directory as
// dump-directory, and, under the export pipeline's own names,
// avoid-export-for-partitioning, enable-insert-explicit-collectives,
// remove-all-gather-reduce-scatter-for-cmv1,
// avoid-reshards-on-named-computations, dedup-functions-fully,
// update-non-divisible-input-output-shardings and inline-meshes.
//
// The steps before and after propagation are found by their registered
// names, so the stages that own them (import/, export/) stay separate; a
// missing step is an error naming it.
#include "propagation/PropagationPipeline.h"

#include <string>

#include "ir/PassOptionCatalog.h"
#include "propagation/UserPriorityPropagation.h"

namespace autopart {

namespace {

constexpr const char *kName = "sdy-propagation-pipeline";

// Shardy's propagation options that only the export pipeline reads, under
// the export pipeline's names.
const std::vector<PassOptionSpec> &exportOnlyOptions() {
  static const std::vector<PassOptionSpec> k = {
      sharedPassOption("avoid-export-for-partitioning"),
      sharedPassOption("enable-insert-explicit-collectives"),
      sharedPassOption("remove-all-gather-reduce-scatter-for-cmv1"),
      sharedPassOption("avoid-reshards-on-named-computations"),
      sharedPassOption("dedup-functions-fully"),
      sharedPassOption("update-non-divisible-input-output-shardings"),
      sharedPassOption("inline-meshes")};
  return k;
}

bool isExportOnly(const std::string &key) {
  for (const PassOptionSpec &spec : exportOnlyOptions())
    if (spec.name == key) return true;
  return false;
}

std::vector<PassOptionSpec> pipelineOptionSpecs() {
  std::vector<PassOptionSpec> specs = propagationOptionSpecs(PropagationPass::Pipeline);
  specs.insert(specs.end(), exportOnlyOptions().begin(), exportOnlyOptions().end());
  return specs;
}

// The export pipeline's options from the pipeline's, as Shardy populates
// its export options from its propagation options.
PassOptions exportOptions(const PassOptions &o, bool insertExplicitReshards) {
  PassOptions out;
  for (const auto &[key, value] : o.values)
    if (isExportOnly(key)) out.values[key] = value;
  auto copy = [&](const char *from, const char *to) {
    auto it = o.values.find(from);
    if (it != o.values.end()) out.values[to] = it->second;
  };
  copy("keep-sharding-rules", "keep-sharding-rules");
  copy("debug-sharding-origins", "dump-sharding-origins");
  copy("debug-edge-source-sharding", "dump-propagation-edges");
  copy("module-dump-directory", "dump-directory");
  if (!insertExplicitReshards) out.values["insert-explicit-reshards"] = "false";
  return out;
}

}  // namespace

bool runPropagationPipeline(Module &m, const PassOptions &o, Diagnostics &diags, PropagationStats *stats,
                            bool insertExplicitReshards) {
  PassOptions propagation;
  for (const auto &[key, value] : o.values)
    if (!isExportOnly(key)) propagation.values[key] = value;
  std::optional<PropagationOptions> options = propagationPassOptions(propagation, PropagationPass::Pipeline, diags);
  if (!options) return false;
  if (!runPipelineStep(kName, "sdy-import-pipeline", m, propagation, diags)) return false;
  // Calls become named computations holding a copy of the callee, so that
  // propagation crosses them and each call site of a function may shard it
  // its own way; symbol-dce then erases the callees nothing calls any more.
  for (const char *step : {"sdy-import-func-calls", "symbol-dce", "sdy-pre-order-funcs"})
    if (!runPipelineStep(kName, step, m, PassOptions{}, diags)) return false;
  if (!UserPriorityPropagation(m, *options, diags).run(stats)) return false;
  // Back to functions and calls before the export (copies sharded alike are
  // merged again by its -sdy-unflatten-call-graph).
  if (!runPipelineStep(kName, "sdy-export-named-computations", m, PassOptions{}, diags)) return false;
  return runPipelineStep(kName, "sdy-export-pipeline", m, exportOptions(o, insertExplicitReshards), diags);
}

namespace {

PassRegistration reg(kName,
                     "Shardy's propagation pipeline: the import passes, user-priority propagation (op priorities, "
                     "aggressive factor strategy), then Shardy's export pipeline (call graph unflattened, data-flow "
                     "edges sunk, constraints to reshards, closed shardings, explicit reshards, inlined meshes)",
                     [](Module &m, const PassOptions &o, Diagnostics &diags) {
                       return runPropagationPipeline(m, o, diags);
                     },
                     pipelineOptionSpecs());

}  // namespace

}  // namespace autopart
