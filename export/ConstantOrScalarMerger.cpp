// `-sdy-constant-or-scalar-merger`: undoes the copies
// `-sdy-constant-or-scalar-splitter` (import/ConstantSplitter) made once
// propagation no longer needs one per user. Within one block, constants
// (`sdy.constant`, `stablehlo.constant`) and broadcasts of a scalar that are
// identical (same op, operands, attributes including their sharding, result
// type) collapse into the first; ops in different regions are never merged,
// so a loop body keeps its own copy.
//
//   %0 = sdy.constant dense<1.0> : tensor<f32>
//   %1 = sdy.constant dense<1.0> : tensor<f32>
//   %2 = stablehlo.add %0, %1
//   -> %0 = sdy.constant dense<1.0> : tensor<f32>
//      %2 = stablehlo.add %0, %0
#include <map>
#include <string>
#include <unordered_map>

#include "ir/Pass.h"

namespace autopart {

namespace {

bool isMergeable(const Module &m, OpId op) {
  if (m.numRegions(op) || m.numResults(op) != 1) return false;
  if (m.isa(op, "sdy.constant") || m.isa(op, "stablehlo.constant")) return true;
  if (!m.isa(op, "stablehlo.broadcast_in_dim") || m.numOperands(op) != 1) return false;
  TypeId in = m.type(m.operand(op, 0));
  return m.types.isTensor(in) && m.types.rank(in) == 0;
}

// Everything that makes two mergeable ops interchangeable. Types and most
// attributes are interned (equal ids mean equal values); dense constants
// keep their text per occurrence, so they compare by spelling.
std::string mergeKey(const Module &m, OpId op) {
  std::string key = std::to_string(m.ops[op].name) + ":" + std::to_string(m.type(m.result(op, 0)));
  for (ValueId v : m.operands(op)) key += "," + std::to_string(v);
  for (const NamedAttr &a : m.attributes(op)) {
    key += ";" + std::to_string(a.name) + "=";
    if (m.attrs.kind(a.value) == AttrKind::DenseElements)
      m.attrs.print(a.value, key);
    else
      key += std::to_string(a.value);
  }
  return key;
}

bool run(Module &m, const PassOptions &, Diagnostics &) {
  if (m.top == kNone) return true;
  std::unordered_map<ValueId, ValueId> replacement;
  std::vector<OpId> erased;
  std::vector<OpId> ops;
  m.walk(m.top, [&](OpId op) { ops.push_back(op); });
  std::map<std::pair<BlockId, std::string>, ValueId> first;
  for (OpId op : ops) {
    if (!isMergeable(m, op)) continue;
    // Operands merged earlier in the block read the kept copy, so a chain
    // constant -> broadcast merges in one sweep.
    for (uint32_t i = 0; i < m.numOperands(op); ++i)
      if (auto it = replacement.find(m.operand(op, i)); it != replacement.end()) m.setOperand(op, i, it->second);
    auto [it, inserted] = first.try_emplace({m.ops[op].parent, mergeKey(m, op)}, m.result(op, 0));
    if (inserted) continue;
    replacement[m.result(op, 0)] = it->second;
    erased.push_back(op);
  }
  if (erased.empty()) return true;
  for (OpId op : ops)
    for (uint32_t i = 0; i < m.numOperands(op); ++i)
      if (auto it = replacement.find(m.operand(op, i)); it != replacement.end()) m.setOperand(op, i, it->second);
  for (OpId op : erased) m.eraseOp(op);
  return true;
}

PassRegistration reg("sdy-constant-or-scalar-merger",
                     "Merges identical constants and broadcasts of scalars within each block", run);

}  // namespace

}  // namespace autopart
