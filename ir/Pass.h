// Module passes and their registry. A pass registers itself under the flag
// name Shardy's `sdy_opt` uses for the same transformation, so autopart-opt
// can run Shardy's own lit tests:
//
//   static PassRegistration reg("sdy-populate-op-sharding-rules",
//                               "Attach each op's sharding rule", runPopulate);
//
//   autopart-opt in.mlir -sdy-populate-op-sharding-rules='conservative-propagation=true'
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

// Pass options as written after `=`: `{a=1 b=true}` or `a=1,b=true`.
struct PassOptions {
  std::map<std::string, std::string> values;
  bool getBool(const std::string &key, bool dflt) const;
  int64_t getInt(const std::string &key, int64_t dflt) const;
  std::string getString(const std::string &key, const std::string &dflt) const;
  static PassOptions parse(const std::string &text);
};

// Returns false when the pass failed (errors are in `diags`).
using PassFn = std::function<bool(Module &, const PassOptions &, Diagnostics &)>;

// One option a pass reads, as `autopart-opt --help` lists it and as the
// driver checks what the user wrote before the pass runs (mlir-opt rejects
// an unknown option too: a misspelt `enable-full-vesion=false` must not
// silently run the default). `type` is "bool", "int", "string", "list" (a
// comma-separated string: autopart-opt's reader splits `filter=dot,pad` at
// the comma, so the bare words after it are the list's too) or the allowed
// values joined by '|' ("full|selective").
struct PassOptionSpec {
  std::string name;
  std::string type;
  std::string help;
};

struct PassInfo {
  std::string name;
  std::string description;
  PassFn run;
  std::vector<PassOptionSpec> options;  // empty: the pass takes no options
};

const PassInfo *lookupPass(const std::string &name);
// Runs the registered pass `step` as part of `pipeline`: pipelines name their
// steps so the stages that own them stay separate (no upward includes); a
// step missing from the build is an error naming the pipeline and the step.
bool runPipelineStep(const std::string &pipeline, const std::string &step, Module &m, const PassOptions &o,
                     Diagnostics &diags);
std::vector<const PassInfo *> allPasses();

// Errors (naming the pass) for every option `pass` does not declare and every
// value its declared type rejects; true when there are none.
bool checkPassOptions(const PassInfo &pass, const PassOptions &o, Diagnostics &diags);

struct PassRegistration {
  PassRegistration(std::string name, std::string description, PassFn fn, std::vector<PassOptionSpec> options = {});
};

}  // namespace autopart
