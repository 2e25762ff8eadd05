// `-sdy-propagate-to-func-results`: after propagation across calls, a
// non-main function's result shardings become those of the values its
// `func.return` returns (a returned value without a sharding clears the
// result's). Callers then see what the callee really produces. The main
// function keeps its result shardings: they are the program's contract.
//
//   func.func private @foo(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = <@mesh, [{"x"}]>}) {
//     %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
//     return %0
//   ->
//   func.func private @foo(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = <@mesh, [{"y"}]>})
//
// Functions whose body does not end in `func.return` are skipped. The main
// function is `main`, or the module's only function; without one the pass
// fails, as Shardy's does.
#include "export/FuncShardings.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

constexpr const char *kName = "sdy-propagate-to-func-results";

// `main`, else the only function (Shardy's main function lookup with a
// single-function fallback).
OpId mainOrOnlyFunc(const Module &m) {
  std::vector<OpId> funcs = m.functions();
  for (OpId f : funcs)
    if (FuncView{m, f}.name() == "main") return f;
  return funcs.size() == 1 ? funcs.front() : kNone;
}

bool run(Module &m, const PassOptions &, Diagnostics &diags) {
  OpId mainFunc = mainOrOnlyFunc(m);
  if (mainFunc == kNone) {
    std::vector<OpId> funcs = m.functions();
    diags.error(m, funcs.empty() ? m.top : funcs.front(), std::string(kName) + ": the module has no main function");
    return false;
  }
  for (OpId func : m.functions()) {
    if (func == mainFunc) continue;
    MutableFuncView f(m, func);
    OpId ret = f.returnOp();
    if (ret == kNone || !m.isa(ret, "func.return")) continue;
    for (uint32_t i = 0; i < m.numOperands(ret) && i < f.numResults(); ++i) {
      const TensorSharding *s = valueSharding(m, m.operand(ret, i));
      if (s)
        f.setResultAttr(i, "sdy.sharding", m.attrs.sharding(*s));
      else
        f.removeResultAttr(i, "sdy.sharding");
    }
  }
  return true;
}

PassRegistration reg(kName, "Copies the shardings of each non-main function's returned values to its results", run);

}  // namespace

}  // namespace autopart
