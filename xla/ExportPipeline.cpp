#include "xla/ExportPipeline.h"

#include <algorithm>
#include <map>

#include "export/ExportShardings.h"
#include "export/GspmdSharding.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"
#include "xla/ManualAllReduce.h"

namespace autopart {

namespace {

class OpRewriter {
public:
  OpRewriter(Module &m, const XlaExportOptions &opts, Diagnostics &diags) : m_(m), opts_(opts), diags_(diags) {
    if (m.top == kNone) return;
    for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
      for (OpId op : m.blocks[b].ops) {
        AttrId name = m.attr(op, "sym_name"), mesh = m.attr(op, "mesh");
        if (m.isa(op, "sdy.mesh") && name != kNoAttr && mesh != kNoAttr && m.attrs.kind(mesh) == AttrKind::Mesh)
          meshes_[std::string(m.attrs.stringValue(name))] = *m.attrs.get(mesh).mesh;
      }
  }

  bool beforeStrings();
  bool afterStrings();

private:
  // `op` replaced by a new op `name` with the given operands and attributes
  // (same result types); returns the new op.
  OpId replace(OpId op, std::string_view name, const std::vector<ValueId> &operands, std::vector<NamedAttr> attrs);
  void forward(OpId op) {
    m_.replaceAllUsesWith(m_.result(op), m_.operand(op, 0), m_.enclosingFunc(op));
    m_.eraseOp(op);
  }
  const Mesh *meshOf(const TensorSharding &s) const {
    if (s.inlineMesh) return &*s.inlineMesh;
    auto it = meshes_.find(s.meshName);
    return it == meshes_.end() ? nullptr : &it->second;
  }
  // The mesh of the manual computation `op` runs in (around it, or around
  // a call of its function); "" outside any.
  std::string manualMesh(OpId op) const {
    OpId p = m_.parentOp(op);
    for (; p != kNone && !m_.isa(p, "func.func"); p = m_.parentOp(p)) {
      if (!m_.isa(p, "sdy.manual_computation")) continue;
      AttrId in = m_.attr(p, "in_shardings");
      if (in == kNoAttr || m_.attrs.get(in).shardings.empty()) in = m_.attr(p, "out_shardings");
      if (in == kNoAttr || m_.attrs.get(in).shardings.empty()) return "";
      return m_.attrs.get(in).shardings[0].meshName;
    }
    auto it = p == kNone ? manualFuncMesh_.end() : manualFuncMesh_.find(p);
    return it == manualFuncMesh_.end() ? "" : it->second;
  }
  std::vector<std::string> manualAxes(OpId mc) const {
    std::vector<std::string> out;
    AttrId list = m_.attr(mc, "manual_axes");
    if (list != kNoAttr)
      for (AttrId a : m_.attrs.get(list).elems) out.emplace_back(m_.attrs.stringValue(a));
    return out;
  }
  std::vector<std::string> manualAxesAround(OpId op) const {
    std::vector<std::string> out;
    for (OpId p = m_.parentOp(op); p != kNone && !m_.isa(p, "func.func"); p = m_.parentOp(p))
      if (m_.isa(p, "sdy.manual_computation"))
        for (std::string &a : manualAxes(p)) out.push_back(std::move(a));
    return out;
  }
  // The GSPMD string of `s` in the manual context `manual`, or "" after an
  // error at `at`.
  std::string gspmd(const TensorSharding &s, const std::vector<std::string> &manual, OpId at);
  AttrId stringAttr(const std::string &g) { return m_.attrs.string(escapeGspmd(g)); }
  bool outline(OpId mc);
  bool isHostCallback(OpId op) const {
    AttrId t = m_.attr(op, "call_target_name");
    if (t == kNoAttr) return false;
    std::string_view target = m_.attrs.stringValue(t);
    return target.find("python") != std::string_view::npos && target.ends_with("callback");
  }
  void tupleCallbackResult(OpId op);
  bool moduleShardings();
  void moveIntoCustomCallAttributes(OpId op);

