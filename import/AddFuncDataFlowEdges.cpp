#include "import/AddFuncDataFlowEdges.h"

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

// Inserts an edge on `v` before `before` (kNone: at the end of `block`)
// and points every other use of `v` in `scope` at it.
void insertEdge(Module &m, ValueId v, BlockId block, OpId before, OpId near, OpId scope) {
  std::vector<NamedAttr> attrs;
  if (const TensorSharding *s = valueSharding(m, v))
    attrs.push_back({m.names.get("sdy.sharding"), m.attrs.shardingPerValue({*s})});
  OpId edge = m.createOp("sdy.func_data_flow_edge", {v}, {m.type(v)}, attrs);
  m.ops[edge].srcOffset = m.ops[near].srcOffset;
  m.ops[edge].loc = m.ops[near].loc;
  m.insertOp(block, edge, before);
  m.replaceAllUsesWith(v, m.result(edge), scope);
  m.setOperand(edge, 0, v);
}

}  // namespace

size_t addFuncDataFlowEdges(Module &m) {
  size_t count = 0;
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
      insertEdge(m, arg, entry, first, func, func);
      ++count;
    }
  }
  for (OpId func : funcs) {
    std::vector<OpId> calls;
    m.walk(func, [&](OpId op) {
      if (m.isa(op, "func.call")) calls.push_back(op);
    });
    for (OpId call : calls) {
      BlockId block = m.ops[call].parent;
      const std::vector<OpId> &ops = m.blocks[block].ops;
      OpId next = kNone;
      for (size_t k = 0; k + 1 < ops.size(); ++k)
        if (ops[k] == call) next = ops[k + 1];
      for (uint32_t r = 0; r < m.numResults(call); ++r) {
        ValueId v = m.result(call, r);
        if (!isStaticTensor(m, v)) continue;
        insertEdge(m, v, block, next, call, func);
        ++count;
      }
    }
  }
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
