// XLA round trips compared by devices, not text: for every value, the set
// of devices holding each tile of it must be the same before and after.
//
//   GSPMD program -> -xla-sdy-stablehlo-import-pipeline -> export pipeline
//   autopart plan output -> export pipeline -> import pipeline
//   Shardy program -> V3 export -> import: the same sdy shardings (V3
//   strings name their mesh, so axis names survive too)
//
// over a synthetic program with every kind of tile assignment and over the
// shared model programs that carry `mhlo.sharding`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "api/Plan.h"
#include "asm/Parser.h"
#include "export/GspmdSharding.h"
#include "xla/ExportPipeline.h"
#include "xla/HloShardingText.h"
#include "xla/ImportPipeline.h"

namespace autopart {
namespace {

// Per data tile (row-major over the data tile dimensions), the sorted
// devices holding it; replicated is one tile on every device, written {-1}
// (a string alone does not say how many devices there are).
struct Placement {
  std::vector<int64_t> tileDims;
  std::vector<std::vector<int64_t>> groups;
  bool operator==(const Placement &) const = default;
};

void PrintTo(const Placement &p, std::ostream *os) {
  *os << "tiles[";
  for (int64_t d : p.tileDims) *os << d << ",";
  *os << "]";
  for (const std::vector<int64_t> &g : p.groups) {
    *os << " {";
    for (int64_t d : g) *os << d << ",";
    *os << "}";
  }
}

Placement placementOf(const HloSharding &h, size_t rank) {
  Placement p;
  if (h.kind == HloSharding::Kind::Maximal) {
    p.groups = {{h.device}};
    return p;
  }
  if (h.kind != HloSharding::Kind::Tiled) {
    p.tileDims.assign(rank, 1);
    p.groups = {{-1}};
    return p;
  }
  size_t data = h.numDataDims();
  p.tileDims.assign(h.tileDims.begin(), h.tileDims.begin() + std::ptrdiff_t(data));
  int64_t tiles = 1, group = 1;
  for (size_t d = 0; d < h.tileDims.size(); ++d) (d < data ? tiles : group) *= h.tileDims[d];
  p.groups.resize(size_t(tiles));
  for (int64_t t = 0; t < tiles; ++t) {
    for (int64_t g = 0; g < group; ++g) p.groups[size_t(t)].push_back(h.devices[size_t(t * group + g)]);
    std::sort(p.groups[size_t(t)].begin(), p.groups[size_t(t)].end());
  }
  return p;
}

std::vector<Placement> placementsOfString(std::string_view escaped, const std::vector<size_t> &ranks) {
  std::string why;
  size_t at;
  std::optional<HloSharding> h = parseHloSharding(unescapeString(escaped), &why, &at);
  EXPECT_TRUE(h) << why;
  if (!h) return {};
  std::vector<const HloSharding *> leaves;
  if (h->kind == HloSharding::Kind::Tuple)
    for (const HloSharding &e : h->elements) leaves.push_back(&e);
  else
    leaves.push_back(&*h);
  std::vector<Placement> out;
  for (size_t i = 0; i < leaves.size(); ++i) out.push_back(placementOf(*leaves[i], i < ranks.size() ? ranks[i] : 0));
  return out;
}

size_t rankOf(const Module &m, TypeId t) { return m.types.isTensor(t) ? size_t(m.types.rank(t)) : 0; }

// Keys: "f<func>.arg<i>", "f<func>.res<i>", "op@<source offset>".
using Placements = std::map<std::string, std::vector<Placement>>;

// Every `mhlo.sharding` string of the module.
Placements gspmdPlacements(const Module &m) {
  Placements out;
  std::vector<OpId> funcs = m.functions();
  for (size_t fi = 0; fi < funcs.size(); ++fi) {
    FuncView f{m, funcs[fi]};
    std::string name(f.name());
    for (size_t i = 0; i < f.args().size(); ++i)
      if (AttrId a = f.argAttr(i, "mhlo.sharding"); a != kNoAttr)
        out[name + ".arg" + std::to_string(i)] =
            placementsOfString(m.attrs.stringValue(a), {rankOf(m, m.type(f.args()[i]))});
    for (size_t i = 0; i < f.numResults(); ++i)
      if (AttrId a = f.resultAttr(i, "mhlo.sharding"); a != kNoAttr)
        out[name + ".res" + std::to_string(i)] =
            placementsOfString(m.attrs.stringValue(a), {rankOf(m, f.resultTypes()[i])});
    m.walk(funcs[fi], [&](OpId op) {
      AttrId a = m.attr(op, "mhlo.sharding");
      if (a == kNoAttr || m.isa(op, "mhlo.copy")) return;
      std::vector<size_t> ranks;
      for (uint32_t r = 0; r < m.numResults(op); ++r) ranks.push_back(rankOf(m, m.type(m.result(op, r))));
      out["op@" + std::to_string(m.ops[op].srcOffset)] = placementsOfString(m.attrs.stringValue(a), ranks);
    });
  }
  return out;
}

// Every `sdy.sharding` of the module (function arguments and results,
// StableHLO ops' results) mapped through `f`, keyed by where it stands.
template <typename F>
auto mapSdyShardings(const Module &m, F f) {
  using T = decltype(f(std::declval<const TensorSharding &>()));
  std::map<std::string, std::vector<T>> out;
  for (OpId func : m.functions()) {
    FuncView fv{m, func};
    std::string name(fv.name());
    for (size_t i = 0; i < fv.args().size(); ++i)
      if (AttrId a = fv.argAttr(i, "sdy.sharding"); a != kNoAttr)
        out[name + ".arg" + std::to_string(i)] = {f(*m.attrs.get(a).sharding)};
    for (size_t i = 0; i < fv.numResults(); ++i)
      if (AttrId a = fv.resultAttr(i, "sdy.sharding"); a != kNoAttr)
        out[name + ".res" + std::to_string(i)] = {f(*m.attrs.get(a).sharding)};
    m.walk(func, [&](OpId op) {
      AttrId a = m.attr(op, "sdy.sharding");
      if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue || !m.opName(op).starts_with("stablehlo."))
        return;
      std::vector<T> ts;
      for (const TensorSharding &s : m.attrs.get(a).shardings) ts.push_back(f(s));
      out["op@" + std::to_string(m.ops[op].srcOffset)] = ts;
    });
  }
  return out;
}

// Every `sdy.sharding` of the module, placed through the GSPMD writer.
Placements sdyPlacements(const Module &m) {
  std::map<std::string, Mesh> meshes;
  for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
    for (OpId op : m.blocks[b].ops)
      if (m.isa(op, "sdy.mesh"))
        meshes[std::string(m.attrs.stringValue(m.attr(op, "sym_name")))] = *m.attrs.get(m.attr(op, "mesh")).mesh;
  auto place = [&](const TensorSharding &s) {
    const Mesh &mesh = s.inlineMesh ? *s.inlineMesh : meshes.at(s.meshName);
    std::string why;
    std::string g = gspmdSharding(s, mesh, &why);
    EXPECT_FALSE(g.empty()) << why;
    return placementsOfString(escapeString(g), {s.rank()})[0];
  };
  return mapSdyShardings(m, place);
}

std::unique_ptr<Module> parse(const std::string &text, const std::string &name) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(text, name, &err);
  EXPECT_TRUE(m) << err.full;
  return m;
}