  Module &m_;
  XlaExportOptions opts_;
  Diagnostics &diags_;
  std::map<std::string, Mesh> meshes_;
  std::vector<OpId> manualComputations_;
  std::map<OpId, std::string> manualFuncMesh_;
  int bodies_ = 0;
};

OpId OpRewriter::replace(OpId op, std::string_view name, const std::vector<ValueId> &operands,
                         std::vector<NamedAttr> attrs) {
  std::vector<TypeId> types;
  for (uint32_t i = 0; i < m_.numResults(op); ++i) types.push_back(m_.type(m_.result(op, i)));
  OpId n = m_.createOp(name, operands, types, attrs);
  m_.ops[n].loc = m_.ops[op].loc;
  m_.ops[n].srcOffset = m_.ops[op].srcOffset;
  m_.insertOp(m_.ops[op].parent, n, op);
  for (uint32_t i = 0; i < m_.numResults(op); ++i)
    m_.replaceAllUsesWith(m_.result(op, i), m_.result(n, i), m_.enclosingFunc(op));
  m_.eraseOp(op);
  return n;
}

std::string OpRewriter::gspmd(const TensorSharding &s, const std::vector<std::string> &manual, OpId at) {
  const Mesh *mesh = meshOf(s);
  if (!mesh) {
    diags_.error(m_, at, "sharding refers to unknown mesh @" + s.meshName);
    return "";
  }
  std::string why;
  GspmdOptions g;
  g.v3 = opts_.v3;
  g.manualAxes = manual;
  std::string out = gspmdSharding(s, *mesh, &why, g);
  if (out.empty()) diags_.error(m_, at, s.str() + " has no GSPMD form: " + why);
  return out;
}

// Shardy-only ops become what the partitioner reads; ops in manual
// computations, and in functions called from one, without a sharding get
// the replicated one (the manual axes are added when written); while loops
// without one are replicated.
bool OpRewriter::beforeStrings() {
  std::vector<OpId> ops, calls;
  for (OpId func : m_.functions())
    m_.walk(func, [&](OpId op) {
      ops.push_back(op);
      if (m_.isa(op, "func.call")) calls.push_back(op);
    });
  // A function called inside a manual computation (or from such a
  // function) runs in its manual context, as the body does.
  for (bool changed = true; changed;) {
    changed = false;
    for (OpId call : calls) {
      OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
      if (callee == kNone || manualFuncMesh_.count(callee)) continue;
      std::string mesh = manualMesh(call);
      if (mesh.empty()) continue;
      manualFuncMesh_[callee] = std::move(mesh);
      changed = true;
    }
  }
  for (OpId op : ops) {
    if (m_.ops[op].parent == kNone) continue;
    std::string_view name = m_.opName(op);
    if (name == "sdy.constant") {
      std::vector<NamedAttr> attrs(m_.attributes(op).begin(), m_.attributes(op).end());
      replace(op, "stablehlo.constant", {}, attrs);
    } else if (name == "sdy.propagation_barrier" || name == "sdy.sharding_group") {
      if (m_.numResults(op)) forward(op);
      else m_.eraseOp(op);
    } else if (name == "sdy.all_reduce") {
      // Reducing axes that are not unreduced is a no-op for the
      // partitioner; reducing unreduced ones is the manual all-reduce XLA
      // writes (xla/ManualAllReduce.h), outlined like any manual computation.
      const TensorSharding *in = valueSharding(m_, m_.operand(op, 0));
      AttrId out = m_.attr(op, "out_sharding");
      if (!in || in->unreduced.empty() || out == kNoAttr) {
        forward(op);
        continue;
      }
      const Mesh *mesh = meshOf(*in);
      if (!mesh) {
        diags_.error(m_, op, "sharding refers to unknown mesh @" + in->meshName);
        return false;
      }
      OpId mc = buildManualAllReduce(m_, op, *in, *mesh, diags_);
      if (mc == kNone) return false;
      manualComputations_.push_back(mc);
    } else if (name == "sdy.sharding_constraint") {
      AttrId s = m_.attr(op, "sharding");
      std::vector<NamedAttr> attrs = {{m_.names.get("call_target_name"), m_.attrs.string("Sharding")}};
      if (s != kNoAttr && m_.attrs.kind(s) == AttrKind::Sharding) {
        const TensorSharding &t = *m_.attrs.get(s).sharding;
        // Open dimensions stay open to the partitioner's propagation.
        std::string open;
        for (size_t d = 0; d < t.dims.size(); ++d)
          if (!t.dims[d].closed) open += (open.empty() ? "" : ",") + std::to_string(d);
        if (!open.empty())
          attrs.push_back({m_.names.get("backend_config"), m_.attrs.string("unspecified_dims=[" + open + "]")});
        attrs.push_back({m_.names.get("sdy.sharding"), m_.attrs.shardingPerValue({t})});
      }
      replace(op, "stablehlo.custom_call", {m_.operand(op, 0)}, attrs);
    } else if (name == "sdy.manual_computation") {
      manualComputations_.push_back(op);
    } else if (m_.numResults(op) && !m_.hasAttr(op, "sdy.sharding") && !manualMesh(op).empty()) {
      std::string mesh = manualMesh(op);
      std::vector<TensorSharding> per;
      for (uint32_t i = 0; i < m_.numResults(op); ++i) {
        TypeId t = m_.type(m_.result(op, i));
        per.push_back(TensorSharding::closed(mesh, m_.types.isTensor(t) ? size_t(m_.types.rank(t)) : 0));
      }
      m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue(std::move(per)));
    } else if (name == "stablehlo.custom_call" && isHostCallback(op)) {
      tupleCallbackResult(op);
    } else if (name == "stablehlo.while" && !m_.hasAttr(op, "sdy.sharding")) {
      TensorSharding replicated;
      replicated.inlineMesh = Mesh{};
      m_.setAttr(op, "sdy.sharding", m_.attrs.sharding(replicated));
    }
  }
  return true;
}

// A host callback's single result is returned in a tuple, as XLA's
// partitioner expects of callbacks; the sharding moves to the element.
//
//   %r = stablehlo.custom_call @xla_python_cpu_callback(%c, %x) {sdy.sharding = S} : (...) -> tensor<2xf64>
//   ->
//   %t = stablehlo.custom_call @xla_python_cpu_callback(%c, %x) : (...) -> tuple<tensor<2xf64>>
//   %r = stablehlo.get_tuple_element %t[0] {sdy.sharding = S} : (tuple<tensor<2xf64>>) -> tensor<2xf64>
void OpRewriter::tupleCallbackResult(OpId op) {
  if (m_.numResults(op) != 1 || !m_.types.isTensor(m_.type(m_.result(op)))) return;
  TypeId element = m_.type(m_.result(op));
  std::vector<NamedAttr> attrs;
  AttrId sharding = kNoAttr;
  for (const NamedAttr &a : m_.attributes(op)) {
    if (m_.names.str(a.name) == "sdy.sharding") sharding = a.value;
    else attrs.push_back(a);
  }
  std::vector<ValueId> operands(m_.operands(op).begin(), m_.operands(op).end());
  OpId call = m_.createOp("stablehlo.custom_call", operands, {m_.types.tuple({element})}, attrs);
  m_.ops[call].loc = m_.ops[op].loc;
  m_.ops[call].srcOffset = m_.ops[op].srcOffset;
  m_.insertOp(m_.ops[op].parent, call, op);
  std::vector<NamedAttr> getAttrs = {{m_.names.get("index"), m_.attrs.integer(0, m_.types.scalar("i32"))}};
  if (sharding != kNoAttr) getAttrs.push_back({m_.names.get("sdy.sharding"), sharding});
  OpId get = m_.createOp("stablehlo.get_tuple_element", {m_.result(call)}, {element}, getAttrs);
  m_.insertOp(m_.ops[op].parent, get, op);
  m_.replaceAllUsesWith(m_.result(op), m_.result(get), m_.enclosingFunc(op));
  m_.eraseOp(op);
}

// A manual computation as XLA's partitioner reads one: each operand copied
// into its in-sharding and cut to its local shape, the body a function
// called on the local pieces, each result grown back to the full shape.
//
//   %r = sdy.manual_computation(%x) in_shardings=[<@m, [{"a"}]>] out_shardings=[<@m, [{"a"}]>]
//          manual_axes={"a"} (%l: tensor<2xf32>) { ... sdy.return %y }
//   ->
//   %0 = mhlo.copy %x {mhlo.sharding = "{devices=[4]<=[4]}"}
//   %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"}
//   %2 = call @xla.sdy.inlinable_manual_computation_body(%1) {mhlo.sharding = "{manual}"}
//   %3 = mhlo.copy %2 {mhlo.sharding = "{manual}"}
//   %r = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[4]<=[4]}"}
bool OpRewriter::outline(OpId mc) {
  std::vector<std::string> outer = manualAxesAround(mc), inner = outer;
  for (std::string &a : manualAxes(mc)) inner.push_back(std::move(a));
  AttrId inAttr = m_.attr(mc, "in_shardings"), outAttr = m_.attr(mc, "out_shardings");
  std::vector<TensorSharding> ins = inAttr == kNoAttr ? std::vector<TensorSharding>{} : m_.attrs.get(inAttr).shardings;
  std::vector<TensorSharding> outs = outAttr == kNoAttr ? std::vector<TensorSharding>{} : m_.attrs.get(outAttr).shardings;
  if (ins.size() != m_.numOperands(mc) || outs.size() != m_.numResults(mc)) {
    diags_.error(m_, mc, "manual computation without one sharding per operand and result");
    return false;
  }
  // The local form of a sharding: without the manual axes (a value
  // unreduced over a manual axis is, inside, each device's partial value).
  std::vector<std::string> own = manualAxes(mc);
  auto local = [&](TensorSharding s) {
    auto isManual = [&](const AxisRef &a) { return std::find(own.begin(), own.end(), a.name) != own.end(); };
    for (DimSharding &d : s.dims) std::erase_if(d.axes, isManual);
    std::erase_if(s.replicated, isManual);
    std::erase_if(s.unreduced, isManual);
    return s;
  };
  NameId shardingKey = m_.names.get("mhlo.sharding");
  RegionId body = m_.region(mc, 0);
  BlockId entry = m_.regions[body].blocks[0];
  BlockId at = m_.ops[mc].parent;
  OpId func = m_.enclosingFunc(mc);

  std::vector<ValueId> localArgs;
  std::vector<AttrId> argDicts, resDicts;
  for (uint32_t i = 0; i < m_.numOperands(mc); ++i) {
    std::string full = gspmd(ins[i], outer, mc), part = gspmd(local(ins[i]), inner, mc);
    if (full.empty() || part.empty()) return false;
    ValueId x = m_.operand(mc, i);
    OpId copy = m_.createOp("mhlo.copy", {x}, {m_.type(x)}, {{shardingKey, stringAttr(full)}});
    m_.insertOp(at, copy, mc);
    TypeId localType = m_.type(m_.blocks[entry].args[i]);
    OpId cut = m_.createOp("stablehlo.custom_call", {m_.result(copy)}, {localType},
                           {{m_.names.get("call_target_name"), m_.attrs.string("SPMDFullToShardShape")},
                            {shardingKey, stringAttr(part)}});
    m_.insertOp(at, cut, mc);
    localArgs.push_back(m_.result(cut));
    argDicts.push_back(m_.attrs.dict({{shardingKey, stringAttr(part)}}));
  }
  std::vector<std::string> localOut;
  std::vector<TypeId> localTypes;
  OpId ret = m_.blocks[entry].ops.empty() ? kNone : m_.blocks[entry].ops.back();
  if (ret == kNone || !m_.isa(ret, "sdy.return") || m_.numOperands(ret) != m_.numResults(mc)) {
    diags_.error(m_, mc, "manual computation body does not end in sdy.return of its results");
    return false;
  }
  for (uint32_t j = 0; j < m_.numResults(mc); ++j) {
    localOut.push_back(gspmd(local(outs[j]), inner, mc));
    if (localOut.back().empty()) return false;
    localTypes.push_back(m_.type(m_.operand(ret, j)));
    resDicts.push_back(m_.attrs.dict({{shardingKey, stringAttr(localOut.back())}}));
  }
  // The body becomes a private function next to the enclosing one.
  std::string name = "xla.sdy.inlinable_manual_computation_body";
  if (bodies_ > 0) name += "_" + std::to_string(bodies_ - 1);
  while (m_.lookupSymbol(name) != kNone) name += "_";
  ++bodies_;
  std::vector<TypeId> argTypes;
  for (ValueId a : m_.blocks[entry].args) argTypes.push_back(m_.type(a));
  OpId fn = m_.createOp("func.func", {}, {},
                        {{m_.names.get("sym_name"), m_.attrs.string(name)},
                         {m_.names.get("sym_visibility"), m_.attrs.string("private")},
                         {m_.names.get("function_type"), m_.attrs.typeAttr(m_.types.function(argTypes, localTypes))},
                         {m_.names.get("arg_attrs"), m_.attrs.array(argDicts)},
                         {m_.names.get("res_attrs"), m_.attrs.array(resDicts)}});
  m_.attachRegions(fn, {body});
  std::vector<ValueId> retVals(m_.operands(ret).begin(), m_.operands(ret).end());
  OpId fret = m_.createOp("func.return", retVals, {});
  m_.insertOp(entry, fret, ret);
  m_.eraseOp(ret);
  BlockId top = m_.regions[m_.region(m_.top, 0)].blocks[0];
  m_.insertOp(top, fn);

  std::string tuple = localOut.size() == 1 ? localOut[0] : gspmdTuple(localOut);
  OpId call = m_.createOp("func.call", localArgs, localTypes,
                          {{m_.names.get("callee"), m_.attrs.symbolRef("@" + name)}, {shardingKey, stringAttr(tuple)}});
  m_.insertOp(at, call, mc);
  for (uint32_t j = 0; j < m_.numResults(mc); ++j) {
    std::string full = gspmd(outs[j], outer, mc);
    if (full.empty()) return false;
    OpId copy = m_.createOp("mhlo.copy", {m_.result(call, j)}, {localTypes[j]}, {{shardingKey, stringAttr(localOut[j])}});
    m_.insertOp(at, copy, mc);
    OpId grow = m_.createOp("stablehlo.custom_call", {m_.result(copy)}, {m_.type(m_.result(mc, j))},
                            {{m_.names.get("call_target_name"), m_.attrs.string("SPMDShardToFullShape")},
                             {shardingKey, stringAttr(full)}});
    m_.insertOp(at, grow, mc);
    m_.replaceAllUsesWith(m_.result(mc, j), m_.result(grow), func);
  }
  m_.eraseOp(mc);
  return true;
}

// XLA keeps the sharding of its own `@mhlo.*` custom calls (erf, topk, ...)
// in their `mhlo.attributes` dictionary.
void OpRewriter::moveIntoCustomCallAttributes(OpId op) {
  AttrId target = m_.attr(op, "call_target_name"), s = m_.attr(op, "mhlo.sharding");
  if (target == kNoAttr || s == kNoAttr || !m_.attrs.stringValue(target).starts_with("mhlo.")) return;
  std::vector<std::pair<NameId, AttrId>> entries;
  if (AttrId d = m_.attr(op, "mhlo.attributes"); d != kNoAttr && m_.attrs.kind(d) == AttrKind::Dict) {
    const AttrStorage &st = m_.attrs.get(d);
    for (size_t i = 0; i < st.keys.size(); ++i) entries.push_back({st.keys[i], st.elems[i]});
  }
  entries.push_back({m_.names.get("mhlo.sharding"), s});
  std::sort(entries.begin(), entries.end(),
            [&](const auto &a, const auto &b) { return m_.names.str(a.first) < m_.names.str(b.first); });
  m_.setAttr(op, "mhlo.attributes", m_.attrs.dict(std::move(entries)));
  m_.removeAttr(op, "mhlo.sharding");
}

// The entry computation's shardings XLA keeps on the module
// (`sdy.parameters_shardings` / `sdy.output_shardings`, inline meshes) as
// `mhlo.spmd_parameters_shardings` (one string each) and
// `mhlo.spmd_output_sharding` (a tuple when there are several).
bool OpRewriter::moduleShardings() {
  for (int output = 0; output < 2; ++output) {
    std::string_view from = output ? "sdy.output_shardings" : "sdy.parameters_shardings";
    AttrId a = m_.attr(m_.top, from);
    if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::ShardingPerValue) continue;
    std::vector<TensorSharding> list = m_.attrs.get(a).shardings;
    std::vector<std::string> strings;
    for (const TensorSharding &t : list) {
      strings.push_back(gspmd(t, {}, m_.top));
      if (strings.back().empty()) return false;
    }
    if (output) {
      std::string g = strings.size() == 1 ? strings[0] : gspmdTuple(strings);
      m_.setAttr(m_.top, "mhlo.spmd_output_sharding", stringAttr(g));
    } else {
      std::vector<AttrId> elems;
      for (const std::string &g : strings) elems.push_back(stringAttr(g));
      m_.setAttr(m_.top, "mhlo.spmd_parameters_shardings", m_.attrs.array(elems));
    }
    m_.removeAttr(m_.top, from);
  }
  return true;
}

