#include "import/EdgeLookup.h"

#include "rules/OpInfo.h"

namespace autopart {

OpId dataFlowEdgeOf(const Module &m, const canonicalize::Rewriter &rw, ValueId v) {
  OpId def = m.definingOp(v);
  if (def != kNone && m.isa(def, "sdy.data_flow_edge")) return def;
  ValueId owner = v;
  if (m.values[v].isBlockArg) {
    BlockId b = m.values[v].owner;
    OpId parent = m.regions[m.blocks[b].parent].parent;
    if (parent == kNone) return kNone;
    if (m.isa(parent, "stablehlo.while")) owner = m.result(parent, m.values[v].index);
    else if (!m.isa(parent, "sdy.manual_computation") && !m.isa(parent, "sdy.named_computation")) return kNone;
  } else {
    DataFlow flow = opInfo(m, def).dataFlow;
    if (flow == DataFlow::None || flow == DataFlow::Call) return kNone;
  }
  for (OpId user : rw.users(owner))
    if (m.isa(user, "sdy.data_flow_edge")) return user;
  return kNone;
}

}  // namespace autopart
