// The engine of -sdy-pad-for-divisibility (export/PadForDivisibility.cpp):
// walks every function's blocks in order and rebuilds each op whose operands
// or results do not divide under their shardings (Shardy's legality), keeping
// the others and giving them their operands back at the original types.
//
// Ops are rebuilt, not edited, so each original op keeps its original types
// and its sharding rule stays readable while later ops are rewritten; `cur_`
// maps each original value to the value that now stands for it, and `kinds_`
// records which padded regions are known to hold zeros (an all_slice's pad),
// so a dot_general or reduce after it needs no mask.
//
//   %0 = sdy.all_slice [{"x"}, {}] %a out_sharding=<@mesh, [{"x"}, {}]> : tensor<7x8xf32>
//   cur_[%0] -> %0' = sdy.all_slice ... %pad : tensor<8x8xf32>, kinds_[%0'] = zero
//
// The generic rule (rewriteGeneric) grows results along the dimensions the
// op's sharding rule passes through from grown operands; PadderOps.cpp holds
// the ops with their own rule (slice, pad, dot_general, reduce, convolution,
// constants and the sdy collectives).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "export/PaddingBuilder.h"
#include "ir/Module.h"
#include "ir/ValueSharding.h"
#include "support/Diagnostics.h"

namespace autopart {

class Padder {
public:
  Padder(Module &m, Diagnostics &diags);
  // Pads the module; false when the entry signature does not divide or an op
  // has no padded form (the errors are in the diagnostics).
  bool run();

private:
  // The `out_sharding` of an sdy collective, or null.
  static const TensorSharding *outSharding(const Module &m, OpId op);

  // --- Shardy's entry-function rule ---------------------------------------------
  OpId entryFunction() const;
  bool checkEntrySignature(OpId func);

  // --- Subroutine signatures -------------------------------------------------------
  const TensorSharding *resultShardingOf(OpId func, size_t i) const;
  void growBlockArg(BlockId blk, size_t i, TypeId want);
  void padSignature(OpId func);

  // --- Values ---------------------------------------------------------------------
  TypeId divisible(TypeId type, const TensorSharding *s) const;
  OpId callee(OpId call) const;
  TypeId origType(ValueId v) const { return v < origType_.size() ? origType_[v] : m_.type(v); }
  ValueId current(ValueId v) const { return v < cur_.size() ? cur_[v] : v; }
  const std::vector<int64_t> &shape(ValueId v) const { return m_.types.shape(m_.type(v)); }
  // The divisible type of an original value under its own sharding.
  TypeId convertedType(ValueId v) { return divisible(origType(v), valueSharding(m_, v)); }
  bool legal(ValueId v) { return convertedType(v) == origType(v); }
  std::optional<PaddingKind> kindOf(ValueId v) const;
  ValueId adapt(ValueId v);

  // --- Which ops change (Shardy's legality) -----------------------------------
  bool allLegal(std::span<const ValueId> vs);
  std::vector<ValueId> results(OpId op) const;
  bool needsRewrite(OpId op);
  void keepOp(OpId op);

  // --- Rebuilding ---------------------------------------------------------------
  void processBlock(BlockId blk);
  OpId replaceOp(OpId op, const std::vector<ValueId> &operands, const std::vector<TypeId> &types);
  void trim(ValueId orig, ValueId res, const std::vector<int64_t> &target, const std::vector<int64_t> &dims,
            const TensorSharding *sharding, std::optional<PaddingKind> kind);
  OpId rewrite(OpId op);
  void growLoopArgs(OpId loop);
  bool isCarriedReturn(OpId op) const;
  void rewriteCarriedReturn(OpId op);
  OpId rewriteGeneric(OpId op, const std::vector<ValueId> &given);

  // --- Ops with their own rule (PadderOps.cpp) ----------------------------------
  OpId rewriteConstant(OpId op);
  OpId rewriteSlice(OpId op);
  OpId rewritePad(OpId op);
  ValueId zeroPadded(ValueId in, ValueId orig, const std::vector<int64_t> &dims);
  OpId rewriteDotGeneral(OpId op);
  OpId rewriteReduce(OpId op);
  OpId rewriteConvolution(OpId op);
  OpId rebuildCollective(OpId op, ValueId in, ValueId orig, TypeId paddedIn);
  OpId rewriteSlicingCollective(OpId op);
  OpId rewriteAllToAll(OpId op);
  OpId rewriteAllGather(OpId op);

  // --- Calls of grown functions -------------------------------------------------
  OpId rewriteCall(OpId op);
  OpId rewriteReturn(OpId op);

  Module &m_;
  Diagnostics &diags_;
  PaddingBuilder b_;
  // Types of the values the module had before the pass, by ValueId.
  std::vector<TypeId> origType_;
  // The value standing for each original value (itself until rewritten).
  std::vector<ValueId> cur_;
  // What padded regions are known to hold (absent: unknown).
  std::unordered_map<ValueId, PaddingKind> kinds_;
  // Symbols by name, resolved once.
  std::unordered_map<std::string, const Mesh *> meshes_;
  std::unordered_map<std::string, OpId> funcs_;
  // Non-entry functions whose signature grew, and their padded result types.
  std::unordered_set<OpId> paddedCallees_;
  std::unordered_map<OpId, std::vector<TypeId>> paddedResults_;
  bool ok_ = true;
};

}  // namespace autopart
