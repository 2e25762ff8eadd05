// The autopart IR: an MLIR-shaped module stored as flat arrays indexed by
// 32-bit ids instead of a pointer graph. An op's operands, attributes and
// regions are ranges into shared pools, its results are consecutive values, and
// types and attributes are interned. A million-op program therefore costs a few
// tens of bytes per op and every walk is a scan over vectors. Each value's
// uses are threaded through the operand slots (three indices per slot), so
// replacing a value's uses costs its uses, not the program.
//
//   func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
//     %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
//     return %0 : tensor<8xf32>
//   }
//
// is op 0 `builtin.module` (region 0, block 0) holding op 1 `func.func`
// (attributes sym_name, function_type; region 1, block 1 with argument value
// 0) holding op 2 `stablehlo.add` (operands [0, 0], result value 1) and op 3
// `func.return` (operand [1]).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Attributes.h"
#include "ir/Types.h"
#include "support/Diagnostics.h"

namespace autopart {

using OpId = uint32_t;
using ValueId = uint32_t;
using BlockId = uint32_t;
using RegionId = uint32_t;
inline constexpr uint32_t kNone = 0xffffffffu;

struct NamedAttr {
  NameId name;
  AttrId value;
};

struct Operation {
  NameId name = kNoName;
  uint32_t operandBegin = 0, numOperands = 0;  // into Module::operandPool
  uint32_t resultBegin = 0, numResults = 0;    // values resultBegin..+n
  uint32_t attrBegin = 0, numAttrs = 0;        // into Module::attrPool
  uint32_t regionBegin = 0, numRegions = 0;    // into Module::regionPool
  BlockId parent = kNone;
  uint32_t srcOffset = 0;  // byte offset of the op in the source, diagnostics
  AttrId loc = kNoAttr;    // trailing `loc(...)` as written, if any
  // Where the op's text ends and where its attribute dictionary is (or would
  // be inserted: dictEnd == kNone), for output that keeps the input's text
  // (export/PreserveText.h). kNone: not parsed from text.
  uint32_t srcEnd = kNone;
  uint32_t dictBegin = kNone, dictEnd = kNone;
  bool dictKeyword = false;  // a new dictionary needs `attributes ` first
};

// Where a parsed function's argument and result attribute dictionaries are
// in the source (or would be inserted), like Operation::dictBegin.
struct SignatureSpans {
  struct Entry {
    uint32_t dictBegin = kNone, dictEnd = kNone;
    uint32_t typeBegin = kNone, typeEnd = kNone;
  };
  OpId func = kNone;
  std::vector<Entry> args, results;
  // `-> t` without parentheses: a result dictionary needs `(t {...})`.
  bool bareResult = false;
};

struct ValueInfo {
  TypeId type = kNoType;
  uint32_t owner = kNone;  // defining OpId, or BlockId for block arguments
  uint32_t index = 0;      // result / argument number
  bool isBlockArg = false;
  AttrId loc = kNoAttr;    // block arguments' `loc(...)`
};

struct Block {
  RegionId parent = kNone;
  std::vector<ValueId> args;
  std::vector<OpId> ops;
};

struct Region {
  OpId parent = kNone;
  std::vector<BlockId> blocks;
};

// A source position for diagnostics.
struct SourceLoc {
  uint32_t line = 0, col = 0;
};

class Module {
public:
  Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  TypeTable types;
  NamePool names;
  AttrTable attrs;

  std::vector<Operation> ops;
  std::vector<ValueInfo> values;
  std::vector<Block> blocks;
  std::vector<Region> regions;
  std::vector<ValueId> operandPool;
  std::vector<NamedAttr> attrPool;
  std::vector<RegionId> regionPool;

  // The top `builtin.module` op; its region 0 block 0 holds functions, meshes.
  OpId top = kNone;
  // Text of the input; dense constants and locations keep views into it.
  std::shared_ptr<const std::string> source;
  std::string fileName;
  // Attribute alias definitions from the top of the file (`#loc3 = loc(...)`),
  // printed back before the module when locations are printed.
  std::vector<std::pair<std::string, std::string>> aliasDefs;
  // Offset just past the `{` opening the top module's body (kNone: the
  // input had no `module`), and every parsed function's signature spans.
  uint32_t moduleBodyBegin = kNone;
  std::vector<SignatureSpans> signatures;
  // The file-level `{-# dialect_resources: {...} #-}` block as written
  // (printed back after the module), and its `builtin` blobs by key: the
  // quoted hex text `0x` + 4 bytes of alignment + the data, which
  // `dense_resource<key>` constants read.
  std::string_view resourceBlock;
  std::vector<std::pair<std::string_view, std::string_view>> resourceBlobs;

