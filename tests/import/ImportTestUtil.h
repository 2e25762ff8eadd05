// Shared by the import pass tests: run a registered pass by name on a
// parsed program and check the result still verifies.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "asm/Printer.h"
#include "ir/Pass.h"
#include "verify/Verifier.h"

#include "tests/TestUtil.h"

namespace autopart::testing {

// Parses `text`, runs `pass` (with `options` as written after `=`) and
// returns the printed result; failures of the pass or the verifier fail
// the test.
inline std::string runPass(const std::string &text, const std::string &pass, const std::string &options = "") {
  std::unique_ptr<Module> m = parse(text);
  if (!m) return "";
  const PassInfo *info = lookupPass(pass);
  EXPECT_NE(info, nullptr) << pass;
  if (!info) return "";
  Diagnostics diags;
  EXPECT_TRUE(info->run(*m, PassOptions::parse(options), diags)) << diags.errorText();
  EXPECT_TRUE(verifyModule(*m, diags)) << diags.errorText();
  return printModule(*m);
}

// How many times `needle` occurs in `hay`.
inline size_t count(const std::string &hay, const std::string &needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
  return n;
}

}  // namespace autopart::testing
