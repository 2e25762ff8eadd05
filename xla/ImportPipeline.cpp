#include "xla/ImportPipeline.h"

#include <algorithm>
#include <map>
#include <set>

#include "asm/Parser.h"
#include "ir/Clone.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"
#include "xla/ImportShardings.h"

namespace autopart {

namespace {

bool isCustomCall(const Module &m, OpId op, std::string_view target);

// `@Sharding`, or the `mhlo.copy` XLA's export writes in its place around a
// manual computation.
bool isShardingMarker(const Module &m, OpId op) {
  bool copy = op != kNone && m.isa(op, "mhlo.copy");
  return copy || isCustomCall(m, op, "Sharding");
}

bool isCustomCall(const Module &m, OpId op, std::string_view target) {
  if (op == kNone || !m.isa(op, "stablehlo.custom_call")) return false;
  AttrId t = m.attr(op, "call_target_name");
  return t != kNoAttr && m.attrs.stringValue(t) == target;
}

class Importer {
public:
  Importer(Module &m, Diagnostics &diags) : m_(m), diags_(diags) {}
  bool run();

private:
  std::vector<OpId> allOps() const {
    std::vector<OpId> ops;
    for (OpId func : m_.functions()) m_.walk(func, [&](OpId op) {
        if (op != func) ops.push_back(op);
      });
    return ops;
  }
  // Users of `v` in its function.
  std::vector<OpId> users(ValueId v, OpId func) const {
    std::vector<OpId> out;
    m_.walk(func, [&](OpId op) {
      for (ValueId o : m_.operands(op))
        if (o == v) {
          out.push_back(op);
          break;
        }
    });
    return out;
  }
  const TensorSharding *opSharding(OpId op) const { return resultSharding(m_, op, 0); }
  OpId replace(OpId op, std::string_view name, const std::vector<ValueId> &operands,
               const std::vector<TypeId> &types, const std::vector<NamedAttr> &attrs);
  bool shardMaps();
  bool shardMap(OpId call);
  void constraints();
  void shardingGroups();
  void tupleCustomCalls();
  void constants();
  void whileFreeVariables();
  bool frontendAttributes();
  // The attribute `text` (`#sdy.sharding<...>`, `#sdy.mesh<...>`) read by
  // the parser in a scratch module, copied into this one; kNoAttr when it
  // does not parse.
  AttrId parseAttr(const std::string &text, OpId at);
  // Removes `key` from the op's (or function entry's) frontend attributes.
  AttrId withoutKey(AttrId dict, std::string_view key);

