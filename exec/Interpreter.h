// Evaluates StableHLO functions on the CPU. Ops are executed in order by
// kernels looked up once per op name in a registry that the op-family files
// fill (ElementwiseOps.cpp, ShapeOps.cpp, ...):
//
//   static KernelRegistration reg({"stablehlo.add", "stablehlo.subtract"}, addLike);
//
//   func.func @main() {
//     %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
//     %1 = stablehlo.add %0, %0 : tensor<2xi32>
//     check.expect_eq_const %1, dense<[2, 4]> : tensor<2xi32>   // an assertion
//   }
//
// Values live in a vector indexed by ValueId. A kernel that meets something
// it cannot do throws ExecError naming the op, so an unsupported op is a
// located error, never a wrong answer.
#pragma once

#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec/Tensor.h"
#include "ir/Module.h"

namespace autopart::exec {

struct ExecError : std::runtime_error {
  ExecError(OpId op, const std::string &msg) : std::runtime_error(msg), op(op) {}
  OpId op;
};

// A failed check op: where and what.
struct CheckFailure {
  OpId op;
  std::string message;
};

class Interpreter;
class CollectiveHub;
class ProbeStore;
using Kernel = void (*)(Interpreter &, OpId);

struct KernelRegistration {
  KernelRegistration(std::initializer_list<const char *> names, Kernel k);
};
// The kernel of an op name, or nullptr.
Kernel findKernel(std::string_view name);

class Interpreter {
public:
  explicit Interpreter(const Module &m);

  // Runs a function on arguments; returns its results. Throws ExecError.
  std::vector<TensorPtr> callFunction(OpId func, const std::vector<TensorPtr> &args);
  // Runs region `r`'s entry block on `args`; returns the terminator's operands.
  std::vector<TensorPtr> runRegion(RegionId r, const std::vector<TensorPtr> &args);

  // --- For kernels ------------------------------------------------------------
  const Module &m;
  TensorPtr operand(OpId op, uint32_t i) const;
  const Tensor &in(OpId op, uint32_t i) const { return *operand(op, i); }
  void setResult(OpId op, uint32_t i, TensorPtr t) { values_[m.result(op, i)] = std::move(t); }
  TypeId resultType(OpId op, uint32_t i = 0) const { return m.type(m.result(op, i)); }
  // A zero tensor of the op's result type; uninitialized when the kernel
  // writes every element itself.
  TensorPtr newResult(OpId op, uint32_t i = 0) const;
  TensorPtr newUninitializedResult(OpId op, uint32_t i = 0) const;
  DType resultDType(OpId op, uint32_t i = 0) const;
  std::vector<int64_t> ints(OpId op, std::string_view attr) const;
  int64_t intAttr(OpId op, std::string_view attr, int64_t dflt = 0) const;
  // A 2-D `dense<[[lo, hi], ...]>` integer attribute (padding) as pairs.
  std::vector<std::pair<int64_t, int64_t>> pairs(OpId op, std::string_view attr) const;
  [[noreturn]] void fail(OpId op, const std::string &msg) const { throw ExecError(op, msg); }

  // When the region of `op` is `return(binop(arg0, arg1))`, the binop's name
  // ("stablehlo.add"), for fast reductions; empty otherwise.
  std::string_view simpleBinaryRegion(RegionId r) const;

  // Checks: counted; a failure is recorded and execution goes on.
  int checksPassed = 0;
  std::vector<CheckFailure> failures;
  // Seed of stablehlo.rng's and the run's random inputs.
  uint64_t seed = 0;

  // This process of an `interpreter.run_parallel` grid (Collectives.cpp);
  // a lone program is replica 0, partition 0 of a 1x1 grid without a hub.
  int64_t replicaId = 0, partitionId = 0, numReplicas = 1, numPartitions = 1;
  CollectiveHub *hub = nullptr;
  // How many times each collective op ran here: rendezvous keys.
  std::vector<uint32_t> invocations;
  // Where interpreter.probe writes (exec/ProbeStore.h); set by runModule.
  ProbeStore *probes = nullptr;

private:
  void runOp(OpId op);
  std::vector<TensorPtr> values_;
  std::vector<Kernel> kernelByName_;  // indexed by NameId (nullptr: not looked up / none)
  std::vector<uint8_t> looked_;
  std::vector<uint8_t> verified_;  // by OpId: passed checks that depend on types only (OpVerifier.h)
};

}  // namespace autopart::exec
