// `autopart-opt -xla-sdy-stablehlo-export-pipeline`: the module as XLA's pass
// of that name leaves it for the GSPMD partitioner (export/ExportShardings.h):
// `mhlo.sharding` strings instead of `sdy.sharding`, no `sdy.mesh`, and
// reshards / explicit collectives as `mhlo.copy` ops carrying their target
// sharding.
#include "export/ExportShardings.h"
#include "ir/Pass.h"

namespace autopart {
namespace {

bool runExport(Module &m, const PassOptions &, Diagnostics &diags) {
  ExportOptions opts;
  opts.keepSdy = false;
  return exportGspmdShardings(m, opts, diags);
}

PassRegistration reg("xla-sdy-stablehlo-export-pipeline",
                     "Shardy shardings to GSPMD mhlo.sharding strings, reshards to mhlo.copy", runExport);

}  // namespace
}  // namespace autopart
