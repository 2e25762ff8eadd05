#include "verify/Verifier.h"

#include <algorithm>
#include <map>
#include <vector>

#include "ir/MeshLookup.h"
#include "ir/ValueSharding.h"
#include "verify/TensorShardingVerifier.h"

namespace autopart {

namespace {

using OpTable = std::map<std::string, std::vector<OpVerifyFn>, std::less<>>;
using AttrTable = std::map<std::string, std::vector<AttrVerifyFn>, std::less<>>;

OpTable &opRegistry() {
  static OpTable r;
  return r;
}

AttrTable &attrRegistry() {
  static AttrTable r;
  return r;
}

// "result", "result 1": how Shardy names a result of an op in its messages
// (a single result has no number).
std::string resultLabel(uint32_t i, uint32_t count) {
  return count == 1 ? "result -" : "result " + std::to_string(i) + " -";
}

// A function's `sdy.sharding` on an argument or result must be one
// #sdy.sharding. Stops at the first bad one, as MLIR's function verifier.
void verifyFuncShardings(VerifyContext &ctx, OpId func) {
  const Module &m = ctx.m;
  FuncView f{m, func};
  std::vector<TypeId> argTypes;
  if (BlockId entry = f.entry(); entry != kNone) {
    for (ValueId v : m.blocks[entry].args) argTypes.push_back(m.type(v));
  } else if (AttrId ft = m.attr(func, "function_type");
             ft != kNoAttr && m.attrs.kind(ft) == AttrKind::Type) {
    argTypes = m.types.get(m.attrs.get(ft).type).members;
  }
  std::vector<TypeId> resultTypes = f.resultTypes();
  auto check = [&](AttrId a, TypeId type, const std::string &label) {
    if (a == kNoAttr) return true;
    if (m.attrs.kind(a) != AttrKind::Sharding) {
      ctx.opError(func, label + " - should have a sharding attribute of type TensorShardingAttr");
      return false;
    }
    return verifyTensorSharding(
        ctx, *m.attrs.get(a).sharding, type,
        [&](const std::string &msg) { ctx.opError(func, label + " - " + msg); }, func);
  };
  for (size_t i = 0; i < argTypes.size(); ++i)
    if (!check(f.argAttr(i, "sdy.sharding"), argTypes[i], "arg " + std::to_string(i))) return;
  for (size_t i = 0; i < resultTypes.size(); ++i)
    if (!check(f.resultAttr(i, "sdy.sharding"), resultTypes[i], "result " + std::to_string(i)))
      return;
}

// `sdy.sharding` on any op but a function: a #sdy.sharding_per_value with
// one entry per result.
void verifyOpShardings(VerifyContext &ctx, OpId op, AttrId a) {
  const Module &m = ctx.m;
  if (m.isa(op, "func.func")) return;
  if (m.attrs.kind(a) != AttrKind::ShardingPerValue) {
    ctx.opError(op, "should have a sharding attribute of type TensorShardingPerValueAttr");
    return;
  }
  const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
  uint32_t n = m.numResults(op);
  // An op without results (a side-effecting custom call) may still say
  // where it runs, with one maximal or fully replicated sharding.
  if (n == 0 && all.size() == 1) {
    const Mesh *mesh = ctx.mesh(all[0]);
    if (!mesh || mesh->isMaximal() || all[0].isFullyReplicated()) {
      verifyTensorSharding(
          ctx, all[0], kNoType, [&](const std::string &msg) { ctx.opError(op, "result 0 - " + msg); },
          op);
      return;
    }
  }
  if (all.size() != n) {
    ctx.opError(op, "result shardings don't match number of values: " +
                        std::to_string(all.size()) + " shardings vs " + std::to_string(n) +
                        " values");
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    std::string label = resultLabel(i, n);
    if (!verifyTensorSharding(
            ctx, all[i], m.type(m.result(op, i)),
            [&](const std::string &msg) { ctx.opError(op, label + " " + msg); }, op))
      return;
  }
}

AttrVerifierRegistration shardingAttr("sdy.sharding", verifyOpShardings);

// Ops whose regions MLIR verifies apart from the enclosing region, after
// the ops around them.
bool isIsolatedFromAbove(const Module &m, OpId op) {
  std::string_view name = m.opName(op);
  return name == "func.func" || name == "builtin.module" || name == "sdy.manual_computation" ||
         name == "sdy.named_computation";
}

class Walker {
public:
  explicit Walker(VerifyContext &ctx) : ctx_(ctx) {}

