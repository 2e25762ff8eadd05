#include "import/AddFuncDataFlowEdges.h"

#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "import/ReplaceUses.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

bool isStaticTensor(const Module &m, ValueId v) {
  TypeId t = m.type(v);
  if (!m.types.isTensor(t)) return false;
  for (int64_t d : m.types.shape(t))
    if (d == kDynamic) return false;
  return true;
}

// `main`, or the only function of the module.
OpId mainFunction(const Module &m) {
  std::vector<OpId> funcs = m.functions();
  for (OpId f : funcs)
    if (FuncView{m, f}.name() == "main") return f;
  return funcs.size() == 1 ? funcs.front() : kNone;
}

// Inserts an edge on `v` before `before` (kNone: at the end of `block`);
// the other uses of `v` are redirected to it afterwards, all at once.
OpId insertEdge(Module &m, ValueId v, BlockId block, OpId before, OpId near) {
  std::vector<NamedAttr> attrs;
  if (const TensorSharding *s = valueSharding(m, v))
    attrs.push_back({m.names.get("sdy.sharding"), m.attrs.shardingPerValue({*s})});
  OpId edge = m.createOp("sdy.func_data_flow_edge", {v}, {m.type(v)}, attrs);
  m.ops[edge].srcOffset = m.ops[near].srcOffset;
  m.ops[edge].loc = m.ops[near].loc;
  m.insertOp(block, edge, before);
  return edge;
}

}  // namespace

size_t addFuncDataFlowEdges(Module &m) {
  size_t count = 0;
  std::unordered_map<OpId, std::unordered_map<ValueId, ValueId>> replace;  // per function
  std::unordered_set<OpId> edges;
  auto add = [&](OpId func, ValueId v, BlockId block, OpId before, OpId near) {
    OpId edge = insertEdge(m, v, block, before, near);
    replace[func][v] = m.result(edge);
    edges.insert(edge);
    ++count;
  };
  OpId mainFunc = mainFunction(m);
  std::vector<OpId> funcs = m.functions();
  for (OpId func : funcs) {
    if (func == mainFunc || m.numRegions(func) == 0 || m.regions[m.region(func, 0)].blocks.empty()) continue;
    FuncView view{m, func};
    BlockId entry = view.entry();
    // Edges go in argument order at the top of the body.
    OpId first = m.blocks[entry].ops.empty() ? kNone : m.blocks[entry].ops.front();
    std::vector<ValueId> args(view.args().begin(), view.args().end());
    for (ValueId arg : args) {
      if (!isStaticTensor(m, arg)) continue;
      add(func, arg, entry, first, func);
    }
  }
  // Each call's edges go right after it; blocks are scanned once.
  for (OpId func : funcs) {
    std::function<void(BlockId)> visit = [&](BlockId block) {
      std::vector<OpId> ops = m.blocks[block].ops;
      for (size_t k = 0; k < ops.size(); ++k) {
        OpId op = ops[k];
        for (uint32_t r = 0; r < m.numRegions(op); ++r)
          for (BlockId inner : m.regions[m.region(op, r)].blocks) visit(inner);
        if (!m.isa(op, "func.call")) continue;
        OpId next = k + 1 < ops.size() ? ops[k + 1] : kNone;
        for (uint32_t r = 0; r < m.numResults(op); ++r)
          if (isStaticTensor(m, m.result(op, r))) add(func, m.result(op, r), block, next, op);
      }
    };
    for (uint32_t r = 0; r < m.numRegions(func); ++r)
      for (BlockId b : m.regions[m.region(func, r)].blocks) visit(b);
  }
  for (const auto &[func, map] : replace) replaceUses(m, func, map, edges);
  return count;
}

namespace {

PassRegistration reg("sdy-add-func-data-flow-edges",
                     "Insert sdy.func_data_flow_edge on non-main function arguments and call results",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       addFuncDataFlowEdges(m);
                       return true;
                     });

}  // namespace

}  // namespace autopart
