// `-sdy-export-pipeline`: Shardy's clean-up after propagation, as one flag,
// the passes found by their registered names in Shardy's order:
//
//   -sdy-sink-func-data-flow-edges      call-boundary edges back onto arguments / calls
//   -sdy-unflatten-call-graph           copies with equal shardings merged (dedup-functions-fully)
//   -symbol-dce                         the copies left without calls erased
//   -sdy-constant-or-scalar-merger      constant copies merged again
//   -sdy-sink-data-flow-edges           edge shardings back onto their owners
//                                        (sink-debug-* = dump-sharding-origins /
//                                        dump-propagation-edges)
//   -sdy-remove-sharding-groups         } unless avoid-export-for-partitioning
//   -sdy-sharding-constraint-to-reshard }
//   -sdy-update-non-divisible-input-output-shardings } if update-non-divisible-
//   -sdy-remove-sub-axes-in-input-output-shardings   } input-output-shardings
//   -sdy-close-shardings
//   -sdy-insert-explicit-reshards       unless avoid-export-for-partitioning
//                                        (enable-full-version =
//                                        enable-insert-explicit-collectives, and
//                                        avoid-reshards-on-named-computations)
//   -canonicalize (reshard patterns)    } if enable-insert-explicit-collectives
//   -sdy-reshard-to-collectives         }
//   -canonicalize (collective patterns)
//   -sdy-remove-all-gather-reduce-scatter-for-cmv1   and remove-all-gather-...
//   -sdy-remove-propagation-debug-info  if dump-sharding-origins / dump-propagation-edges
//   -sdy-drop-sharding-rules            unless keep-sharding-rules
//   -sdy-inline-meshes                  shardings carry their mesh, as the
//                                        exported modules of Shardy's pipeline tests do
//                                        (unless inline-meshes=false, Shardy's
//                                        PropagationOptions::inlineMeshes)
//
// `insert-explicit-reshards=false` is autopart's own option (Shardy has
// none): every step but -sdy-insert-explicit-reshards and what follows from
// it, so reshards stay implicit. The completion of a user's program
// (propagation/CompleteShardings.h) plans the user's own ops, whose reshards
// the simulator derives; the insertion may re-shard an op to suit the
// reshard it inserts.
//
//   sdy.mesh @mesh3d = <["a"=4, "b"=4, "c"=4]>
//   func.func @main(%arg0: tensor<2x4xf32> {sdy.sharding = <@mesh3d, [{"a", ?}, {"b"}]>})
//   ->
//   func.func @main(%arg0: tensor<2x4xf32> {sdy.sharding = <mesh<["a"=4, "b"=4, "c"=4]>, [{}, {"b"}]>})
//   ("a"=4 does not divide 2, so dimension 0 keeps no axis; the sharding is closed)
//
// A step this build lacks is an error naming it, never skipped.
// `dump-directory` (Shardy's module dumps between steps) is not supported and
// is rejected.
#include <initializer_list>
#include <string>
#include <utility>

#include "ir/Pass.h"
#include "ir/PassOptionCatalog.h"

