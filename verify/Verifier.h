// Shardy's verifier: the checks Shardy's dialect runs on every sdy attribute
// and op, with Shardy's diagnostic text, so that autopart never accepts (nor
// writes) a program that Shardy, and so XLA, would reject.
//
//   sdy.mesh @mesh = <["a"=2]>
//   func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>})
//   -> f.mlir:2:1: error: 'func.func' op arg 0 - unknown axis name: "c"
//
// The checks are a table: each file of this folder registers the verifier of
// the ops (or attributes) it knows, and `verifyModule` runs the generic
// checks (every `sdy.sharding` against its value's type and mesh) and then
// each op's registered verifiers, in program order.
#pragma once

#include <functional>
#include <string>
#include <string_view>

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

  // MLIR's `op->emitOpError(msg)`: "'stablehlo.add' op <msg>" at the op.
  void opError(OpId op, std::string_view msg);
  // MLIR's `op->emitError(msg)`: the message alone, at the op.
  void error(OpId op, std::string msg);
  size_t errorCount() const { return diags.errorCount(); }
};

using OpVerifyFn = void (*)(VerifyContext &, OpId);

// Registers `fn` for ops named `opName` ("*": every op). Several verifiers
// may be registered for one name; they run in registration order.
struct OpVerifierRegistration {
  OpVerifierRegistration(std::string opName, OpVerifyFn fn);
};

}  // namespace autopart
