// Internal: the registry of custom op forms. Each op with a pretty form
// (`stablehlo.add %a, %b : tensor<4xf32>`) has one entry pairing its parser
// and its printer, so the two stay mirror images; ops without one are read and
// written in MLIR's generic form.
#pragma once

#include <span>
#include <string_view>

#include "asm/AsmPrinter.h"
#include "asm/ParserImpl.h"

namespace autopart {

struct OpSyntax {
  // Called after the op name; fills `st` (operands, attributes, result types,
  // regions). `st.resultTypes` must be complete on success.
  bool (*parse)(Parser &p, OpState &st);
  // Called after `name` has been printed (and results, `=`).
  void (*print)(AsmPrinter &p, OpId op);
};

const OpSyntax *lookupOpSyntax(std::string_view opName);

// The form every terminator shares (func.return, stablehlo.return,
// sdy.return): `attr-dict %a, %b : t1, t2`.
bool parseTerminator(Parser &p, OpState &st);
void printTerminator(AsmPrinter &p, OpId op);

// Registration tables, one per syntax file.
struct OpSyntaxEntry {
  std::string_view name;
  OpSyntax syntax;
};
std::span<const OpSyntaxEntry> stablehloSyntaxTable();
std::span<const OpSyntaxEntry> stablehloContractionSyntaxTable();
std::span<const OpSyntaxEntry> stablehloRegionSyntaxTable();
std::span<const OpSyntaxEntry> sdySyntaxTable();
std::span<const OpSyntaxEntry> builtinSyntaxTable();
std::span<const OpSyntaxEntry> chloSyntaxTable();
std::span<const OpSyntaxEntry> checkSyntaxTable();

}  // namespace autopart
