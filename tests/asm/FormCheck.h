// The check the pretty-form tests share: a form is read into the op's real
// operands and attributes (seen in the generic form, with nothing kept as
// unread custom text), printed back in its pretty form, and is a fixed point.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "asm/Parser.h"
#include "asm/Printer.h"

namespace autopart::testing {

struct PrintedForms {
  std::string pretty, generic;
};

inline PrintedForms printForms(const std::string &text) {
  ParseError err;
  auto m = parseModule(text, "t.mlir", &err);
  EXPECT_TRUE(m) << err.full;
  if (!m) return {};
  PrintOptions generic;
  generic.genericForm = true;
  return {printModule(*m), printModule(*m, generic)};
}

// Parses `body` inside a function with arguments `args`; the pretty output
// must contain `pretty`, the generic one `generic`.
inline void expectForm(const std::string &args, const std::string &body, const std::string &pretty,
                       const std::string &generic) {
  PrintedForms p = printForms("func.func @f(" + args + ") {\n" + body + "\n  return\n}\n");
  EXPECT_NE(p.pretty.find(pretty), std::string::npos) << p.pretty;
  EXPECT_NE(p.generic.find(generic), std::string::npos) << p.generic;
  EXPECT_EQ(p.generic.find("__custom_syntax"), std::string::npos) << p.generic;
  PrintedForms again = printForms(p.pretty);
  EXPECT_EQ(again.pretty, p.pretty);
  EXPECT_EQ(again.generic, p.generic);
}

}  // namespace autopart::testing
