// `-sdy-remove-all-gather-reduce-scatter-for-cmv1`: XLA's collective matmul
// (v1) wants to see the dot with its sharded operand and result and fuse the
// communication itself, so the explicit collectives around a dot go:
//
//   - an `sdy.all_gather` whose only use is a `stablehlo.dot` /
//     `stablehlo.dot_general` operand: the dot reads the gather's input;
//   - an `sdy.reduce_scatter` of a dot result that has no other use and
//     no unreduced axes: the dot takes the scatter's out sharding and
//     replaces it.
//
//   %0 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]>
//   %1 = stablehlo.dot %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}
//   %2 = sdy.reduce_scatter [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {}]>
//   ->
//   %1 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
#include <unordered_map>

#include "import/ReplaceUses.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

bool isDot(const Module &m, OpId op) {
  return op != kNone && (m.isa(op, "stablehlo.dot") || m.isa(op, "stablehlo.dot_general"));
}

void removeAroundDots(Module &m, OpId func) {
  std::unordered_map<ValueId, uint32_t> uses;
  std::unordered_map<ValueId, OpId> onlyUser;
  std::vector<OpId> collectives;
  m.walk(func, [&](OpId op) {
    for (ValueId v : m.operands(op)) {
      ++uses[v];
      onlyUser[v] = op;
    }
    if (m.isa(op, "sdy.all_gather") || m.isa(op, "sdy.reduce_scatter")) collectives.push_back(op);
  });
  std::unordered_map<ValueId, ValueId> replace;
  for (OpId op : collectives) {
    if (m.numOperands(op) != 1 || m.numResults(op) != 1) continue;
    ValueId input = m.operand(op, 0), out = m.result(op);
    if (m.isa(op, "sdy.all_gather")) {
      if (uses[out] != 1 || !isDot(m, onlyUser[out])) continue;
    } else {
      OpId dot = m.definingOp(input);
      const TensorSharding *dotSharding = isDot(m, dot) ? resultSharding(m, dot, 0) : nullptr;
      AttrId target = m.attr(op, "out_sharding");
      if (!dotSharding || !dotSharding->unreduced.empty() || uses[input] != 1 || target == kNoAttr ||
          m.attrs.kind(target) != AttrKind::Sharding)
        continue;
      m.setAttr(dot, "sdy.sharding", m.attrs.shardingPerValue({*m.attrs.get(target).sharding}));
    }
    // A collective reading one removed before reads what that one read.
    for (auto it = replace.find(input); it != replace.end(); it = replace.find(input)) input = it->second;
    replace[out] = input;
    m.eraseOp(op);
  }
  replaceUses(m, func, replace);
}

PassRegistration reg("sdy-remove-all-gather-reduce-scatter-for-cmv1",
                     "Removes all-gathers feeding a dot and reduce-scatters of a dot result (collective matmul v1)",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       for (OpId func : m.functions()) removeAroundDots(m, func);
                       return true;
                     });

}  // namespace

}  // namespace autopart
