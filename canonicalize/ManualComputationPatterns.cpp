// Shardy's canonicalization patterns for sdy.manual_computation:
//
// Operands whose block argument the body never reads are dropped, with their
// in_shardings entry:
//   sdy.manual_computation(%a, %b) in_shardings=[<A>, <B>] ... (%x, %y) { sdy.return %y }
//   -> sdy.manual_computation(%b) in_shardings=[<B>] ... (%y) { sdy.return %y }
//
// A computation whose manual axes all have size 1 splits nothing, so its body
// is inlined in place (arguments become the operands, results the returned
// values); one with no operands, no results and an empty body is erased:
//   %0 = sdy.manual_computation(%arg0) ... manual_axes={"b"} (%x) {    ("b"=1)
//     %1 = stablehlo.abs %x
//     sdy.return %1
//   }
//   -> %0 = stablehlo.abs %arg0
#include "canonicalize/Canonicalize.h"

namespace autopart::canonicalize {

namespace {

std::vector<TensorSharding> shardingList(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return {};
  return m.attrs.get(a).shardings;
}

BlockId bodyBlock(const Module &m, OpId op) {
  if (m.numRegions(op) != 1) return kNone;
  const Region &r = m.regions[m.region(op, 0)];
  return r.blocks.size() == 1 ? r.blocks[0] : kNone;
}

bool dropUnusedInputs(Rewriter &rw, OpId op) {
  Module &m = rw.m;
  BlockId body = bodyBlock(m, op);
  if (body == kNone) return false;
  const std::vector<ValueId> &args = m.blocks[body].args;
  std::vector<TensorSharding> in = shardingList(m, op, "in_shardings");
  if (args.size() != m.numOperands(op) || in.size() != args.size()) return false;
  std::vector<bool> drop(args.size());
  bool any = false;
  for (size_t i = 0; i < args.size(); ++i) any |= drop[i] = rw.unused(args[i]);
  if (!any) return false;
  std::vector<ValueId> operands;
  std::vector<TensorSharding> kept;
  for (size_t i = 0; i < args.size(); ++i)
    if (!drop[i]) {
      operands.push_back(m.operand(op, uint32_t(i)));
      kept.push_back(in[i]);
    }
  rw.eraseBlockArgs(body, drop);
  rw.setOperands(op, operands);
  rw.setAttr(op, "in_shardings", m.attrs.shardingPerValue(std::move(kept)));
  return true;
}

// The number of devices one instance of the body runs on: the product of the
// manual axes' sizes, 0 when unknown.
int64_t manualSplit(Rewriter &rw, OpId op, const std::vector<TensorSharding> &in,
                    const std::vector<TensorSharding> &out) {
  const Module &m = rw.m;
  AttrId axes = m.attr(op, "manual_axes");
  if (axes == kNoAttr) return 0;
  if (in.empty() && out.empty()) return 1;
  const Mesh *mesh = rw.mesh(in.empty() ? out.front() : in.front());
  if (!mesh) return 0;
  int64_t product = 1;
  for (AttrId name : m.attrs.get(axes).elems) {
    int i = mesh->axisIndex(m.attrs.stringValue(name));
    if (i < 0) return 0;
    product *= mesh->axes[size_t(i)].size;
  }
  return product;
}

bool removeRedundantComputation(Rewriter &rw, OpId op) {
  Module &m = rw.m;
  BlockId body = bodyBlock(m, op);
  if (body == kNone || m.blocks[body].ops.empty()) return false;
  std::vector<TensorSharding> in = shardingList(m, op, "in_shardings");
  std::vector<TensorSharding> out = shardingList(m, op, "out_shardings");
  OpId ret = m.blocks[body].ops.back();
  if (!m.isa(ret, "sdy.return")) return false;
  if (in.empty() && out.empty() && m.numResults(op) == 0 && m.blocks[body].ops.size() == 1) {
    rw.eraseOp(op);
    return true;
  }
  if (manualSplit(rw, op, in, out) != 1) return false;
  if (m.blocks[body].args.size() != m.numOperands(op) || m.numOperands(ret) != m.numResults(op)) return false;

  std::vector<ValueId> args = m.blocks[body].args;
  for (size_t i = 0; i < args.size(); ++i) rw.replaceAllUsesWith(args[i], m.operand(op, uint32_t(i)));
  std::vector<OpId> ops = m.blocks[body].ops;
  ops.pop_back();
  for (OpId inner : ops) rw.moveBefore(inner, op);
  std::vector<ValueId> returned(m.operands(ret).begin(), m.operands(ret).end());
  rw.replaceOp(op, returned);
  return true;
}

PatternRegistration unusedInputs("sdy.manual_computation", "manual-computation-unused-inputs", dropUnusedInputs);
PatternRegistration redundant("sdy.manual_computation", "redundant-manual-computation",
                              removeRedundantComputation);

}  // namespace

}  // namespace autopart::canonicalize
