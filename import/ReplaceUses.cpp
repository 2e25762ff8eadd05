#include "import/ReplaceUses.h"

namespace autopart {

void replaceUses(Module &m, OpId scope, const std::unordered_map<ValueId, ValueId> &replace,
                 const std::unordered_set<OpId> &keep) {
  if (replace.empty() || scope == kNone) return;
  m.walk(scope, [&](OpId op) {
    if (keep.count(op)) return;
    for (uint32_t i = 0; i < m.numOperands(op); ++i)
      if (auto it = replace.find(m.operand(op, i)); it != replace.end()) m.setOperand(op, i, it->second);
  });
}

}  // namespace autopart