  // Verifies `op` and the ops nested in it; false at the first failure.
  bool verify(OpId op) {
    if (!verifyOwn(op)) return false;
    const Module &m = ctx_.m;
    for (uint32_t r = 0; r < m.numRegions(op); ++r)
      for (BlockId b : m.regions[m.region(op, r)].blocks) {
        std::vector<OpId> isolated;
        for (OpId inner : m.blocks[b].ops) {
          if (m.numRegions(inner) && isIsolatedFromAbove(m, inner)) {
            isolated.push_back(inner);
          } else if (!verify(inner)) {
            return false;
          }
        }
        bool ok = true;
        for (OpId inner : isolated) ok &= verify(inner);
        if (!ok) return false;
      }
    // A function's argument and result attributes are checked with its
    // regions, after the body.
    if (m.isa(op, "func.func")) return failsNothing([&] { verifyFuncShardings(ctx_, op); });
    return true;
  }

private:
  template <typename Fn> bool failsNothing(Fn &&fn) {
    size_t before = ctx_.errorCount();
    fn();
    return ctx_.errorCount() == before;
  }

  // The op's dialect attributes, by name as MLIR's sorted dictionary, then
  // its verifiers.
  bool verifyOwn(OpId op) {
    const Module &m = ctx_.m;
    const AttrTable &attrs = attrRegistry();
    std::vector<std::pair<std::string_view, AttrId>> present;
    for (const NamedAttr &a : m.attributes(op)) {
      std::string_view name = m.names.str(a.name);
      if (attrs.find(name) != attrs.end()) present.push_back({name, a.value});
    }
    std::sort(present.begin(), present.end());
    for (const std::pair<std::string_view, AttrId> &entry : present)
      for (AttrVerifyFn fn : attrs.find(entry.first)->second)
        if (!failsNothing([&] { fn(ctx_, op, entry.second); })) return false;
    const OpTable &ops = opRegistry();
    if (auto it = ops.find("*"); it != ops.end())
      for (OpVerifyFn fn : it->second)
        if (!failsNothing([&] { fn(ctx_, op); })) return false;
    if (auto it = ops.find(m.opName(op)); it != ops.end())
      for (OpVerifyFn fn : it->second)
        if (!failsNothing([&] { fn(ctx_, op); })) return false;
    return true;
  }

  VerifyContext &ctx_;
};

}  // namespace

const Mesh *VerifyContext::meshNamed(std::string_view name) const { return autopart::meshNamed(m, name); }

const Mesh *VerifyContext::mesh(const TensorSharding &s) const { return shardingMesh(m, s); }

void VerifyContext::opError(OpId op, std::string_view msg) {
  std::string text = "'";
  text += m.opName(op);
  text += "' op ";
  text += msg;
  diags.error(m, op, std::move(text));
}

void VerifyContext::error(OpId op, std::string msg) { diags.error(m, op, std::move(msg)); }

void VerifyContext::note(OpId op, std::string msg) {
  diags.emit(Severity::Note, m, op, std::move(msg));
}

const TensorSharding *VerifyContext::sharding(ValueId v) const { return valueSharding(m, v); }

uint32_t VerifyContext::useCount(ValueId v) {
  if (uses_.empty()) {
    uses_.assign(m.values.size(), 0);
    m.walk(m.top, [&](OpId op) {
      for (ValueId u : m.operands(op))
        if (u < uses_.size()) ++uses_[u];
    });
  }
  return v < uses_.size() ? uses_[v] : 0;
}

OpVerifierRegistration::OpVerifierRegistration(std::string opName, OpVerifyFn fn) {
  opRegistry()[std::move(opName)].push_back(fn);
}

AttrVerifierRegistration::AttrVerifierRegistration(std::string attrName, AttrVerifyFn fn) {
  attrRegistry()[std::move(attrName)].push_back(fn);
}

bool verifyModule(const Module &m, Diagnostics &diags) {
  VerifyContext ctx(m, diags);
  size_t before = diags.errorCount();
  if (m.top != kNone) Walker(ctx).verify(m.top);
  return diags.errorCount() == before;
}

}  // namespace autopart
