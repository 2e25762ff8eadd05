#include "import/FuncBodies.h"

#include "ir/Clone.h"

namespace autopart {

RegionId cloneBodyRegion(Module &m, OpId func, std::string_view terminator) {
  // Cloning the whole function copies its region with fresh values; the
  // copied op itself is left detached and unreachable.
  OpId copy = cloneOp(m, func, [](ValueId v) { return v; });
  RegionId region = m.region(copy, 0);
  NameId name = m.names.get(terminator);
  for (BlockId b : m.regions[region].blocks) {
    if (m.blocks[b].ops.empty()) continue;
    OpId last = m.blocks[b].ops.back();
    if (m.isa(last, "func.return")) m.ops[last].name = name;
  }
  return region;
}

}  // namespace autopart
