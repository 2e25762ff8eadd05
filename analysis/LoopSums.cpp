#include "analysis/LoopSums.h"

namespace autopart {

LoopSums::LoopSums(const Module &m, OpId func) {
  m.walk(func, [&](OpId loop) {
    if (!m.isa(loop, "stablehlo.while") || m.numRegions(loop) != 2) return;
    const Region &body = m.regions[m.region(loop, 1)];
    if (body.blocks.size() != 1) return;
    BlockId bb = body.blocks[0];
    const Block &b = m.blocks[bb];
    if (b.ops.empty() || !m.isa(b.ops.back(), "stablehlo.return")) return;
    std::unordered_map<ValueId, int> reads;
    m.walk(loop, [&](OpId inner) {
      for (ValueId u : m.operands(inner)) ++reads[u];
    });
    OpId yield = b.ops.back();
    for (uint32_t j = 0; j < m.numOperands(yield) && j < b.args.size() && j < m.numResults(loop); ++j) {
      LoopSum s;
      s.loop = loop;
      s.index = j;
      s.init = m.operand(loop, j);
      s.arg = b.args[j];
      s.sum = m.operand(yield, j);
      OpId add = m.definingOp(s.sum);
      if (add == kNone || !m.isa(add, "stablehlo.add") || m.ops[add].parent != bb) continue;
      if (m.operand(add, 0) == s.arg) s.part = m.operand(add, 1);
      else if (m.operand(add, 1) == s.arg) s.part = m.operand(add, 0);
      if (s.part == kNone || s.part == s.arg) continue;
      OpId def = m.definingOp(s.part);
      if (def == kNone || m.ops[def].parent != bb) continue;
      if (reads[s.arg] != 1 || reads[s.part] != 1 || reads[s.sum] != 1) continue;
      byResult_.emplace(m.result(loop, j), s);
    }
  });
}

}  // namespace autopart
