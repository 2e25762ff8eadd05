// Shardy's verifier: the checks Shardy's dialect runs on every sdy attribute
// and op, with Shardy's diagnostic text, so that autopart never accepts (nor
// writes) a program that Shardy, and so XLA, would reject.
//
//   sdy.mesh @mesh = <["a"=2]>
//   func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>})
//   -> f.mlir:2:1: error: 'func.func' op arg 0 - unknown axis name: "c"
//
// The checks are a table: each file of this folder registers the verifier of
// the ops (or discardable attributes) it knows, and `verifyModule` runs them
// in MLIR's order, which decides which error a broken program reports:
//
//   - an op's registered attribute verifiers, by attribute name, then its op
//     verifiers ("*" first), then the ops nested in it; a function's
//     argument and result shardings are checked last, after its body;
//   - inside one function, checking stops at the first op with an error;
//     ops isolated from above (functions, manual and named computations)
//     are checked after their siblings, each on its own.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Module.h"
#include "support/Diagnostics.h"

namespace autopart {

// Runs every check on `m`. Returns true when the module is valid; otherwise
// the errors are in `diags`, each at the op it concerns.
bool verifyModule(const Module &m, Diagnostics &diags);

class VerifyContext {
public:
  VerifyContext(const Module &m, Diagnostics &diags) : m(m), diags(diags) {}

  const Module &m;
  Diagnostics &diags;

  // The mesh a sharding refers to: its inline mesh or the `sdy.mesh` symbol
  // it names. Null when no such symbol exists.
  const Mesh *mesh(const TensorSharding &s) const;
  const Mesh *meshNamed(std::string_view name) const;

  // The sharding a value carries (ir/ValueSharding.h), null when it has none.
  const TensorSharding *sharding(ValueId v) const;
  // How many operands of the module read `v` (counted once per module, on
  // first use).
  uint32_t useCount(ValueId v);

  // MLIR's `op->emitOpError(msg)`: "'stablehlo.add' op <msg>" at the op.
  void opError(OpId op, std::string_view msg);
  // MLIR's `op->emitError(msg)`: the message alone, at the op.
  void error(OpId op, std::string msg);
  // A note attached to the error just emitted, at `op`.
  void note(OpId op, std::string msg);
  size_t errorCount() const { return diags.errorCount(); }

private:
  std::vector<uint32_t> uses_;
};

using OpVerifyFn = void (*)(VerifyContext &, OpId);
// Checks the discardable attribute `attr` of `op`.
using AttrVerifyFn = void (*)(VerifyContext &, OpId op, AttrId attr);

// Registers `fn` for ops named `opName` ("*": every op). Several verifiers
// may be registered for one name; they run in registration order.
struct OpVerifierRegistration {
  OpVerifierRegistration(std::string opName, OpVerifyFn fn);
};

// Registers `fn` for every op carrying the attribute `attrName` (Shardy's
// dialect attribute hooks: `sdy.sharding`, `sdy.propagation_edges`, ...).
struct AttrVerifierRegistration {
  AttrVerifierRegistration(std::string attrName, AttrVerifyFn fn);
};

}  // namespace autopart
