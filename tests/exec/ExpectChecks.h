// Runs a function body holding `check.*` ops on zero inputs and expects every
// one of its `checks` assertions to run and pass; shared by the op tests that
// state their answers as check ops in the program text.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "exec/Run.h"
#include "tests/TestUtil.h"

namespace autopart::exec {

inline void expectAllPass(const std::string &body, int checks) {
  std::string text = "func.func @f() {\n" + body + "\n  func.return\n}\n";
  std::unique_ptr<Module> m = testing::parse(text);
  ASSERT_TRUE(m) << text;
  RunResult r = runModule(*m, {"", "zeros", 0, {}});
  for (const FunctionRun &f : r.functions) EXPECT_FALSE(f.failed) << f.error << "\n" << text;
  for (const CheckFailure &f : r.failures) ADD_FAILURE() << m->where(f.op) << ": " << f.message << "\n" << text;
  EXPECT_EQ(r.checksTotal, checks);
  EXPECT_EQ(r.checksPassed, checks);
}

}  // namespace autopart::exec
