#include "api/Analyze.h"

#include <gtest/gtest.h>

#include "asm/Parser.h"

namespace autopart {
namespace {

ProgramText example(const std::string &name) {
  ProgramText p;
  p.fileName = std::string(AUTOPART_SOURCE_DIR) + "/examples/" + name;
  Diagnostics diags;
  EXPECT_TRUE(readFile(p.fileName, p.text, diags)) << diags.errorText();
  return p;
}

TEST(ApiAnalyze, ReportsNamesAndSpace) {
  AnalyzeRequest r;
  r.program = example("mlp_forward.mlir");
  r.mesh = "a=2,b=2,c=2";
  r.top = 2;
  Diagnostics diags;
  std::optional<AnalyzeResult> result = analyzeProgram(r, diags);
  ASSERT_TRUE(result) << diags.errorText();
  const nlohmann::json &j = result->report;
  EXPECT_EQ(j["file"], r.program.fileName);
  EXPECT_EQ(j["names"], 4);
  EXPECT_EQ(j["mesh_axes"], 3);
  EXPECT_EQ(j["top_names"].size(), 2u);
  EXPECT_LT(j["log10_space_after"].get<double>(), j["log10_space_before"].get<double>());
  // The CLI's text is made from the report alone.
  std::string text = formatAnalyzeReport(j);
  EXPECT_NE(text.find("4 names, 0 conflicts"), std::string::npos) << text;
}

TEST(ApiAnalyze, ReportNameOverridesFileName) {
  AnalyzeRequest r;
  r.program = example("mlp_forward.mlir");
  r.reportName = "-";
  Diagnostics diags;
  EXPECT_EQ(analyzeProgram(r, diags)->report["file"], "-");
}

}  // namespace
}  // namespace autopart