  // --- Ops -----------------------------------------------------------------
  std::string_view opName(OpId op) const { return names.str(ops[op].name); }
  bool isa(OpId op, std::string_view name) const { return opName(op) == name; }
  std::span<const ValueId> operands(OpId op) const {
    const Operation &o = ops[op];
    return {operandPool.data() + o.operandBegin, o.numOperands};
  }
  ValueId operand(OpId op, uint32_t i) const { return operandPool[ops[op].operandBegin + i]; }
  uint32_t numOperands(OpId op) const { return ops[op].numOperands; }
  ValueId result(OpId op, uint32_t i = 0) const { return ops[op].resultBegin + i; }
  uint32_t numResults(OpId op) const { return ops[op].numResults; }
  std::span<const NamedAttr> attributes(OpId op) const {
    const Operation &o = ops[op];
    return {attrPool.data() + o.attrBegin, o.numAttrs};
  }
  RegionId region(OpId op, uint32_t i) const { return regionPool[ops[op].regionBegin + i]; }
  uint32_t numRegions(OpId op) const { return ops[op].numRegions; }
  // The op that contains `op` (kNone for the top module).
  OpId parentOp(OpId op) const;
  // The enclosing func.func of `op`, or kNone.
  OpId enclosingFunc(OpId op) const;

  AttrId attr(OpId op, std::string_view name) const;
  bool hasAttr(OpId op, std::string_view name) const { return attr(op, name) != kNoAttr; }
  // Sets (or replaces) an attribute; keeps the list sorted by name.
  void setAttr(OpId op, std::string_view name, AttrId value);
  void removeAttr(OpId op, std::string_view name);
  void setOperand(OpId op, uint32_t i, ValueId v);
  void setOperands(OpId op, const std::vector<ValueId> &vs);

  // --- Values --------------------------------------------------------------
  TypeId type(ValueId v) const { return values[v].type; }
  void setType(ValueId v, TypeId t) { values[v].type = t; }
  // The op defining `v`, or kNone for a block argument.
  OpId definingOp(ValueId v) const { return values[v].isBlockArg ? kNone : values[v].owner; }

  // --- Construction ----------------------------------------------------------
  BlockId createBlock(RegionId region);
  ValueId addBlockArg(BlockId block, TypeId type);
  // Creates a detached op with fresh results and `numRegions` empty regions.
  OpId createOp(std::string_view name, const std::vector<ValueId> &operands,
                const std::vector<TypeId> &resultTypes,
                const std::vector<NamedAttr> &attrs = {}, uint32_t numRegions = 0);
  // Creates a detached region (the parser fills it before its op exists).
  RegionId createRegion();
  // Gives `op` the regions `rs` (created with createRegion).
  void attachRegions(OpId op, const std::vector<RegionId> &rs);
  // Places a detached op in a block, before `before` (kNone: at the end).
  void insertOp(BlockId block, OpId op, OpId before = kNone);
  // Removes an op from its block; it stays in `ops` but unreachable.
  void eraseOp(OpId op);
  // The op after `op` in its block (kNone: `op` is the last, or detached),
  // the `before` that places a new op right after `op`.
  // Not const: it moves positionInBlock's hint.
  OpId nextInBlock(OpId op);
  // Where `op` is in `block`'s op list (the list's size when absent). Passes
  // insert near where they last looked, so the search starts at the last
  // position found: a pass inserting after each of n ops in turn costs O(n),
  // not O(n^2). Not const (it moves the hint), like the edits it serves.
  size_t positionInBlock(BlockId block, OpId op);
  // Replaces uses of `from` by `to` in every op nested under `scope`. Costs
  // the uses of `from` (times their nesting depth), not the size of `scope`:
  // a pass inserting a reshard after each of n ops stays linear.
  void replaceAllUsesWith(ValueId from, ValueId to, OpId scope);
  // Whether `op` is nested (at any depth) in a region of `scope`.
  bool isNestedIn(OpId op, OpId scope) const;

