// The op table: everything autopart knows about an op kind, in one row keyed
// by the op's name. The rule registry, propagation, the named-dimension
// analysis, the simulator and the search read these rows instead of keeping
// lists of op names of their own, so adding an op is one row (plus its rule
// builder if it needs a new one, plus a lit case):
//
//   name                    category      data flow  FLOPs            fusion   cost  rule
//   stablehlo.add           Elementwise   -          PerResultElement Loop     -     pointwise
//   stablehlo.dot_general   Contraction   -          Contraction      Library  -     dotGeneral
//   stablehlo.reduce        Reduction     -          PerReducedInput  Input    -     reduce
//   stablehlo.while         ControlFlow   Loop       -                -        Free  (none: edges)
//   sdy.reshard             Sharding      -          -                -        Reshard (none)
//
// An op with no row is unknown: it gets no rule (a warning, and later stages
// keep it replicated), no FLOPs and is priced as a memory-bound kernel. A
// `chlo.X` op without a row of its own reads the row of `stablehlo.X` (CHLO
// repeats many StableHLO ops by name).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/Module.h"
#include "ir/ShardingRule.h"
#include "support/Diagnostics.h"

namespace autopart {

struct RuleOptions {
  // As Shardy's `conservative-propagation`: no factors through dimensions
  // whose sharding would need communication (sliced, padded, concatenated,
  // convolution windows).
  bool conservativePropagation = false;
};

enum class OpCategory : uint8_t {
  Elementwise,   // result element i from operand elements i
  DataMovement,  // moves or copies elements (reshape, transpose, slice, gather, ...)
  Contraction,   // dot_general, convolution
  Reduction,     // reduce, reduce_window, select_and_scatter
  Collective,    // explicit cross-device communication
  ControlFlow,   // ops with regions or callees whose values flow through (DataFlow)
  Constant,      // constants and iota
  Sharding,      // sdy annotations: constraints, reshards, groups, barriers
  Terminator,    // func.return, stablehlo.return, sdy.return
  Structure,     // func.func, builtin.module, sdy.mesh
  Other,         // custom calls, random numbers, linear algebra, I/O, ...
};

// How an op with regions or a callee ties values together (Shardy's
// data-flow edges): each kind says which values must share a sharding.
enum class DataFlow : uint8_t {
  None,
  Loop,         // while: operand i, block argument i of both regions, the
                // body's yielded value i and result i
  Branch,       // case/if: each region's returned value i and result i
  Barrier,      // optimization_barrier: operand i and result i
  Call,         // func.call: operands and the callee's arguments, its
                // returned values and the results
  Computation,  // sdy.manual/named_computation: operand i and block
                // argument i, the returned value i and result i
};

// The FLOP formula of one execution on the global shapes (sim/Flops.h
// evaluates it).
enum class FlopModel : uint8_t {
  None,              // data movement, control flow, constants: no arithmetic
  PerResultElement,  // elementwise: one op per result element
  PerReducedInput,   // reduce: one op per element of the inputs (the first half of the operands)
  PerOperandElement, // all_reduce, reduce_scatter, select_and_scatter: one per operand element
  ReduceWindow,      // one op per result element per window element
  Contraction,       // dot: 2 * |result| * prod(contracting dims)
  Convolution,       // 2 * |result| * prod(kernel spatial) * kernel input features
};

// What XLA's fusion passes do with the op (instruction_fusion / GPU
// priority_fusion): loop fusion joins producers and consumers into one
// kernel, an input fusion ends in a reduction, a library call (cuBLAS/cuDNN
// or the TPU's matrix unit) runs on its own with an epilogue fused, in-place
// ops update their operand's buffer.
enum class Fusion : uint8_t { None, Loop, Input, Library, InPlace };

// How the simulator prices the op.
enum class CostKind : uint8_t {
  Compute,  // a kernel: FLOPs and bytes moved, plus the reshards its rule needs
  Free,     // no kernel of its own (constants folded, control flow priced by its body)
  Reshard,  // moves its operand to the result's sharding (sdy.reshard and friends)
  // Communicates over the device groups its own attributes name (StableHLO's
  // all_reduce, all_gather, ... in a manual computation's per-device body):
  // priced as those collectives (sim/ExplicitCollectives.h), no kernel.
  Collective,
};

// Builds the op's rule; nullopt when this op instance has none (an
// unsupported shape or attribute combination).
using RuleFn = std::optional<OpShardingRule> (*)(const Module &, OpId, const RuleOptions &, Diagnostics *);

struct OpInfo {
  std::string_view name;
  OpCategory category = OpCategory::Other;
  DataFlow dataFlow = DataFlow::None;
  FlopModel flops = FlopModel::None;
  Fusion fusion = Fusion::None;
  CostKind cost = CostKind::Compute;
  // Null: the op has no sharding rule by design (constants, control flow
  // handled by data-flow edges, annotations, ops with nothing to shard).
  RuleFn rule = nullptr;
  // The rule looks beyond the op's own types and attributes (its operands'
  // producers, its body), so rules of two alike ops may differ.
  bool ruleReadsContext = false;
};

// The row of an op name; null when the op is unknown.
const OpInfo *lookupOpInfo(std::string_view name);
// The row of `op`; unknown ops get a row of defaults (category Other, no
// rule, priced as a kernel) whose name is empty.
const OpInfo &opInfo(const Module &m, OpId op);
// Every row, for tests and listings.
const std::vector<OpInfo> &allOpInfos();

inline bool isDataFlowKind(const OpInfo &info) { return info.dataFlow != DataFlow::None; }

}  // namespace autopart
