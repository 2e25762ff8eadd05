#include "import/ImportFuncCalls.h"

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "import/FuncBodies.h"
#include "import/ReplaceUses.h"
#include "ir/MeshLookup.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

// The callee's argument shardings, when any is on a non-maximal mesh; the
// other arguments get open shardings on that mesh.
AttrId inShardingsOf(Module &m, OpId func) {
  FuncView view{m, func};
  const TensorSharding *reference = nullptr;
  size_t n = view.args().size();
  for (size_t i = 0; i < n && !reference; ++i) {
    AttrId a = view.argAttr(i, "sdy.sharding");
    if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) continue;
    const TensorSharding &s = *m.attrs.get(a).sharding;
    const Mesh *mesh = shardingMesh(m, s);
    if (mesh && !mesh->isMaximal()) reference = &s;
  }
  if (!reference) return kNoAttr;
  TensorSharding ref = *reference;
  std::vector<TensorSharding> all;
  for (size_t i = 0; i < n; ++i) {
    AttrId a = view.argAttr(i, "sdy.sharding");
    if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding) {
      all.push_back(*m.attrs.get(a).sharding);
      continue;
    }
    TypeId t = m.type(view.args()[i]);
    TensorSharding open = TensorSharding::open(ref.meshName, m.types.isTensor(t) ? size_t(m.types.rank(t)) : 0);
    open.inlineMesh = ref.inlineMesh;
    all.push_back(std::move(open));
  }
  return m.attrs.shardingPerValue(std::move(all));
}

class Importer {
public:
  Importer(Module &m, Diagnostics &diags) : m_(m), diags_(diags) {}

  bool run(bool addEdges) {
    std::set<OpId> callees;
    for (OpId func : m_.functions())
      m_.walk(func, [&](OpId op) {
        if (m_.isa(op, "func.call"))
          if (OpId callee = m_.lookupFunc(m_.attr(op, "callee")); callee != kNone) callees.insert(callee);
      });
    for (OpId func : m_.functions())
      if (!callees.count(func) && !importIn(func)) return false;
    for (OpId callee : imported_) m_.eraseOp(callee);
    applyReplacements({});
    if (addEdges) {
      std::unordered_set<OpId> edges;
      for (OpId nc : created_) addEdges_(nc, edges);
      applyReplacements(edges);
    }
    return true;
  }

private:
  Module &m_;
  Diagnostics &diags_;
  std::vector<OpId> created_;
  std::vector<OpId> imported_;  // callees, in first-call order
  std::vector<OpId> active_;    // callees being imported (cycle check)
  // Uses to redirect, per function, applied in one walk each.
  std::unordered_map<OpId, std::unordered_map<ValueId, ValueId>> replace_;

  void applyReplacements(const std::unordered_set<OpId> &keep) {
    for (const auto &[func, map] : replace_) replaceUses(m_, func, map, keep);
    replace_.clear();
  }

  bool importIn(OpId root) {
    std::vector<OpId> calls;
    m_.walk(root, [&](OpId op) {
      if (m_.isa(op, "func.call")) calls.push_back(op);
    });
    for (OpId call : calls)
      if (!importCall(call)) return false;
    return true;
  }

