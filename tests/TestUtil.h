// Shared helpers for the unit tests: parse a program (a parse error fails the
// test and prints the diagnostic), and find its ops by name.
//
//   std::unique_ptr<Module> m = testing::parse(kProgram);
//   ASSERT_TRUE(m);
//   std::vector<OpId> dots = testing::opsNamed(*m, "stablehlo.dot_general");
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "asm/Parser.h"

namespace autopart::testing {

inline std::unique_ptr<Module> parse(const std::string &text, const std::string &fileName = "t.mlir") {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, fileName, &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

// The ops named `name` nested under the module, in program order.
inline std::vector<OpId> opsNamed(const Module &m, std::string_view name) {
  std::vector<OpId> out;
  m.walk(m.top, [&](OpId op) {
    if (m.isa(op, name)) out.push_back(op);
  });
  return out;
}

// The text of a generated program (gen/Models.h); a generator error fails
// the test and gives an empty program.
template <class Generate, class Config>
std::string generatedText(Generate generate, const Config &config) {
  Diagnostics diags;
  auto result = generate(config, diags);
  EXPECT_TRUE(result) << diags.errorText();
  return result ? result->text : std::string();
}

}  // namespace autopart::testing
