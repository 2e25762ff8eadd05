// `-sdy-export-named-computations`: every `sdy.named_computation` becomes a
// `func.call` of a new private function holding its body, named after the
// computation (`foo`, or `foo_0`, `foo_1`, ... when taken, one counter for
// the whole module as MLIR's symbol table renames) and tagged
// `sdy.original_func_name`, so `-sdy-unflatten-call-graph` can merge the
// copies that propagation sharded alike. The function's arguments take the
// computation's `in_shardings`; the call takes its `out_shardings` and its
// other attributes.
//
//   %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>]
//          out_shardings=[<@mesh, [{"x"}, {}]>] (%arg1: tensor<8x2xi32>) {
//     %1 = stablehlo.multiply %arg1, %arg1 ; sdy.return %1
//   } {random_attr = "v"}
//   ->
//   %0 = call @foo(%arg0) {random_attr = "v", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
//   func.func private @foo(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
//       -> tensor<8x2xi32> attributes {sdy.original_func_name = "foo"} {
//     %0 = stablehlo.multiply %arg0, %arg0 ; return %0
//   }
//
// Nested computations are outlined first (post-order), so a body is
// already free of them when it moves into its function. The
// `sdy.data_flow_edge`s on a computation's results and block arguments go
// (a call has none): an edge's sharding becomes the computation's out / in
// sharding first, so the call and the function carry it.
#include <set>
#include <string>
#include <unordered_map>

#include "export/FuncShardings.h"
#include "import/ReplaceUses.h"

#include "ir/Pass.h"

namespace autopart {

namespace {

void collectPostOrder(const Module &m, BlockId block, std::vector<OpId> &out) {
  for (OpId op : m.blocks[block].ops) {
    for (uint32_t r = 0; r < m.numRegions(op); ++r)
      for (BlockId inner : m.regions[m.region(op, r)].blocks) collectPostOrder(m, inner, out);
    if (m.isa(op, "sdy.named_computation")) out.push_back(op);
  }
}

class Exporter {
public:
  explicit Exporter(Module &m) : m_(m), body_(m.regions[m.region(m.top, 0)].blocks.front()) {
    for (OpId op : m_.blocks[body_].ops)
      if (AttrId a = m_.attr(op, "sym_name"); a != kNoAttr) used_.insert(std::string(m_.attrs.stringValue(a)));
  }

  void run() {
    std::vector<OpId> computations;
    for (OpId func : m_.functions())
      for (uint32_t r = 0; r < m_.numRegions(func); ++r)
        for (BlockId b : m_.regions[m_.region(func, r)].blocks) collectPostOrder(m_, b, computations);
    if (computations.empty()) return;
    sinkEdges();
    for (OpId nc : computations) outline(nc);
  }

private:
  Module &m_;
  BlockId body_;
  std::set<std::string> used_;
  uint32_t counter_ = 0;

  std::string uniqueName(const std::string &base) {
    std::string name = base;
    while (used_.count(name)) name = base + "_" + std::to_string(counter_++);
    used_.insert(name);
    return name;
  }

  // The computation owning `v` as a result or entry-block argument, or kNone.
  OpId computationOf(ValueId v) const {
    const ValueInfo &info = m_.values[v];
    OpId op = info.isBlockArg ? m_.regions[m_.blocks[info.owner].parent].parent : info.owner;
    return op != kNone && m_.isa(op, "sdy.named_computation") ? op : kNone;
  }

  // Entry `i` of the computation's `key` list set to `s` (the others fully
  // open on its mesh when the list is missing).
  void setListEntry(OpId nc, std::string_view key, size_t i, const std::vector<TypeId> &types,
                    const TensorSharding &s) {
    AttrId a = m_.attr(nc, key);
    std::vector<TensorSharding> all;
    bool complete = a != kNoAttr && m_.attrs.kind(a) == AttrKind::ShardingPerValue &&
                    m_.attrs.get(a).shardings.size() == types.size();
    if (complete)
      all = m_.attrs.get(a).shardings;
    else
      for (TypeId t : types) all.push_back(fullyOpenLike(m_, s, t));
    all[i] = s;
    m_.setAttr(nc, key, m_.attrs.shardingPerValue(std::move(all)));
  }

