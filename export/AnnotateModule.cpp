#include "export/AnnotateModule.h"

#include "import/CallGraph.h"

namespace autopart {

void setModuleMesh(Module &m, const std::string &name, const Mesh &mesh) {
  BlockId top = m.regions[m.region(m.top, 0)].blocks[0];
  AttrId meshAttr = m.attrs.mesh(mesh);
  for (OpId op : m.blocks[top].ops) {
    if (!m.isa(op, "sdy.mesh")) continue;
    AttrId sym = m.attr(op, "sym_name");
    if (sym != kNoAttr && m.attrs.stringValue(sym) == name) {
      m.setAttr(op, "mesh", meshAttr);
      return;
    }
  }
  OpId op = m.createOp("sdy.mesh", {}, {},
                       {{m.names.get("sym_name"), m.attrs.string(name)},
                        {m.names.get("mesh"), meshAttr}});
  OpId first = m.blocks[top].ops.empty() ? kNone : m.blocks[top].ops.front();
  m.insertOp(top, op, first);
}

static TensorSharding closedCopy(const TensorSharding *s, size_t rank, const std::string &meshName) {
  TensorSharding out = s ? *s : TensorSharding::closed(meshName, rank);
  out.meshName = meshName;
  out.inlineMesh.reset();
  out.dims.resize(rank);
  for (DimSharding &d : out.dims) {
    d.closed = true;
    d.priority.reset();
  }
  return out;
}

void annotateFunction(Module &m, OpId func, const Mesh &mesh, const AnnotateOptions &opts,
                      const std::function<const TensorSharding *(size_t)> &argSharding,
                      const std::function<const TensorSharding *(size_t)> &resultSharding) {
  MutableFuncView f{m, func};
  std::vector<TypeId> argTypes;
  for (ValueId v : f.args()) argTypes.push_back(m.type(v));
  std::vector<TypeId> resultTypes = f.resultTypes();
  auto write = [&](bool isArg, size_t i, TypeId type, const TensorSharding *s) {
    if (!m.types.isTensor(type)) return;  // tokens, tuples: nothing to say
    // An unknown result sharding is left for XLA's propagation to choose;
    // writing it replicated would force a gather of every output.
    if (!isArg && !s) return;
    TensorSharding closed = closedCopy(s, size_t(m.types.rank(type)), opts.meshName);
    AttrId a = m.attrs.sharding(closed);
    if (isArg)
      f.setArgAttr(i, "sdy.sharding", a);
    else
      f.setResultAttr(i, "sdy.sharding", a);
    if (!opts.gspmd) return;
    std::string g = opts.gspmd(closed, mesh);
    if (g.empty()) return;
    AttrId ga = m.attrs.string(escapeString(g));
    if (isArg)
      f.setArgAttr(i, "mhlo.sharding", ga);
    else
      f.setResultAttr(i, "mhlo.sharding", ga);
  };
  for (size_t i = 0; i < argTypes.size(); ++i) write(true, i, argTypes[i], argSharding(i));
  for (size_t i = 0; i < resultTypes.size(); ++i) write(false, i, resultTypes[i], resultSharding(i));
}

void annotateOps(Module &m, OpId func, const std::string &meshName,
                 const std::function<const TensorSharding *(ValueId)> &sharding) {
  std::vector<OpId> ops;
  m.walk(func, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops) {
    uint32_t n = m.numResults(op);
    // An sdy op (constraint, reshard, computation) keeps its sharding in its
    // own attributes; an `sdy.sharding` beside it would be a second one.
    if (n == 0 || (m.opName(op).starts_with("sdy.") && !m.isa(op, "sdy.constant"))) continue;
    bool any = false, allTensors = true;
    for (uint32_t i = 0; i < n; ++i) {
      TypeId t = m.type(m.result(op, i));
      allTensors &= m.types.isTensor(t);
      const TensorSharding *s = sharding(m.result(op, i));
      any |= s && !s->isFullyReplicated();
    }
    if (!any || !allTensors) continue;
    writeOpShardings(m, op, meshName, sharding);
  }
}

void writeOpShardings(Module &m, OpId op, const std::string &meshName,
                      const std::function<const TensorSharding *(ValueId)> &sharding) {
  std::vector<TensorSharding> list;
  for (uint32_t i = 0; i < m.numResults(op); ++i) {
    ValueId v = m.result(op, i);
    list.push_back(closedCopy(sharding(v), size_t(m.types.rank(m.type(v))), meshName));
  }
  m.setAttr(op, "sdy.sharding", m.attrs.shardingPerValue(std::move(list)));
}

void annotatePlan(Module &m, OpId func, const Mesh &mesh, const AnnotateOptions &opts,
                  const std::function<const TensorSharding *(ValueId)> &sharding) {
  setModuleMesh(m, opts.meshName, mesh);
  // A value the plan leaves unsharded is replicated by decision (a carried
  // parameter returned as it came in): every result gets its sharding.
  const TensorSharding replicated = TensorSharding::closed(opts.meshName, 0);
  // The functions `func` calls are part of the plan: XLA turns each call
  // into a copy of its callee and propagates into it, so a callee left
  // unannotated would be sharded by XLA, not as the plan priced it.
  for (OpId f : reachableFunctions(m, func)) {
    FuncView view{m, f};
    std::vector<const TensorSharding *> results(view.numResults(), nullptr);
    if (OpId ret = view.returnOp(); ret != kNone)
      for (uint32_t i = 0; i < m.numOperands(ret) && i < results.size(); ++i) {
        const TensorSharding *s = sharding(m.operand(ret, i));
        results[i] = s ? s : &replicated;
      }
    annotateOps(m, f, opts.meshName, sharding);
    annotateFunction(
        m, f, mesh, opts, [&](size_t i) { return sharding(view.args()[i]); }, [&](size_t i) { return results[i]; });
  }
}

}  // namespace autopart
