// Memory levers: program rewrites that trade compute for memory, chosen
// together with a sharding plan. A lever configuration is written as tactic
// schedule entries (`remat:full`, `microbatch:8`) and applied in a fixed
// order: microbatching first (it moves the step into a loop), then
// rematerialization inside what is now the step's body.
//
//   LeverConfig c = *parseLevers({"remat:selective", "microbatch:4"}, diags);
//   applyLevers(module, func, c, result, diags);   // module rewritten in place
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/Module.h"
#include "levers/Remat.h"
#include "support/Diagnostics.h"

namespace autopart {

struct LeverConfig {
  RematPolicy remat = RematPolicy::None;
  int64_t microbatches = 1;
  bool any() const { return remat != RematPolicy::None || microbatches > 1; }
  bool operator==(const LeverConfig &) const = default;
};

// "remat:full,microbatch:4", "none" for no lever.
std::string formatLevers(const LeverConfig &c);

// True when `entry` names a lever (`remat:...`, `microbatch:...`).
bool isLeverEntry(const std::string &entry);
// Parses lever entries; an unknown policy or a count < 1 is an error.
std::optional<LeverConfig> parseLevers(const std::vector<std::string> &entries, Diagnostics &diags);

struct LeverResult {
  LeverConfig config;
  RematResult remat;
  int64_t microbatchSize = 0;  // sequences (batch rows) per microbatch
  OpId loop = kNone;           // the microbatching while loop
  std::string summary;         // one line for reports
};

// Rewrites `func` of `m` in place. False (reason in diags, located at the op
// that prevents it) when a lever cannot apply to this program.
bool applyLevers(Module &m, OpId func, const LeverConfig &c, LeverResult &out, Diagnostics &diags);

}  // namespace autopart