  void sinkEdges() {
    for (OpId func : m_.functions()) {
      std::vector<OpId> edges;
      m_.walk(func, [&](OpId op) {
        if (m_.isa(op, "sdy.data_flow_edge") && m_.numOperands(op) == 1 && computationOf(m_.operand(op, 0)) != kNone)
          edges.push_back(op);
      });
      std::unordered_map<ValueId, ValueId> replace;
      for (OpId edge : edges) {
        ValueId v = m_.operand(edge, 0);
        OpId nc = computationOf(v);
        AttrId sa = m_.attr(edge, "sharding");
        if (sa != kNoAttr && m_.attrs.kind(sa) == AttrKind::Sharding) {
          TensorSharding s = *m_.attrs.get(sa).sharding;
          const ValueInfo &info = m_.values[v];
          std::vector<TypeId> types;
          if (info.isBlockArg) {
            for (ValueId a : m_.blocks[info.owner].args) types.push_back(m_.type(a));
            setListEntry(nc, "in_shardings", info.index, types, s);
          } else {
            for (uint32_t r = 0; r < m_.numResults(nc); ++r) types.push_back(m_.type(m_.result(nc, r)));
            setListEntry(nc, "out_shardings", info.index, types, s);
          }
        }
        replace[m_.result(edge, 0)] = v;
        m_.eraseOp(edge);
      }
      replaceUses(m_, func, replace);
    }
  }

  OpId createFunc(OpId nc, const std::string &original) {
    RegionId region = m_.region(nc, 0);
    std::vector<TypeId> inputs, results;
    if (!m_.regions[region].blocks.empty())
      for (ValueId a : m_.blocks[m_.regions[region].blocks.front()].args) inputs.push_back(m_.type(a));
    for (uint32_t r = 0; r < m_.numResults(nc); ++r) results.push_back(m_.type(m_.result(nc, r)));
    std::string name = uniqueName(original);
    OpId func = m_.createOp("func.func", {}, {});
    m_.setAttr(func, "sym_name", m_.attrs.string(name));
    m_.setAttr(func, "function_type", m_.attrs.typeAttr(m_.types.function(inputs, results)));
    m_.setAttr(func, "sym_visibility", m_.attrs.string("private"));
    m_.setAttr(func, "sdy.original_func_name", m_.attrs.string(original));
    m_.ops[func].srcOffset = m_.ops[nc].srcOffset;
    m_.ops[func].loc = m_.ops[nc].loc;
    m_.attachRegions(func, {region});
    // The body's own terminators (not those of ops nested in it) return.
    NameId ret = m_.names.get("func.return");
    for (BlockId b : m_.regions[region].blocks) {
      const std::vector<OpId> &ops = m_.blocks[b].ops;
      if (!ops.empty() && m_.isa(ops.back(), "sdy.return")) m_.ops[ops.back()].name = ret;
    }
    AttrId in = m_.attr(nc, "in_shardings");
    if (in != kNoAttr && m_.attrs.kind(in) == AttrKind::ShardingPerValue) {
      std::vector<TensorSharding> shardings = m_.attrs.get(in).shardings;
      MutableFuncView view(m_, func);
      for (size_t i = 0; i < shardings.size() && i < inputs.size(); ++i)
        view.setArgAttr(i, "sdy.sharding", m_.attrs.sharding(shardings[i]));
    }
    m_.insertOp(body_, func, kNone);
    return func;
  }

  void outline(OpId nc) {
    AttrId nameAttr = m_.attr(nc, "name");
    std::string original(nameAttr != kNoAttr ? m_.attrs.stringValue(nameAttr) : "named_computation");
    OpId scope = m_.enclosingFunc(nc);
    OpId func = createFunc(nc, original);
    std::vector<ValueId> operands(m_.operands(nc).begin(), m_.operands(nc).end());
    std::vector<TypeId> results;
    for (uint32_t r = 0; r < m_.numResults(nc); ++r) results.push_back(m_.type(m_.result(nc, r)));
    OpId call = m_.createOp("func.call", operands, results);
    m_.setAttr(call, "callee", m_.attrs.symbolRef("@" + std::string(FuncView{m_, func}.name())));
    for (const NamedAttr &a : std::vector<NamedAttr>(m_.attributes(nc).begin(), m_.attributes(nc).end())) {
      std::string_view key = m_.names.str(a.name);
      if (key == "name" || key == "in_shardings" || key == "out_shardings") continue;
      m_.setAttr(call, key, a.value);
    }
    AttrId out = m_.attr(nc, "out_shardings");
    if (out != kNoAttr && m_.attrs.kind(out) == AttrKind::ShardingPerValue) m_.setAttr(call, "sdy.sharding", out);
    m_.ops[call].srcOffset = m_.ops[nc].srcOffset;
    m_.ops[call].loc = m_.ops[nc].loc;
    m_.insertOp(m_.ops[nc].parent, call, nc);
    for (uint32_t r = 0; r < m_.numResults(nc); ++r) m_.replaceAllUsesWith(m_.result(nc, r), m_.result(call, r), scope);
    m_.eraseOp(nc);
  }
};

PassRegistration reg("sdy-export-named-computations",
                     "Outlines each sdy.named_computation into a private function and a call",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       if (m.top != kNone) Exporter(m).run();
                       return true;
                     });

}  // namespace

}  // namespace autopart