bool OpRewriter::afterStrings() {
  if (!moduleShardings()) return false;
  // Innermost first, so that an outer body is outlined with its nested
  // computations already cut.
  for (size_t k = manualComputations_.size(); k-- > 0;)
    if (!outline(manualComputations_[k])) return false;
  std::vector<OpId> ops;
  for (OpId func : m_.functions()) m_.walk(func, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops)
    if (m_.ops[op].parent != kNone && m_.isa(op, "stablehlo.custom_call")) moveIntoCustomCallAttributes(op);
  return true;
}

bool runExportPipeline(Module &m, const PassOptions &opts, Diagnostics &diags) {
  XlaExportOptions o;
  o.v3 = opts.getBool("enable-hlo-sharding-v3", false);
  return exportToXla(m, o, diags);
}

PassRegistration reg("xla-sdy-stablehlo-export-pipeline",
                     "Shardy to GSPMD: mhlo.sharding strings, reshards as mhlo.copy, manual computations as "
                     "SPMDFullToShardShape / SPMDShardToFullShape around a call",
                     runExportPipeline,
                     {{"enable-hlo-sharding-v3", "bool", "write HloShardingV3 (mesh and axis) strings (default false)"}});

}  // namespace

bool exportToXla(Module &m, const XlaExportOptions &opts, Diagnostics &diags) {
  OpRewriter rewriter(m, opts, diags);
  if (!rewriter.beforeStrings()) return false;
  ExportOptions e;
  e.keepSdy = false;
  e.v3 = opts.v3;
  if (!exportGspmdShardings(m, e, diags)) return false;
  return rewriter.afterStrings();
}

}  // namespace autopart
