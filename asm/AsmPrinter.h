// Internal: the printer state shared by the generic printer (asm/Printer.cpp)
// and the custom op forms (ir/*Syntax.cpp).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asm/Printer.h"
#include "ir/Module.h"

namespace autopart {

class AsmPrinter {
public:
  AsmPrinter(const Module &m, const PrintOptions &opts, std::string &out);

  void printTop();
  void printModuleOp(OpId mod);
  void printOperation(OpId op);
  void printGenericOp(OpId op);
  void printUnknownCustomOp(OpId op, AttrId customText);

  // Pieces used by custom forms.
  void value(ValueId v);
  void valueList(std::span<const ValueId> vs);
  void operands(OpId op) { valueList(m.operands(op)); }
  void type(TypeId t) { out += m.types.str(t); }
  void typeList(std::span<const TypeId> ts);
  void valueTypes(std::span<const ValueId> vs);  // types of values, comma separated
  void attr(AttrId a) { m.attrs.print(a, out); }
  // ` {a = 1, b}` (with a leading space) for the attributes not in `elided`.
  void attrDict(OpId op, std::initializer_list<std::string_view> elided = {});
  // `(t1, t2) -> t3`
  void functionalType(OpId op);
  // `t` when every operand and result has type t, else the functional type.
  void sameOperandsAndResultType(OpId op);
  // `{` region `}`; the entry block header is printed when `printEntryArgs`
  // or the block has arguments and the form does not name them elsewhere.
  void region(RegionId r, bool printEntryArgs);
  // `(%a: t, %b: t)` for an entry block's arguments.
  void blockArgList(BlockId b);
  void newline();
  void intList(std::span<const int64_t> v);  // [1, 2]
  // `@name` for a symbol definition, `@"<lambda>"` when the name is not a
  // bare identifier (as MLIR prints it, so it reads back).
  void symbolName(std::string_view name);

  const Module &m;
  const PrintOptions &opts;
  std::string &out;
  // When set, `out` is flushed here whenever it grows past a chunk.
  std::ostream *sink = nullptr;
  int indent = 0;
  // The current op's innermost enclosing func.func: inside one, ops of the
  // func dialect print without the `func.` prefix, as in MLIR.
  bool inFunc = false;

private:
  void numberScope(OpId isolatedOp);
  void numberRegion(RegionId r, uint32_t nextValue, uint32_t nextArg, uint32_t nextConflict,
                    size_t usedMark);
  std::string uniqueName(std::string_view base, uint32_t &nextConflict);
  void printBlock(BlockId b, bool printHeader);

  // Per-value names: kind 0 = unnamed, 1 = `%N` (result group N, `#k` when the
  // op has several results), 2 = `%argN`, 3 = named (`names_[id]`).
  struct ValueName {
    uint8_t kind = 0;
    uint32_t id = 0;
  };
  std::vector<ValueName> valueNames_;
  std::vector<std::string> named_;
  std::vector<std::string> usedNames_;  // stack of names in scope
};

}  // namespace autopart