  bool importCall(OpId call) {
    OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
    if (callee == kNone || m_.numRegions(callee) == 0 || m_.regions[m_.region(callee, 0)].blocks.empty()) {
      diags_.error(m_, call, "'func.call' op callee is not a function with a body");
      return false;
    }
    if (std::find(active_.begin(), active_.end(), callee) != active_.end()) {
      diags_.error(m_, call, "recursive call to @" + std::string(FuncView{m_, callee}.name()) + " cannot be imported");
      return false;
    }
    if (std::find(imported_.begin(), imported_.end(), callee) == imported_.end()) {
      imported_.push_back(callee);
    } else {
      // Shardy warns once per process; so do we.
      static bool warned = false;
      if (!warned) {
        warned = true;
        diags_.warning(m_, call, "function @" + std::string(FuncView{m_, callee}.name()) +
                                     " has multiple call ops, we need to clone the function body for each call");
      }
    }
    std::vector<NamedAttr> attrs;
    for (const NamedAttr &a : m_.attributes(call)) {
      std::string_view key = m_.names.str(a.name);
      if (key != "callee" && key != "sdy.sharding" && key != "arg_attrs" && key != "res_attrs") attrs.push_back(a);
    }
    AttrId original = m_.attr(callee, "sdy.original_func_name");
    std::string name = original != kNoAttr && m_.attrs.kind(original) == AttrKind::String
                           ? std::string(m_.attrs.stringValue(original))
                           : std::string(FuncView{m_, callee}.name());
    attrs.push_back({m_.names.get("name"), m_.attrs.string(name)});
    if (AttrId in = inShardingsOf(m_, callee); in != kNoAttr) attrs.push_back({m_.names.get("in_shardings"), in});
    if (AttrId out = m_.attr(call, "sdy.sharding"); out != kNoAttr && m_.attrs.kind(out) == AttrKind::ShardingPerValue)
      attrs.push_back({m_.names.get("out_shardings"), out});
    std::vector<TypeId> types;
    for (uint32_t r = 0; r < m_.numResults(call); ++r) types.push_back(m_.type(m_.result(call, r)));
    std::vector<ValueId> operands(m_.operands(call).begin(), m_.operands(call).end());
    OpId nc = m_.createOp("sdy.named_computation", operands, types, attrs);
    m_.ops[nc].srcOffset = m_.ops[call].srcOffset;
    m_.ops[nc].loc = m_.ops[call].loc;
    m_.attachRegions(nc, {cloneBodyRegion(m_, callee, "sdy.return")});
    BlockId block = m_.ops[call].parent;
    m_.insertOp(block, nc, call);
    std::unordered_map<ValueId, ValueId> &replace = replace_[m_.enclosingFunc(call)];
    for (uint32_t r = 0; r < m_.numResults(call); ++r) replace[m_.result(call, r)] = m_.result(nc, r);
    m_.eraseOp(call);
    created_.push_back(nc);
    active_.push_back(callee);
    bool ok = importIn(nc);
    active_.pop_back();
    return ok;
  }

  static const TensorSharding *entry(const Module &m, OpId op, std::string_view attr, size_t i) {
    AttrId a = m.attr(op, attr);
    if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
    const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
    return i < all.size() ? &all[i] : nullptr;
  }

  OpId makeEdge(ValueId owner, const TensorSharding *s, OpId near) {
    std::vector<NamedAttr> attrs;
    if (s) attrs.push_back({m_.names.get("sharding"), m_.attrs.sharding(*s)});
    OpId e = m_.createOp("sdy.data_flow_edge", {owner}, {m_.type(owner)}, attrs);
    m_.ops[e].srcOffset = m_.ops[near].srcOffset;
    return e;
  }

  void addEdges_(OpId nc, std::unordered_set<OpId> &edges) {
    std::unordered_map<ValueId, ValueId> &replace = replace_[m_.enclosingFunc(nc)];
    BlockId body = m_.regions[m_.region(nc, 0)].blocks.front();
    std::vector<ValueId> args = m_.blocks[body].args;
    OpId first = m_.blocks[body].ops.empty() ? kNone : m_.blocks[body].ops.front();
    for (size_t i = 0; i < args.size(); ++i) {
      OpId e = makeEdge(args[i], entry(m_, nc, "in_shardings", i), nc);
      m_.insertOp(body, e, first);
      replace[args[i]] = m_.result(e);
      edges.insert(e);
    }
    BlockId block = m_.ops[nc].parent;
    const std::vector<OpId> &ops = m_.blocks[block].ops;
    OpId next = kNone;
    for (size_t k = 0; k + 1 < ops.size(); ++k)
      if (ops[k] == nc) next = ops[k + 1];
    for (uint32_t r = 0; r < m_.numResults(nc); ++r) {
      OpId e = makeEdge(m_.result(nc, r), entry(m_, nc, "out_shardings", r), nc);
      m_.insertOp(block, e, next);
      replace[m_.result(nc, r)] = m_.result(e);
      edges.insert(e);
    }
  }
};

PassRegistration reg("sdy-import-func-calls",
                     "Inline every func.call into an sdy.named_computation named after its callee",
                     [](Module &m, const PassOptions &opts, Diagnostics &diags) {
                       return Importer(m, diags).run(opts.getBool("add-data-flow-edges-on-named-computations", true));
                     },
                     {{"add-data-flow-edges-on-named-computations", "bool",
                       "data-flow edges on the computations' arguments and results (default true)"}});

}  // namespace

bool importFuncCalls(Module &m, bool addDataFlowEdges, Diagnostics &diags) {
  return Importer(m, diags).run(addDataFlowEdges);
}

}  // namespace autopart
