#include "export/PinPlan.h"

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "export/AnnotateModule.h"
#include "import/CallGraph.h"
#include "ir/ValueSharding.h"
#include "propagation/CompleteShardings.h"
#include "sim/ShardingMap.h"

namespace autopart {

namespace {

constexpr int kMaxRounds = 4;

// Whether `got` (XLA's completion) shards anything `planned` (null:
// replicated) does not; open/closed and priorities do not matter.
bool differs(const TensorSharding *planned, const TensorSharding *got) {
  if (!got) return false;
  for (size_t d = 0; d < got->dims.size(); ++d) {
    const std::vector<AxisRef> *want = planned && d < planned->dims.size() ? &planned->dims[d].axes : nullptr;
    if (got->dims[d].axes != (want ? *want : std::vector<AxisRef>{})) return true;
  }
  return false;
}

// The ops of `func` and of the functions it calls: XLA propagates into
// callees as into the caller (each call becomes a copy of its callee).
std::vector<OpId> opsInWalkOrder(const Module &m, OpId func) {
  std::vector<OpId> ops;
  for (OpId f : reachableFunctions(m, func)) m.walk(f, [&](OpId op) { ops.push_back(op); });
  return ops;
}

}  // namespace

bool pinAgainstPropagation(Module &m, OpId func, const std::string &meshName,
                           const std::function<const TensorSharding *(ValueId)> &sharding, Diagnostics &diags,
                           PinStats *stats) {
  PinStats local;
  PinStats &s = stats ? *stats : local;
  std::vector<OpId> ops = opsInWalkOrder(m, func);
  // The func's position among the module's functions finds it in the copy.
  std::vector<OpId> funcs = m.functions();
  size_t funcIndex = size_t(std::find(funcs.begin(), funcs.end(), func) - funcs.begin());
  for (int round = 0; round < kMaxRounds; ++round) {
    ParseError perr;
    std::unique_ptr<Module> copy = parseModule(printModule(m), m.fileName, &perr);
    if (!copy) {
      diags.error("the annotated program does not re-parse: " + perr.full);
      return false;
    }
    std::vector<OpId> copyFuncs = copy->functions();
    if (funcIndex >= copyFuncs.size()) return true;
    std::vector<OpId> copyOps = opsInWalkOrder(*copy, copyFuncs[funcIndex]);
    if (copyOps.size() != ops.size()) {
      diags.error("internal: the re-parsed plan has " + std::to_string(copyOps.size()) + " ops, the plan " +
                  std::to_string(ops.size()));
      return false;
    }
    // The pipeline restructures the copy (constants split per use, reshards
    // inserted); `completed` is by the copy's values as parsed.
    ValueCopies copies;
    if (!completeShardingsAsXla(*copy, diags, nullptr, &copies)) return false;
    ++s.rounds;
    ShardingVector completed =
        shardingsOfOriginals(copies, [&](ValueId v) { return valueSharding(*copy, v); });
    auto got = [&](OpId op, uint32_t i) -> const TensorSharding * {
      const std::optional<TensorSharding> &c = completed[copy->result(op, i)];
      return c ? &*c : nullptr;
    };
    size_t pinned = 0;
    for (size_t k = 0; k < ops.size(); ++k) {
      OpId op = ops[k];
      uint32_t n = m.numResults(op);
      if (n == 0 || m.attr(op, "sdy.sharding") != kNoAttr || m.opName(op).starts_with("sdy.")) continue;
      bool pin = false, allTensors = true;
      for (uint32_t i = 0; i < n; ++i) {
        allTensors &= m.types.isTensor(m.type(m.result(op, i)));
        pin |= differs(sharding(m.result(op, i)), got(copyOps[k], i));
      }
      if (!pin || !allTensors) continue;
      writeOpShardings(m, op, meshName, sharding);
      ++pinned;
    }
    s.pinned += pinned;
    if (pinned == 0) return true;
  }
  return true;
}

}  // namespace autopart
