#include "levers/Levers.h"

#include <cstdlib>

#include "ir/Pass.h"
#include "levers/Microbatch.h"

namespace autopart {

std::string formatLevers(const LeverConfig &c) {
  std::string s;
  if (c.microbatches > 1) s = "microbatch:" + std::to_string(c.microbatches);
  if (c.remat != RematPolicy::None) s += (s.empty() ? "" : ",") + std::string("remat:") + rematPolicyName(c.remat);
  return s.empty() ? "none" : s;
}

bool isLeverEntry(const std::string &entry) {
  return entry.rfind("remat:", 0) == 0 || entry.rfind("microbatch:", 0) == 0 || entry == "remat" ||
         entry == "microbatch";
}

std::optional<LeverConfig> parseLevers(const std::vector<std::string> &entries, Diagnostics &diags) {
  LeverConfig c;
  for (const std::string &e : entries) {
    size_t colon = e.find(':');
    std::string key = e.substr(0, colon), value = colon == std::string::npos ? "" : e.substr(colon + 1);
    if (key == "remat") {
      std::optional<RematPolicy> p = parseRematPolicy(value);
      if (!p) {
        diags.error("unknown remat policy '" + value + "' (expected none, full, selective, dots or dots-no-batch)");
        return std::nullopt;
      }
      c.remat = *p;
    } else if (key == "microbatch") {
      char *end = nullptr;
      long long n = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 1) {
        diags.error("microbatch needs a count of at least 1, as in microbatch:4 (got '" + e + "')");
        return std::nullopt;
      }
      c.microbatches = n;
    } else {
      diags.error("'" + e + "' is not a lever (remat:POLICY or microbatch:COUNT)");
      return std::nullopt;
    }
  }
  return c;
}

bool applyLevers(Module &m, OpId func, const LeverConfig &c, LeverResult &out, Diagnostics &diags) {
  out = LeverResult{};
  out.config = c;
  BlockId block = FuncView{m, func}.entry();
  if (c.microbatches > 1) {
    MicrobatchResult mb;
    if (!microbatch(m, func, c.microbatches, mb, diags)) return false;
    out.loop = mb.loop;
    out.microbatchSize = mb.microbatch;
    block = mb.body;
    out.summary = std::to_string(c.microbatches) + " microbatches of " + std::to_string(mb.microbatch) +
                  " (of a batch of " + std::to_string(mb.batch) + "), " + std::to_string(mb.accumulators) +
                  " sums accumulated";
  }
  if (c.remat != RematPolicy::None) {
    if (!rematerialize(m, func, block, c.remat, out.remat, diags)) return false;
    const RematResult &r = out.remat;
    if (!out.summary.empty()) out.summary += "; ";
    out.summary += std::string("remat ") + rematPolicyName(c.remat) + ": " + std::to_string(r.recomputedValues) +
                   " of " + std::to_string(r.recomputedValues + r.keptResiduals) + " saved activations recomputed (" +
                   std::to_string(r.clonedOps) + " ops, " + std::to_string(r.layers) + " layer boundaries)";
  }
  return true;
}

namespace {

bool runLeverPass(Module &m, const LeverConfig &c, Diagnostics &diags) {
  OpId func = m.findEntryFunction();
  if (func == kNone) {
    diags.error("no entry function");
    return false;
  }
  LeverResult r;
  return applyLevers(m, func, c, r, diags);
}

PassRegistration remat("autopart-remat",
                       "Recompute activations in the backward pass (policy=full|selective|dots|dots-no-batch|none)",
                       [](Module &m, const PassOptions &o, Diagnostics &diags) {
                         std::optional<RematPolicy> p = parseRematPolicy(o.getString("policy", "full"));
                         if (!p) {
                           diags.error("autopart-remat: policy must be none, full, selective, dots or dots-no-batch");
                           return false;
                         }
                         return runLeverPass(m, LeverConfig{*p, 1}, diags);
                       },
                       {{"policy", "none|full|selective|dots|dots-no-batch",
                         "which activations to recompute (default full; docs/levers.md)"}});

PassRegistration micro("autopart-microbatch",
                       "Run the step over count microbatches in a while loop, accumulating the sums over the batch",
                       [](Module &m, const PassOptions &o, Diagnostics &diags) {
                         int64_t n = o.getInt("count", 2);
                         if (n < 1) {
                           diags.error("autopart-microbatch: count must be at least 1");
                           return false;
                         }
                         return runLeverPass(m, LeverConfig{RematPolicy::None, n}, diags);
                       },
                       {{"count", "int", "number of microbatches (default 2)"}});

}  // namespace

}  // namespace autopart
