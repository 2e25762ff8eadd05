// Every sharding propagation writes must satisfy the sharding invariants
// (each axis once per tensor, no overlapping sub-axes, sub-axes divide their
// axis, rank matches): checked over every case of Shardy's propagation and
// export peer tests, with each strategy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "asm/Parser.h"
#include "propagation/DataFlowEdges.h"
#include "propagation/ShardingPropagation.h"

namespace autopart {
namespace {

std::vector<std::string> cases(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str(), cur;
  std::vector<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("// -----", 0) == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += line + "\n";
    }
  }
  out.push_back(cur);
  return out;
}

// Returns the first invalid sharding in `m`, or "".
std::string firstInvalid(const Module &m) {
  std::map<std::string, Mesh> meshes;
  for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
    for (OpId op : m.blocks[b].ops)
      if (m.isa(op, "sdy.mesh")) {
        AttrId name = m.attr(op, "sym_name"), mesh = m.attr(op, "mesh");
        if (name != kNoAttr && mesh != kNoAttr && m.attrs.kind(mesh) == AttrKind::Mesh)
          meshes[std::string(m.attrs.stringValue(name))] = *m.attrs.get(mesh).mesh;
      }
  auto check = [&](const TensorSharding &s, TypeId t) -> std::string {
    const Mesh *mesh = s.inlineMesh ? &*s.inlineMesh : nullptr;
    if (!mesh) {
      auto it = meshes.find(s.meshName);
      if (it == meshes.end()) return "";
      mesh = &it->second;
    }
    int64_t rank = m.types.isTensor(t) ? m.types.rank(t) : -1;
    std::string err = s.verify(*mesh, rank);
    return err.empty() ? "" : s.str() + ": " + err;
  };
  std::string found;
  for (OpId func : m.functions()) {
    FuncView f{m, func};
    std::span<const ValueId> args = f.args();
    for (size_t i = 0; i < args.size() && found.empty(); ++i) {
      AttrId a = f.argAttr(i, "sdy.sharding");
      if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding)
        found = check(*m.attrs.get(a).sharding, m.type(args[i]));
    }
    m.walk(func, [&](OpId op) {
      if (!found.empty()) return;
      AttrId a = m.attr(op, "sdy.sharding");
      if (a != kNoAttr && m.attrs.kind(a) == AttrKind::ShardingPerValue) {
        const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
        for (uint32_t i = 0; i < all.size() && i < m.numResults(op) && found.empty(); ++i)
          found = check(all[i], m.type(m.result(op, i)));
      }
      AttrId c = m.attr(op, "sharding");
      if (found.empty() && c != kNoAttr && m.attrs.kind(c) == AttrKind::Sharding && m.numResults(op) == 1)
        found = check(*m.attrs.get(c).sharding, m.type(m.result(op, 0)));
    });
  }
  return found;
}

TEST(PropagationInvariants, PeerCasesStayValid) {
  namespace fs = std::filesystem;
  std::string root = std::string(AUTOPART_SHARED_DIR) + "/peer/shardy/shardy/dialect/sdy/transforms";
  if (!fs::exists(root)) GTEST_SKIP() << "no peer tests at " << root;
  size_t checked = 0;
  for (const char *dir : {"/propagation/test", "/export/test/insert_explicit_reshards"}) {
    for (const fs::directory_entry &e : fs::directory_iterator(root + dir)) {
      if (e.path().extension() != ".mlir") continue;
      for (const std::string &text : cases(e.path().string())) {
        for (FactorStrategy strategy : {FactorStrategy::Basic, FactorStrategy::Aggressive}) {
          ParseError err;
          std::unique_ptr<Module> m = parseModule(text, e.path().string(), &err);
          if (!m) continue;  // cases that are meant not to parse
          // Modules that start out invalid are not propagation's fault.
          if (!firstInvalid(*m).empty()) continue;
          PropagationOptions options;
          options.strategy = strategy;
          options.userPriorities = strategy == FactorStrategy::Aggressive;
          Diagnostics diags;
          addDataFlowEdges(*m);
          propagateShardings(*m, options, diags);
          sinkDataFlowEdges(*m);
          EXPECT_EQ(firstInvalid(*m), "") << e.path().filename() << "\n" << text;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 200u);
}

}  // namespace
}  // namespace autopart
