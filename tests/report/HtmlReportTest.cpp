// The HTML plan report: escaping, the sections a plan's page has, the
// sortable argument table, links from locations to embedded source lines,
// and the search methods when the search JSON is given.
#include "report/HtmlReport.h"

#include "report/Html.h"
#include "sim/SimulationReport.h"

#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::kFsdpStep;
using testing::parse;
using testing::roundDevice;

size_t occurrences(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The text of the element with `id` up to its closing `</tag>`.
std::string element(const std::string &page, const std::string &id, const std::string &tag) {
  size_t begin = page.find("id=\"" + id + "\"");
  if (begin == std::string::npos) return "";
  size_t end = page.find("</" + tag + ">", begin);
  return page.substr(begin, end - begin);
}

std::string render(const Module &m, nlohmann::json search = nullptr, std::string title = "t") {
  HtmlReportInput in;
  in.title = std::move(title);
  in.module = &m;
  in.simulation = simulationReport(m, ShardingMap::fromModule(m), roundDevice());
  in.search = std::move(search);
  return renderHtmlReport(in);
}

TEST(HtmlReport, Escaping) {
  EXPECT_EQ(htmlEscape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  std::string json = scriptSafeJson({{"x", "</script><!-- & \u2028"}});
  EXPECT_EQ(json.find('<'), std::string::npos);
  EXPECT_EQ(json.find('&'), std::string::npos);
  EXPECT_EQ(json, R"({"x":"\u003c/script\u003e\u003c!-- \u0026 \u2028"})");
  EXPECT_EQ(nlohmann::json::parse(json)["x"], "</script><!-- & \u2028");
  EXPECT_EQ(svgNumber(12.345), "12.3");
  EXPECT_EQ(svgNumber(3.0), "3");
  EXPECT_EQ(svgNumber(-0.01), "0");
}

TEST(HtmlReport, SectionsOfAPlan) {
  auto m = parse(kFsdpStep);
  std::string page = render(*m, nullptr, "plan of <script>alert(1)</script>");
  // Self-contained: nothing fetched, the policy forbids it.
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  // The title is text, not markup.
  EXPECT_EQ(page.find("<script>alert(1)"), std::string::npos);
  EXPECT_NE(page.find("plan of &lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  for (const char *id : {"mesh", "mesh-grid", "step", "step-bars", "memory", "memory-plot", "costliest",
                         "kernel-table", "collective-table", "arguments", "argument-table", "source", "self-check",
                         "autopart-data"})
    EXPECT_NE(page.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
  EXPECT_EQ(page.find("id=\"search\""), std::string::npos);

  // The mesh d=8: eight device cells.
  EXPECT_EQ(occurrences(element(page, "mesh-grid", "svg"), "<rect"), 8u);
  // The memory line has one point per op of @main (two dots, the return).
  std::string plot = element(page, "memory-plot", "svg");
  size_t line = plot.find("class=\"mem-line\" d=\"");
  ASSERT_NE(line, std::string::npos);
  EXPECT_EQ(occurrences(plot.substr(line, plot.find('"', line + 20) - line), " L"), 2u);
  EXPECT_NE(plot.find("peak 480.00 KiB (op 1)"), std::string::npos);

  // Three arguments, sortable, with their sharding and local shape.
  std::string args = element(page, "argument-table", "table");
  EXPECT_EQ(occurrences(args, "<tr>") - 1, 3u);  // less the header row
  EXPECT_NE(page.find("class=\"sortable\" id=\"argument-table\""), std::string::npos);
  EXPECT_NE(args.find("128x128xf32"), std::string::npos);  // x: 1024x128 over d=8
  EXPECT_NE(args.find("&lt;@mesh, [{&quot;d&quot;}, {}]&gt;"), std::string::npos);

  // Locations link to their line, which is embedded.
  EXPECT_NE(page.find("<a class=\"loc\" href=\"#L7\" data-line=\"7\" data-col=\"8\">t.mlir:7:8</a>"), std::string::npos);
  std::string source = element(page, "L7", "div");
  EXPECT_NE(source.find("%h = stablehlo.dot_general %x, %w1"), std::string::npos);

  // The embedded data tells the page's self-check what to expect.
  size_t data = page.find("id=\"autopart-data\">");
  ASSERT_NE(data, std::string::npos);
  data += 19;
  nlohmann::json j = nlohmann::json::parse(page.substr(data, page.find("</script>", data) - data));
  EXPECT_EQ(j["expect"]["arguments"], 3);
  EXPECT_EQ(j["expect"]["memory_points"], 3);
  EXPECT_EQ(j["simulation"]["devices"], 8);
}

TEST(HtmlReport, EscapesWhatTheProgramNames) {
  // A frontend name is arbitrary text; it must not become markup, nor end
  // the script that carries the data.
  auto m = parse(R"(func.func @main(%a: tensor<4xf32> {jax.arg_info = "x</script><blink>"}) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  std::string page = render(*m);
  EXPECT_EQ(page.find("<blink>"), std::string::npos);
  EXPECT_NE(page.find("x&lt;/script&gt;&lt;blink&gt;"), std::string::npos);
  // Only the page's own three scripts close.
  EXPECT_EQ(occurrences(page, "</script>"), 3u);
}

TEST(HtmlReport, SearchMethodsSideBySide) {
  auto m = parse(kFsdpStep);
  nlohmann::json search = {
      {"mesh", "<[\"d\"=8]>"}, {"device", "h100-80gb"}, {"hbm_bytes", 80e9}, {"chosen", "mcts"}, {"levers", "none"},
      {"results",
       {{{"method", "mcts"}, {"found", true}, {"step_seconds", 2e-3}, {"compute_seconds", 1.5e-3},
         {"communication_seconds", 0.5e-3}, {"peak_bytes", 1 << 20}, {"fits", true}, {"search_seconds", 1.5}},
        {{"method", "<greedy>"}, {"found", true}, {"step_seconds", 4e-3}, {"compute_seconds", 2e-3},
         {"communication_seconds", 2e-3}, {"peak_bytes", 2 << 20}, {"fits", false}, {"search_seconds", 0.1}},
        {{"method", "random"}, {"found", false}, {"search_seconds", 0.2}, {"note", "budget"}}}}};
  std::string page = render(*m, search);
  std::string table = element(page, "search-table", "table");
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(occurrences(table, "<tr") - 1, 3u);
  EXPECT_NE(table.find("<tr class=\"chosen\"><td>mcts <span class=\"badge chosen\">chosen</span>"), std::string::npos);
  EXPECT_NE(table.find("&lt;greedy&gt;"), std::string::npos);
  EXPECT_NE(table.find("2.000 ms"), std::string::npos);
  EXPECT_NE(table.find("not found"), std::string::npos);
  EXPECT_NE(page.find("class=\"sortable\" id=\"search-table\""), std::string::npos);
}

TEST(HtmlReport, ToleratesMissingAndOddFields) {
  // No module, no simulation, a search object whose fields have the wrong
  // types: a page all the same, with what there is.
  HtmlReportInput in;
  in.search = {{"results", {{{"method", 3}, {"step_seconds", "fast"}}, 7}}, {"chosen", nullptr}};
  std::string page;
  ASSERT_NO_THROW(page = renderHtmlReport(in));
  EXPECT_NE(page.find("autopart plan report"), std::string::npos);
  EXPECT_NE(page.find("id=\"search-table\""), std::string::npos);
  EXPECT_EQ(page.find("id=\"memory-plot\""), std::string::npos);
}

}  // namespace
}  // namespace autopart