  // --- Traversal -------------------------------------------------------------
  // Pre-order walk of the ops nested in `root` (not `root` itself).
  void walk(OpId root, const std::function<void(OpId)> &fn) const;
  // func.func ops directly in the top module, in order.
  std::vector<OpId> functions() const;
  OpId lookupSymbol(std::string_view name) const;  // a func.func / sdy.mesh
  // The func.func a symbol reference (`@f`: a call's callee, a composite's
  // decomposition) names; kNone for kNoAttr or any other op.
  OpId lookupFunc(AttrId symbolRef) const;
  // The entry function: the one named `wanted`, else `main`, else the first
  // public one with a body. kNone when there is none.
  OpId findEntryFunction(const std::string &wanted = "") const;

  // --- Diagnostics ----------------------------------------------------------
  // Line/column of a byte offset: a binary search over line starts indexed
  // once, so reporting every op of a large program stays near-linear.
  SourceLoc lineCol(uint32_t offset) const;
  // `file:line:col` of an op in the input.
  std::string where(OpId op) const;
  // The same as a position, for Diagnostics (kNone: the file's start).
  SourcePosition position(OpId op) const;

private:
  mutable std::vector<uint32_t> lineStarts_;

private:
  // Use lists, threaded through the operand slots (LLVM's layout, as
  // indices): the slots reading value v are firstUse_[v], then useNext_ of
  // each; usePrev_ makes unlinking O(1); useOwner_ gives a slot's op. Every
  // write of an operand goes through createOp/setOperand/setOperands so the
  // lists stay true; an erased op stays linked (it may be re-inserted) and
  // is skipped by isNestedIn.
  void linkUse(uint32_t slot, ValueId v);
  void unlinkUse(uint32_t slot);
  std::vector<uint32_t> firstUse_;
  std::vector<uint32_t> useNext_, usePrev_;
  std::vector<OpId> useOwner_;
  // positionInBlock's starting point: the block and index it last found.
  BlockId hintBlock_ = kNone;
  size_t hintIndex_ = 0;
};

// Views over func.func, whose signature lives in its attributes as in MLIR:
// sym_name, function_type, arg_attrs, res_attrs, sym_visibility. FuncView
// only reads, so analyses holding a `const Module &` use it as they are;
// MutableFuncView adds the edits.
struct FuncView {
  const Module &m;
  OpId op;

  std::string_view name() const;
  BlockId entry() const;
  std::span<const ValueId> args() const;
  std::vector<TypeId> resultTypes() const;
  size_t numResults() const { return resultTypes().size(); }
  // The func.return of the entry block (kNone when missing).
  OpId returnOp() const;
  AttrId argAttr(size_t i, std::string_view name) const;
  AttrId resultAttr(size_t i, std::string_view name) const;
  AttrId argDict(size_t i) const;
  AttrId resultDict(size_t i) const;

private:
  AttrId entryAttr(std::string_view listName, size_t i, std::string_view name) const;
};

struct MutableFuncView : FuncView {
  MutableFuncView(Module &module, OpId func) : FuncView{module, func}, mm(module) {}

  void setArgAttr(size_t i, std::string_view name, AttrId value);
  void setResultAttr(size_t i, std::string_view name, AttrId value);
  void removeArgAttr(size_t i, std::string_view name);
  void removeResultAttr(size_t i, std::string_view name);

private:
  Module &mm;
  void setEntryAttr(std::string_view listName, size_t count, size_t i, std::string_view name, AttrId value);
};

// Calls `fn` on every value `op` reads: its operands, then the operands of
// the ops nested in its regions (a loop body's reads of values from outside
// are reads of the loop).
template <typename Fn> void forEachRead(const Module &m, OpId op, Fn &&fn) {
  for (ValueId v : m.operands(op)) fn(v);
  if (m.numRegions(op))
    m.walk(op, [&](OpId inner) {
      for (ValueId v : m.operands(inner)) fn(v);
    });
}

}  // namespace autopart
