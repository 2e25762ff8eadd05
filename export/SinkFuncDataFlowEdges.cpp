// `-sdy-sink-func-data-flow-edges`: undoes `-sdy-add-func-data-flow-edges`
// after propagation. Each `sdy.func_data_flow_edge` hands its sharding to
// the value it sits on (a non-main function's argument or a call result)
// and its uses read that value again. An edge without a sharding leaves a
// sharded value fully open on the same mesh: propagation found nothing for
// it, so the value's own pre-propagation sharding no longer applies.
//
//   func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
//     %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
//     %1 = stablehlo.negate %0
//   %2 = call @bar(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
//   %3 = sdy.func_data_flow_edge %2
//   ->
//   func.func private @bar(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) ... {
//     %1 = stablehlo.negate %arg0
//   %2 = call @bar(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>}
#include <unordered_map>

#include "export/FuncShardings.h"
#include "import/ReplaceUses.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

size_t sinkFuncDataFlowEdges(Module &m) {
  size_t count = 0;
  for (OpId func : m.functions()) {
    std::vector<OpId> edges;
    m.walk(func, [&](OpId op) {
      if (m.isa(op, "sdy.func_data_flow_edge") && m.numOperands(op) == 1 && m.numResults(op) == 1)
        edges.push_back(op);
    });
    std::unordered_map<ValueId, ValueId> replace;
    for (OpId edge : edges) {
      ValueId input = m.operand(edge, 0);
      if (const TensorSharding *s = resultSharding(m, edge, 0)) {
        TensorSharding copy = *s;
        setValueSharding(m, input, copy);
      } else if (const TensorSharding *old = valueSharding(m, input)) {
        TensorSharding open = fullyOpenLike(m, *old, m.type(input));
        setValueSharding(m, input, open);
      }
      replace[m.result(edge, 0)] = input;
      m.eraseOp(edge);
      ++count;
    }
    replaceUses(m, func, replace);
  }
  return count;
}

PassRegistration reg("sdy-sink-func-data-flow-edges",
                     "Moves each sdy.func_data_flow_edge's sharding onto its input and replaces the edge by it",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       sinkFuncDataFlowEdges(m);
                       return true;
                     });

}  // namespace

}  // namespace autopart
