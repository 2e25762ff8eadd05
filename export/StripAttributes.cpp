#include "export/StripAttributes.h"

namespace autopart {

size_t stripAttributes(Module &m, const std::vector<std::string_view> &names) {
  if (m.top == kNone) return 0;
  size_t removed = 0;
  std::vector<OpId> ops;
  m.walk(m.top, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops) {
    for (std::string_view name : names)
      if (m.hasAttr(op, name)) {
        m.removeAttr(op, name);
        ++removed;
      }
    if (!m.isa(op, "func.func")) continue;
    MutableFuncView f(m, op);
    // A declaration has no entry block: its argument dictionaries stay.
    size_t numArgs = f.args().size();
    size_t numResults = f.numResults();
    for (std::string_view name : names) {
      for (size_t i = 0; i < numArgs; ++i)
        if (f.argAttr(i, name) != kNoAttr) {
          f.removeArgAttr(i, name);
          ++removed;
        }
      for (size_t i = 0; i < numResults; ++i)
        if (f.resultAttr(i, name) != kNoAttr) {
          f.removeResultAttr(i, name);
          ++removed;
        }
    }
  }
  return removed;
}

}  // namespace autopart
