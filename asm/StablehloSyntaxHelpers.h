// Internal: the attribute helpers the StableHLO custom forms share
// (ir/Stablehlo*Syntax.cpp): i64 arrays, `#stablehlo<kind VALUE>` enums and
// `, key = [..]` keyword lists.
//
//   parseKeywordIntList(p, st, "dims", "permutation")   // reads `dims = [1, 0]`
//   printKeywordIntList(p, op, "dims", "permutation")   // writes `, dims = [1, 0]`
//   enumAttr(m, "comparison_direction", "LT")           // #stablehlo<comparison_direction LT>
//   enumValue(m, that)                                  // "LT"
#pragma once

#include <string_view>
#include <vector>

#include "asm/OpSyntax.h"

namespace autopart {

TypeId i64Type(Module &m);
AttrId i64Array(Module &m, std::vector<int64_t> v);
// The integers of attribute `name` of `op`; empty when it is absent.
std::vector<int64_t> intsOf(const Module &m, OpId op, std::string_view name);

// `#stablehlo<kind VALUE>` enum attributes.
AttrId enumAttr(Module &m, std::string_view kind, std::string_view value);
std::string_view enumValue(const Module &m, AttrId a);
bool parseEnumWord(Parser &p, std::string_view &word);

// Older programs (and the spec's examples) write the i64-list attributes as
// `dense<[1, 0]> : tensor<2xi64>`; StableHLO now holds them as
// `array<i64: 1, 0>` (`array<i1: ..>` for window_reversal). Rewrites them so
// every reader (rules, the pretty forms) sees one kind. Other attributes, and
// 2-D ones such as convolution padding, stay as written.
void upgradeDenseListAttrs(Module &m, OpState &st);

// `, key = [..]` items after the operands, in any order the form allows.
bool parseKeywordIntList(Parser &p, OpState &st, std::string_view kw, std::string_view attrName);
void printKeywordIntList(AsmPrinter &p, OpId op, std::string_view kw, std::string_view attrName);

// The functional-type form `op %a, %b attr-dict : (ts) -> t` (StableHLO's and
// CHLO's ops without a shorter form).
bool parseFunctional(Parser &p, OpState &st);
void printFunctional(AsmPrinter &p, OpId op);

}  // namespace autopart
