#include "verify/Verifier.h"

#include <map>
#include <vector>

#include "verify/TensorShardingVerifier.h"

namespace autopart {

namespace {

std::map<std::string, std::vector<OpVerifyFn>, std::less<>> &registry() {
  static std::map<std::string, std::vector<OpVerifyFn>, std::less<>> r;
  return r;
}

// "arg 0", "result", "result 1": how Shardy names a value of an op in its
// messages (a single result has no number).
std::string resultLabel(uint32_t i, uint32_t count) {
  return count == 1 ? "result" : "result " + std::to_string(i);
}

// `sdy.sharding` on a function argument or result must be one
// #sdy.sharding; on any other op a #sdy.sharding_per_value with one entry
// per result.
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
    if (a == kNoAttr) return;
    if (m.attrs.kind(a) != AttrKind::Sharding) {
      ctx.opError(func, label + " - should have a sharding attribute of type TensorShardingAttr");
      return;
    }
    verifyTensorSharding(ctx, *m.attrs.get(a).sharding, type,
                         [&](const std::string &msg) { ctx.opError(func, label + " - " + msg); });
  };
  for (size_t i = 0; i < argTypes.size(); ++i)
    check(f.argAttr(i, "sdy.sharding"), argTypes[i], "arg " + std::to_string(i));
  for (size_t i = 0; i < resultTypes.size(); ++i)
    check(f.resultAttr(i, "sdy.sharding"), resultTypes[i], "result " + std::to_string(i));
}

void verifyOpShardings(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  AttrId a = m.attr(op, "sdy.sharding");
  if (a == kNoAttr) return;
  if (m.attrs.kind(a) != AttrKind::ShardingPerValue) {
    ctx.opError(op, "should have a sharding attribute of type TensorShardingPerValueAttr");
    return;
  }
  const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
  uint32_t n = m.numResults(op);
  // An op without results (a side-effecting custom call) may still say
  // where it runs, with one sharding of rank 0.
  if (n == 0 && all.size() == 1 && all[0].rank() == 0) {
    if (!ctx.mesh(all[0])) ctx.opError(op, "unknown mesh: @" + all[0].meshName);
    return;
  }
  if (all.size() != n) {
    ctx.opError(op, "result shardings don't match number of values: " +
                        std::to_string(all.size()) + " shardings vs " + std::to_string(n) +
                        " values");
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    std::string label = resultLabel(i, n);
    verifyTensorSharding(ctx, all[i], m.type(m.result(op, i)),
                         [&](const std::string &msg) { ctx.opError(op, label + " - " + msg); });
  }
}

}  // namespace

const Mesh *VerifyContext::meshNamed(std::string_view name) const {
  OpId op = m.lookupSymbol(name);
  if (op == kNone || !m.isa(op, "sdy.mesh")) return nullptr;
  AttrId a = m.attr(op, "mesh");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Mesh) return nullptr;
  return m.attrs.get(a).mesh.get();
}

const Mesh *VerifyContext::mesh(const TensorSharding &s) const {
  return s.inlineMesh ? &*s.inlineMesh : meshNamed(s.meshName);
}

void VerifyContext::opError(OpId op, std::string_view msg) {
  std::string text = "'";
  text += m.opName(op);
  text += "' op ";
  text += msg;
  diags.error(m, op, std::move(text));
}

void VerifyContext::error(OpId op, std::string msg) { diags.error(m, op, std::move(msg)); }

OpVerifierRegistration::OpVerifierRegistration(std::string opName, OpVerifyFn fn) {
  registry()[std::move(opName)].push_back(fn);
}

bool verifyModule(const Module &m, Diagnostics &diags) {
  VerifyContext ctx(m, diags);
  size_t before = diags.errorCount();
  const auto &table = registry();
  auto everyOp = table.find("*");
  m.walk(m.top, [&](OpId op) {
    if (m.isa(op, "func.func")) {
      verifyFuncShardings(ctx, op);
    } else {
      verifyOpShardings(ctx, op);
    }
    if (everyOp != table.end())
      for (OpVerifyFn fn : everyOp->second) fn(ctx, op);
    if (auto it = table.find(m.opName(op)); it != table.end())
      for (OpVerifyFn fn : it->second) fn(ctx, op);
  });
  return diags.errorCount() == before;
}

}  // namespace autopart