  Module &m_;
  Diagnostics &diags_;
  // The manual sharding text of each SPMDFullToShardShape, read before the
  // import turns it into a (replicated-looking) Shardy sharding.
  std::map<OpId, HloSharding> manualOf_;
};

OpId Importer::replace(OpId op, std::string_view name, const std::vector<ValueId> &operands,
                       const std::vector<TypeId> &types, const std::vector<NamedAttr> &attrs) {
  OpId n = m_.createOp(name, operands, types, attrs);
  m_.ops[n].loc = m_.ops[op].loc;
  m_.ops[n].srcOffset = m_.ops[op].srcOffset;
  m_.insertOp(m_.ops[op].parent, n, op);
  if (types.size() == m_.numResults(op))
    for (uint32_t i = 0; i < m_.numResults(op); ++i)
      m_.replaceAllUsesWith(m_.result(op, i), m_.result(n, i), m_.enclosingFunc(op));
  m_.eraseOp(op);
  return n;
}

bool Importer::shardMaps() {
  std::vector<OpId> calls;
  for (OpId op : allOps())
    if (m_.isa(op, "func.call") && m_.numOperands(op) > 0) {
      bool all = true;
      for (ValueId v : m_.operands(op)) all &= isCustomCall(m_, m_.definingOp(v), "SPMDFullToShardShape");
      if (all) calls.push_back(op);
    }
  for (OpId call : calls)
    if (!shardMap(call)) return false;
  return true;
}

bool Importer::shardMap(OpId call) {
  OpId func = m_.enclosingFunc(call);
  OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
  if (callee == kNone) return true;
  std::vector<ValueId> operands;
  std::vector<TensorSharding> ins, outs;
  std::vector<OpId> dead;
  std::vector<AxisRef> manual;
  std::string meshName;
  for (ValueId v : m_.operands(call)) {
    OpId cut = m_.definingOp(v);
    ValueId full = m_.operand(cut, 0);
    OpId constraint = m_.definingOp(full);
    const TensorSharding *s = nullptr;
    if (isShardingMarker(m_, constraint) && users(full, func).size() == 1) {
      s = opSharding(constraint);
      dead.push_back(constraint);
      full = m_.operand(constraint, 0);
    } else {
      s = valueSharding(m_, full);
    }
    if (!s) {
      diags_.error(m_, cut, "SPMDFullToShardShape of a value without a sharding");
      return false;
    }
    ins.push_back(*s);
    operands.push_back(full);
    dead.push_back(cut);
    meshName = s->meshName;
    auto it = manualOf_.find(cut);
    if (it != manualOf_.end() && manual.empty()) {
      OpId meshOp = m_.lookupSymbol(meshName);
      if (meshOp == kNone) continue;
      std::string why;
      const HloSharding &h = it->second;
      size_t rank = h.kind == HloSharding::Kind::Tiled ? h.numDataDims()
                    : h.kind == HloSharding::Kind::Named && !h.wholeValue ? h.named.dims.size()
                                                                          : 0;
      shardyFromHlo(h, rank,
                    *m_.attrs.get(m_.attr(meshOp, "mesh")).mesh, meshName, &why, &manual);
    }
  }
  std::vector<OpId> grows;
  for (uint32_t j = 0; j < m_.numResults(call); ++j) {
    std::vector<OpId> u = users(m_.result(call, j), func);
    if (u.size() != 1) return true;  // not shard_map's pattern
    OpId next = u[0];
    if (isShardingMarker(m_, next)) {
      std::vector<OpId> u2 = users(m_.result(next), func);
      if (u2.size() != 1) return true;
      dead.push_back(next);
      next = u2[0];
    }
    if (!isCustomCall(m_, next, "SPMDShardToFullShape") || !opSharding(next)) return true;
    grows.push_back(next);
    outs.push_back(*opSharding(next));
  }
  if (manual.empty()) {
    diags_.error(m_, call, "shard_map body called on SPMDFullToShardShape values without manual axes");
    return false;
  }
  std::vector<TypeId> types;
  for (OpId g : grows) types.push_back(m_.type(m_.result(g)));
  std::vector<AttrId> names;
  for (const AxisRef &a : manual) names.push_back(m_.attrs.string(a.name));
  OpId mc = m_.createOp("sdy.manual_computation", operands, types,
                        {{m_.names.get("in_shardings"), m_.attrs.shardingPerValue(ins)},
                         {m_.names.get("out_shardings"), m_.attrs.shardingPerValue(outs)},
                         {m_.names.get("manual_axes"), m_.attrs.array(names)}});
  m_.ops[mc].loc = m_.ops[call].loc;
  m_.ops[mc].srcOffset = m_.ops[call].srcOffset;
  // The body: a copy of the callee's (the callee may have other callers).
  OpId copy = cloneOp(m_, callee, [](ValueId v) { return v; });
  RegionId body = m_.region(copy, 0);
  m_.attachRegions(mc, {body});
  BlockId entry = m_.regions[body].blocks[0];
  for (OpId op : std::vector<OpId>(m_.blocks[entry].ops))
    if (m_.isa(op, "func.return")) {
      std::vector<ValueId> vals(m_.operands(op).begin(), m_.operands(op).end());
      OpId ret = m_.createOp("sdy.return", vals, {});
      m_.insertOp(entry, ret, op);
      m_.eraseOp(op);
    }
  m_.insertOp(m_.ops[call].parent, mc, call);
  for (size_t j = 0; j < grows.size(); ++j) m_.replaceAllUsesWith(m_.result(grows[j]), m_.result(mc, uint32_t(j)), func);
  for (OpId g : grows) m_.eraseOp(g);
  m_.eraseOp(call);
  // Reverse program order: users go before what they use.
  for (size_t k = dead.size(); k-- > 0;) m_.eraseOp(dead[k]);
  // The callee goes when nothing calls it any more.
  std::string calleeName(m_.attrs.stringValue(m_.attr(callee, "sym_name")));
  bool called = false;
  for (OpId op : allOps())
    if (m_.isa(op, "func.call") && m_.lookupFunc(m_.attr(op, "callee")) == callee) called = true;
  if (!called) m_.eraseOp(callee);
  return true;
}

void Importer::constraints() {
  for (OpId op : allOps()) {
    if (m_.ops[op].parent == kNone || !isCustomCall(m_, op, "Sharding") || m_.numOperands(op) != 1 ||
        m_.numResults(op) != 1)
      continue;
    const TensorSharding *s = opSharding(op);
    if (!s) continue;
    TensorSharding t = *s;
    if (AttrId cfg = m_.attr(op, "backend_config"); cfg != kNoAttr && m_.attrs.kind(cfg) == AttrKind::String) {
      std::string text = unescapeString(m_.attrs.stringValue(cfg));
      size_t p = text.find("unspecified_dims=[");
      if (p != std::string::npos)
        for (size_t i = p + 18; i < text.size() && text[i] != ']';) {
          size_t end = i;
          while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
          if (end == i) break;
          size_t d = size_t(std::stoul(text.substr(i, end - i)));
          if (d < t.dims.size()) t.dims[d].closed = false;
          i = end + (end < text.size() && text[end] == ',' ? 1 : 0);
        }
    }
    replace(op, "sdy.sharding_constraint", {m_.operand(op, 0)}, {m_.type(m_.result(op))},
            {{m_.names.get("sharding"), m_.attrs.sharding(t)}});
  }
}

void Importer::shardingGroups() {
  for (OpId op : allOps()) {
    if (!isCustomCall(m_, op, "xla.sdy.ShardingGroup") || m_.numOperands(op) != 1) continue;
    AttrId fa = m_.attr(op, "mhlo.frontend_attributes");
    if (fa == kNoAttr || m_.attrs.kind(fa) != AttrKind::Dict) continue;
    AttrId id = m_.attrs.field(fa, "xla.sdy.sharding_group_id");
    if (id == kNoAttr || m_.attrs.kind(id) != AttrKind::String) continue;
    int64_t group = std::strtoll(unescapeString(m_.attrs.stringValue(id)).c_str(), nullptr, 10);
    replace(op, "sdy.sharding_group", {m_.operand(op, 0)}, {},
            {{m_.names.get("group_id"), m_.attrs.integer(group, m_.types.scalar("i64"))}});
  }
}

void Importer::tupleCustomCalls() {
  for (OpId op : allOps()) {
    if (m_.ops[op].parent == kNone || !m_.isa(op, "stablehlo.custom_call")) continue;
    bool tupled = false;
    std::vector<ValueId> operands;
    for (ValueId v : m_.operands(op)) {
      OpId def = m_.definingOp(v);
      if (def != kNone && m_.isa(def, "stablehlo.tuple")) {
        tupled = true;
        for (ValueId e : m_.operands(def)) operands.push_back(e);
      } else {
        operands.push_back(v);
      }
    }
    OpId func = m_.enclosingFunc(op);
    std::vector<TypeId> types;
    std::vector<OpId> gets;
    bool tupleResult = m_.numResults(op) == 1 && m_.types.get(m_.type(m_.result(op))).kind == TypeKind::Tuple;
    if (tupleResult) {
      gets = users(m_.result(op), func);
      for (OpId g : gets)
        if (!m_.isa(g, "stablehlo.get_tuple_element")) tupleResult = false;
    }
    if (!tupled && !tupleResult) continue;
    if (tupleResult) types = m_.types.get(m_.type(m_.result(op))).members;
    else
      for (uint32_t i = 0; i < m_.numResults(op); ++i) types.push_back(m_.type(m_.result(op, i)));
    std::vector<NamedAttr> attrs(m_.attributes(op).begin(), m_.attributes(op).end());
    OpId n = m_.createOp("stablehlo.custom_call", operands, types, attrs);
    m_.ops[n].loc = m_.ops[op].loc;
    m_.ops[n].srcOffset = m_.ops[op].srcOffset;
    m_.insertOp(m_.ops[op].parent, n, op);
    if (tupleResult) {
      for (OpId g : gets) {
        int64_t index = m_.attrs.get(m_.attr(g, "index")).intValue;
        m_.replaceAllUsesWith(m_.result(g), m_.result(n, uint32_t(index)), func);
        m_.eraseOp(g);
      }
    } else {
      for (uint32_t i = 0; i < m_.numResults(op); ++i) m_.replaceAllUsesWith(m_.result(op, i), m_.result(n, i), func);
    }
    m_.eraseOp(op);
    for (ValueId v : m_.operands(op)) {
      OpId def = m_.definingOp(v);
      if (def != kNone && m_.isa(def, "stablehlo.tuple") && users(m_.result(def), func).empty()) m_.eraseOp(def);
    }
  }
}

void Importer::constants() {
  for (OpId op : allOps())
    if (m_.ops[op].parent != kNone && m_.isa(op, "stablehlo.constant")) {
      std::vector<NamedAttr> attrs(m_.attributes(op).begin(), m_.attributes(op).end());
      replace(op, "sdy.constant", {}, {m_.type(m_.result(op))}, attrs);
    }
}

void Importer::whileFreeVariables() {
  for (OpId loop : allOps()) {
    if (m_.ops[loop].parent == kNone || !m_.isa(loop, "stablehlo.while")) continue;
    // Values used inside the loop's regions but defined outside it.
    std::set<ValueId> inside;
    std::vector<ValueId> free;
    m_.walk(loop, [&](OpId op) {
      if (op == loop) return;
      for (uint32_t i = 0; i < m_.numResults(op); ++i) inside.insert(m_.result(op, i));
      for (uint32_t r = 0; r < m_.numRegions(op); ++r)
        for (BlockId b : m_.regions[m_.region(op, r)].blocks) inside.insert(m_.blocks[b].args.begin(), m_.blocks[b].args.end());
    });
    for (uint32_t r = 0; r < m_.numRegions(loop); ++r)
      for (BlockId b : m_.regions[m_.region(loop, r)].blocks) inside.insert(m_.blocks[b].args.begin(), m_.blocks[b].args.end());
    m_.walk(loop, [&](OpId op) {
      if (op == loop) return;
      for (ValueId v : m_.operands(op))
        if (!inside.count(v) && std::find(free.begin(), free.end(), v) == free.end()) free.push_back(v);
    });
    for (ValueId v : free) {
      OpId def = m_.definingOp(v);
      if (def != kNone && (m_.isa(def, "sdy.constant") || m_.isa(def, "stablehlo.constant"))) continue;
      const TensorSharding *s = valueSharding(m_, v);
      if (!s || s->inlineMesh) continue;
      TensorSharding open = TensorSharding::open(s->meshName, s->rank());
      OpId c = m_.createOp("sdy.sharding_constraint", {v}, {m_.type(v)},
                           {{m_.names.get("sharding"), m_.attrs.sharding(open)}});
      m_.insertOp(m_.ops[loop].parent, c, loop);
      // Uses inside the loop only (a walk does not visit the loop itself).
      m_.replaceAllUsesWith(v, m_.result(c), loop);
    }
  }
}

AttrId Importer::parseAttr(const std::string &text, OpId at) {
  ParseError err;
  std::unique_ptr<Module> scratch = parseModule("func.func @scratch() attributes {x = " + text + "} {\n  return\n}\n",
                                                "frontend attribute", &err);
  AttrId a = scratch ? scratch->attr(scratch->functions()[0], "x") : kNoAttr;
  if (a == kNoAttr) {
    diags_.error(m_, at, "Shardy frontend attribute does not parse: " + text);
    return kNoAttr;
  }
  const AttrStorage &st = scratch->attrs.get(a);
  if (st.kind == AttrKind::Sharding) return m_.attrs.sharding(*st.sharding);
  if (st.kind == AttrKind::ShardingPerValue) return m_.attrs.shardingPerValue(st.shardings);
  if (st.kind == AttrKind::Mesh) return m_.attrs.mesh(*st.mesh);
  diags_.error(m_, at, "Shardy frontend attribute is no sharding or mesh: " + text);
  return kNoAttr;
}

AttrId Importer::withoutKey(AttrId dict, std::string_view key) {
  const AttrStorage &st = m_.attrs.get(dict);
  std::vector<std::pair<NameId, AttrId>> kept;
  for (size_t i = 0; i < st.keys.size(); ++i)
    if (m_.names.str(st.keys[i]) != key) kept.push_back({st.keys[i], st.elems[i]});
  return kept.empty() ? kNoAttr : m_.attrs.dict(std::move(kept));
}

// Shardy's own attributes carried as strings in `mhlo.frontend_attributes`
// (XLA's round-trip form): `xla.sdy.meshes` on the module, and
// `xla.sdy.sharding` on arguments, results and ops.
bool Importer::frontendAttributes() {
  auto stringField = [&](AttrId dict, std::string_view key) -> std::optional<std::string> {
    if (dict == kNoAttr || m_.attrs.kind(dict) != AttrKind::Dict) return std::nullopt;
    AttrId v = m_.attrs.field(dict, key);
    if (v == kNoAttr || m_.attrs.kind(v) != AttrKind::String) return std::nullopt;
    return unescapeString(m_.attrs.stringValue(v));
  };
  AttrId moduleAttrs = m_.attr(m_.top, "mhlo.frontend_attributes");
  if (std::optional<std::string> meshes = stringField(moduleAttrs, "xla.sdy.meshes")) {
    // `{name = #sdy.mesh<...>, ...}`: split at the top-level commas.
    std::string body = *meshes;
    if (body.size() >= 2 && body.front() == '{') body = body.substr(1, body.size() - 2);
    std::vector<std::string> entries;
    int depth = 0;
    std::string cur;
    for (char c : body) {
      if (c == '<' || c == '[' || c == '{') ++depth;
      if (c == '>' || c == ']' || c == '}') --depth;
      if (c == ',' && depth == 0) {
        entries.push_back(cur);
        cur.clear();
        continue;
      }
      cur += c;
    }
    if (!cur.empty()) entries.push_back(cur);
    BlockId top = m_.regions[m_.region(m_.top, 0)].blocks[0];
    OpId first = m_.blocks[top].ops.empty() ? kNone : m_.blocks[top].ops.front();
    for (const std::string &e : entries) {
      size_t eq = e.find('=');
      if (eq == std::string::npos) continue;
      std::string name = e.substr(0, eq);
      name.erase(std::remove(name.begin(), name.end(), ' '), name.end());
      AttrId mesh = parseAttr(e.substr(eq + 1), m_.top);
      if (mesh == kNoAttr) return false;
      OpId op = m_.createOp("sdy.mesh", {}, {}, {{m_.names.get("sym_name"), m_.attrs.string(name)}, {m_.names.get("mesh"), mesh}});
      m_.insertOp(top, op, first);
    }
    AttrId rest = withoutKey(moduleAttrs, "xla.sdy.meshes");
    if (rest == kNoAttr) m_.removeAttr(m_.top, "mhlo.frontend_attributes");
    else m_.setAttr(m_.top, "mhlo.frontend_attributes", rest);
  }
  for (OpId func : m_.functions()) {
    MutableFuncView f{m_, func};
    for (int results = 0; results < 2; ++results) {
      size_t n = results ? f.numResults() : f.args().size();
      for (size_t i = 0; i < n; ++i) {
        AttrId fa = results ? f.resultAttr(i, "mhlo.frontend_attributes") : f.argAttr(i, "mhlo.frontend_attributes");
        std::optional<std::string> text = stringField(fa, "xla.sdy.sharding");
        if (!text) continue;
        AttrId s = parseAttr(*text, func);
        if (s == kNoAttr) return false;
        AttrId rest = withoutKey(fa, "xla.sdy.sharding");
        if (results) {
          f.setResultAttr(i, "sdy.sharding", s);
          if (rest == kNoAttr) f.removeResultAttr(i, "mhlo.frontend_attributes");
          else f.setResultAttr(i, "mhlo.frontend_attributes", rest);
        } else {
          f.setArgAttr(i, "sdy.sharding", s);
          if (rest == kNoAttr) f.removeArgAttr(i, "mhlo.frontend_attributes");
          else f.setArgAttr(i, "mhlo.frontend_attributes", rest);
        }
      }
    }
  }
  for (OpId op : allOps()) {
    AttrId fa = m_.attr(op, "mhlo.frontend_attributes");
    std::optional<std::string> text = stringField(fa, "xla.sdy.sharding");
    if (!text) continue;
    AttrId s = parseAttr(*text, op);
    if (s == kNoAttr) return false;
    m_.setAttr(op, "sdy.sharding", s);
    AttrId rest = withoutKey(fa, "xla.sdy.sharding");
    if (rest == kNoAttr) m_.removeAttr(op, "mhlo.frontend_attributes");
    else m_.setAttr(op, "mhlo.frontend_attributes", rest);
  }
  return true;
}

bool Importer::run() {
  if (m_.top == kNone) return true;
  for (OpId op : allOps())
    if (isCustomCall(m_, op, "SPMDFullToShardShape"))
      if (AttrId s = m_.attr(op, "mhlo.sharding"); s != kNoAttr && m_.attrs.kind(s) == AttrKind::String) {
        std::string why;
        size_t at;
        std::optional<HloSharding> h = parseHloSharding(unescapeString(m_.attrs.stringValue(s)), &why, &at);
        if (h) manualOf_[op] = std::move(*h);
      }
  XlaImportOptions opts;
  opts.axisPrefix = "axis_";
  if (!frontendAttributes() || !importXlaShardings(m_, opts, diags_) || !shardMaps()) return false;
  constraints();
  shardingGroups();
  tupleCustomCalls();
  constants();
  whileFreeVariables();
  return true;
}

bool runImportPipeline(Module &m, const PassOptions &, Diagnostics &diags) { return importFromXla(m, diags); }

PassRegistration reg("xla-sdy-stablehlo-import-pipeline",
                     "GSPMD program (mhlo.sharding, @Sharding, shard_map custom calls) to Shardy", runImportPipeline);

}  // namespace

bool importFromXla(Module &m, Diagnostics &diags) { return Importer(m, diags).run(); }

bool readXlaShardings(Module &m, Diagnostics &diags, bool *imported) {
  bool gspmd = isGspmdProgram(m);
  if (imported) *imported = gspmd;
  return gspmd ? importFromXla(m, diags) : mergeXlaShardings(m, diags);
}

bool isGspmdProgram(const Module &m) {
  if (m.top == kNone) return false;
  for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
    for (OpId op : m.blocks[b].ops)
      if (m.isa(op, "sdy.mesh")) return false;
  auto says = [&](AttrId a) {
    if (a == kNoAttr || m.attrs.kind(a) != AttrKind::String) return false;
    std::string text = unescapeString(m.attrs.stringValue(a));
    return text != "{replicated}" && text != "{unknown}";
  };
  AttrId fa = m.attr(m.top, "mhlo.frontend_attributes");
  bool found = fa != kNoAttr && m.attrs.kind(fa) == AttrKind::Dict && m.attrs.field(fa, "xla.sdy.meshes") != kNoAttr;
  for (OpId func : m.functions()) {
    FuncView f{m, func};
    for (size_t i = 0; i < f.args().size(); ++i) found |= says(f.argAttr(i, "mhlo.sharding"));
    for (size_t i = 0; i < f.numResults(); ++i) found |= says(f.resultAttr(i, "mhlo.sharding"));
    m.walk(func, [&](OpId op) {
      found |= says(m.attr(op, "mhlo.sharding")) || isCustomCall(m, op, "Sharding") ||
               isCustomCall(m, op, "SPMDFullToShardShape");
    });
  }
  return found;
}

}  // namespace autopart