namespace autopart {

namespace {

constexpr const char *kName = "sdy-export-pipeline";

const std::vector<PassOptionSpec> &optionSpecs() {
  static const std::vector<PassOptionSpec> k = {
      sharedPassOption("keep-sharding-rules"),
      sharedPassOption("avoid-export-for-partitioning"),
      sharedPassOption("update-non-divisible-input-output-shardings"),
      sharedPassOption("enable-insert-explicit-collectives"),
      sharedPassOption("remove-all-gather-reduce-scatter-for-cmv1"),
      {"dump-sharding-origins", "bool", "keep sharding origins (default false)"},
      {"dump-propagation-edges", "bool", "keep propagation edges (default false)"},
      sharedPassOption("dedup-functions-fully"),
      sharedPassOption("avoid-reshards-on-named-computations"),
      {"dump-directory", "string", "Shardy's module dumps; accepted only empty (autopart writes none)"},
      sharedPassOption("inline-meshes"),
      {"insert-explicit-reshards", "bool", "run -sdy-insert-explicit-reshards (default true)"}};
  return k;
}

PassOptions with(std::initializer_list<std::pair<const char *, bool>> entries) {
  PassOptions o;
  for (const auto &[key, value] : entries) o.values[key] = value ? "true" : "false";
  return o;
}

bool run(Module &m, const PassOptions &o, Diagnostics &diags) {
  if (!checkPassOptions(PassInfo{kName, "", nullptr, optionSpecs()}, o, diags)) return false;
  if (!o.getString("dump-directory", "").empty()) {
    diags.error(std::string(kName) + ": dump-directory is not supported");
    return false;
  }
  bool forPartitioning = !o.getBool("avoid-export-for-partitioning", false);
  bool collectives = o.getBool("enable-insert-explicit-collectives", false);
  bool origins = o.getBool("dump-sharding-origins", false);
  bool edges = o.getBool("dump-propagation-edges", false);
  PassOptions none;
  auto step = [&](const std::string &name, const PassOptions &stepOptions) {
    return runPipelineStep(kName, name, m, stepOptions, diags);
  };
  if (!step("sdy-sink-func-data-flow-edges", none) ||
      !step("sdy-unflatten-call-graph", with({{"dedup-functions-fully", o.getBool("dedup-functions-fully", false)}})) ||
      !step("symbol-dce", none) || !step("sdy-constant-or-scalar-merger", none) ||
      !step("sdy-sink-data-flow-edges",
            with({{"sink-debug-sharding-origins", origins}, {"sink-debug-propagation-edge-sharding", edges}})))
    return false;
  if (forPartitioning &&
      (!step("sdy-remove-sharding-groups", none) || !step("sdy-sharding-constraint-to-reshard", none)))
    return false;
  if (o.getBool("update-non-divisible-input-output-shardings", true) &&
      (!step("sdy-update-non-divisible-input-output-shardings", none) ||
       !step("sdy-remove-sub-axes-in-input-output-shardings", none)))
    return false;
  if (!step("sdy-close-shardings", none)) return false;
  if (forPartitioning && o.getBool("insert-explicit-reshards", true)) {
    PassOptions reshards =
        with({{"enable-full-version", collectives},
              {"avoid-reshards-on-named-computations", o.getBool("avoid-reshards-on-named-computations", false)}});
    if (!step("sdy-insert-explicit-reshards", reshards)) return false;
    // Shardy canonicalizes with one pattern label at a time: reshards before
    // the conversion (a reshard of a reshard becomes one), then collectives
    // (an all-slice after an all-reduce becomes a reduce-scatter, all-to-alls
    // fuse, no-op collectives go).
    PassOptions reshardPatterns, collectivePatterns;
    reshardPatterns.values["enable-patterns"] = "sdy-reshard";
    collectivePatterns.values["enable-patterns"] = "sdy-collective";
    if (collectives && (!step("canonicalize", reshardPatterns) || !step("sdy-reshard-to-collectives", none)))
      return false;
    if (!step("canonicalize", collectivePatterns)) return false;
    if (collectives && o.getBool("remove-all-gather-reduce-scatter-for-cmv1", false) &&
        !step("sdy-remove-all-gather-reduce-scatter-for-cmv1", none))
      return false;
  }
  if ((origins || edges) && !step("sdy-remove-propagation-debug-info", none)) return false;
  if (!o.getBool("keep-sharding-rules", false) && !step("sdy-drop-sharding-rules", none)) return false;
  return !o.getBool("inline-meshes", true) || step("sdy-inline-meshes", none);
}

PassRegistration reg(kName,
                     "Shardy's export passes after propagation: sink data-flow edges, unflatten the call graph, "
                     "constraints to reshards, evenly sharded boundaries, closed shardings, explicit reshards, "
                     "inlined meshes",
                     run, optionSpecs());

}  // namespace

}  // namespace autopart