// Import then export: the same devices for every tile of every value.
void expectGspmdRoundTrip(const std::string &text, const std::string &name, size_t *compared) {
  std::unique_ptr<Module> m = parse(text, name);
  ASSERT_TRUE(m);
  Placements before = gspmdPlacements(*m);
  Diagnostics diags;
  ASSERT_TRUE(importFromXla(*m, diags)) << diags.errorText();
  ASSERT_TRUE(exportToXla(*m, XlaExportOptions{}, diags)) << diags.errorText();
  Placements after = gspmdPlacements(*m);
  for (const auto &[key, ps] : before) {
    ASSERT_TRUE(after.count(key)) << name << ": " << key << " lost its sharding";
    EXPECT_EQ(after.at(key), ps) << name << ": " << key;
    ++*compared;
  }
}

const char *kEveryKind = R"(
func.func @main(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"},
                %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"},
                %c: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(2,0,1) last_tile_dim_replicate}"},
                %d: tensor<8x8xf32> {mhlo.sharding = "{replicated}"},
                %e: tensor<8xf32> {mhlo.sharding = "{devices=[8]<=[8]}"})
    -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[8,1]<=[2,2,2]T(1,2,0)}"}) {
  %0 = stablehlo.add %a, %b {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"} : tensor<8x8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2:2 = "stablehlo.optimization_barrier"(%1, %c) {mhlo.sharding = "{{devices=[8,1]<=[8]}, {replicated}}"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %3 = stablehlo.multiply %2#0, %2#1 {mhlo.sharding = "{maximal device=5}"} : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
)";

// A mesh in a device order that is no iota: every string lists devices.
const char *kDeviceList = R"(
func.func @main(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]0,2,3,1}"},
                %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]0,3,2,1 last_tile_dim_replicate}"},
                %c: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,4]0,3,2,1}"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}
)";

TEST(XlaRoundTrip, ImportThenExportKeepsEveryTileOnItsDevices) {
  size_t compared = 0;
  expectGspmdRoundTrip(kEveryKind, "every_kind.mlir", &compared);
  expectGspmdRoundTrip(kDeviceList, "device_list.mlir", &compared);
  EXPECT_EQ(compared, 13u);
}

std::vector<std::filesystem::path> modelsWithGspmdStrings() {
  std::vector<std::filesystem::path> out;
  std::filesystem::path dir = std::filesystem::path(AUTOPART_SHARED_DIR) / "models";
  if (!std::filesystem::exists(dir)) return out;
  for (const auto &e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".mlir") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().find("mhlo.sharding") != std::string::npos) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string readAll(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(XlaRoundTrip, SharedModelsImportThenExport) {
  std::vector<std::filesystem::path> models = modelsWithGspmdStrings();
  if (models.empty()) GTEST_SKIP() << "no shared model carries mhlo.sharding";
  for (const std::filesystem::path &p : models) {
    size_t compared = 0;
    expectGspmdRoundTrip(readAll(p), p.string(), &compared);
    EXPECT_GT(compared, 0u) << p;
    std::cout << p.filename().string() << ": " << compared << " values compared\n";
  }
}

// The plan's shardings through export then import: the same devices.
TEST(XlaRoundTrip, SharedModelPlansExportThenImport) {
  std::vector<std::filesystem::path> models = modelsWithGspmdStrings();
  if (models.empty()) GTEST_SKIP() << "no shared model carries mhlo.sharding";
  for (const std::filesystem::path &p : models) {
    PlanRequest r;
    r.program = {readAll(p), p.string()};
    r.mesh = "data=4,model=2";
    r.tactics = "auto";
    r.autoBudget.iterations = 50;  // a plan to compare, not the best one
    r.autoBudget.seconds = 5;
    r.autoBudget.threads = 1;
    Diagnostics diags;
    PlanResult plan = planProgram(r, diags);
    ASSERT_TRUE(plan.ok) << p << diags.errorText();
    std::unique_ptr<Module> m = parse(plan.text, p.string());
    ASSERT_TRUE(m);
    Placements before = sdyPlacements(*m);
    ASSERT_TRUE(exportToXla(*m, XlaExportOptions{}, diags)) << diags.errorText();
    ASSERT_TRUE(importFromXla(*m, diags)) << diags.errorText();
    Placements after = sdyPlacements(*m);
    size_t compared = 0, tiled = 0;
    for (const auto &[key, ps] : before) {
      if (!after.count(key)) continue;  // e.g. a constant, now sdy.constant
      EXPECT_EQ(after.at(key), ps) << p << ": " << key;
      ++compared;
      for (const Placement &pl : ps) tiled += pl.groups.size() > 1;
    }
    EXPECT_GT(compared, before.size() / 2) << p;
    // The plan shards something, so the comparison is not of replicas only.
    EXPECT_GT(tiled, 0u) << p;
    std::cout << p.filename().string() << ": " << compared << " values compared, " << tiled << " tiled\n";
  }
}

// Every sdy sharding of the module as text without its mesh name, and the
// meshes by name.
std::map<std::string, std::vector<std::string>> sdyTexts(const Module &m) {
  auto text = [](TensorSharding s) {
    s.meshName.clear();
    return s.str();
  };
  return mapSdyShardings(m, text);
}

std::vector<Mesh> deviceMeshes(const Module &m) {
  std::vector<Mesh> out;
  for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
    for (OpId op : m.blocks[b].ops)
      if (m.isa(op, "sdy.mesh") && !m.attrs.get(m.attr(op, "mesh")).mesh->axes.empty())
        out.push_back(*m.attrs.get(m.attr(op, "mesh")).mesh);
  return out;
}

// V3 export then import: every sdy sharding comes back as it was.
size_t expectV3RoundTrip(Module &m, const std::string &name) {
  std::map<std::string, std::vector<std::string>> before = sdyTexts(m);
  std::vector<Mesh> meshes = deviceMeshes(m);
  Diagnostics diags;
  XlaExportOptions v3;
  v3.v3 = true;
  EXPECT_TRUE(exportToXla(m, v3, diags)) << name << diags.errorText();
  EXPECT_TRUE(importFromXla(m, diags)) << name << diags.errorText();
  EXPECT_EQ(deviceMeshes(m), meshes) << name;
  std::map<std::string, std::vector<std::string>> after = sdyTexts(m);
  size_t compared = 0;
  for (const auto &[key, ts] : before) {
    if (!after.count(key)) continue;  // e.g. a constant, now sdy.constant
    EXPECT_EQ(after.at(key), ts) << name << ": " << key;
    ++compared;
  }
  return compared;
}

const char *kShardy = R"(
sdy.mesh @mesh = <["x"=8, "y"=2], device_ids=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"y"}], replicated={"x":(2)4}>},
                %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
                %c: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>},
                %d: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)4}, {}]>}) {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

TEST(XlaRoundTrip, V3ExportThenImportKeepsEveryShardyShardingAndTheMesh) {
  std::unique_ptr<Module> m = parse(kShardy, "shardy.mlir");
  ASSERT_TRUE(m);
  EXPECT_EQ(expectV3RoundTrip(*m, "shardy.mlir"), 6u);
}

// The plans of the shared models, exported as V3 and imported again.
TEST(XlaRoundTrip, SharedModelPlansV3ExportThenImport) {
  std::vector<std::filesystem::path> models = modelsWithGspmdStrings();
  if (models.empty()) GTEST_SKIP() << "no shared model carries mhlo.sharding";
  for (const std::filesystem::path &p : models) {
    PlanRequest r;
    r.program = {readAll(p), p.string()};
    r.mesh = "data=4,model=2";
    r.tactics = "auto";
    r.autoBudget.iterations = 50;
    r.autoBudget.seconds = 5;
    r.autoBudget.threads = 1;
    Diagnostics diags;
    PlanResult plan = planProgram(r, diags);
    ASSERT_TRUE(plan.ok) << p << diags.errorText();
    std::unique_ptr<Module> m = parse(plan.text, p.string());
    ASSERT_TRUE(m);
    size_t total = sdyTexts(*m).size();
    size_t compared = expectV3RoundTrip(*m, p.string());
    EXPECT_GT(compared, total / 2) << p;
    std::cout << p.filename().string() << ": " << compared << " of " << total << " sdy shardings compared (V3)\n";
  }
}

}  // namespace
}  // namespace autopart
