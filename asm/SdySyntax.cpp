// Custom forms of Shardy's `sdy` dialect ops:
//
//   sdy.mesh @mesh = <["a"=2, "b"=4]>
//   %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
//   %2 = sdy.all_gather [{}, {"b"}] %1 out_sharding=<@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
//   %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"a"}, {}]>]
//          out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"}
//          (%arg1: tensor<4x8xf32>) { ... sdy.return %arg1 : tensor<4x8xf32> }
//          : (tensor<8x8xf32>) -> tensor<8x8xf32>
//   %5 = sdy.func_data_flow_edge %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
//          : tensor<8x8xf32>                                   (%4 a func.call result)
#include "asm/OpSyntax.h"

namespace autopart {

namespace {

bool parseShardingAttr(Parser &p, OpState &st, std::string_view name) {
  TensorSharding s;
  if (!p.parseSharding(s)) return false;
  p.addAttr(st, name, p.m.attrs.sharding(std::move(s)));
  return true;
}

void printShardingBody(AsmPrinter &p, AttrId a) {
  const AttrStorage &s = p.m.attrs.get(a);
  if (s.kind == AttrKind::Sharding)
    p.out += s.sharding->strBody();
  else
    p.attr(a);
}

bool parseShardingList(Parser &p, OpState &st, std::string_view name) {
  std::vector<TensorSharding> list;
  if (!p.expect('[')) return false;
  if (!p.consumeIf(']')) {
    do {
      TensorSharding s;
      if (!p.parseSharding(s)) return false;
      list.push_back(std::move(s));
    } while (p.consumeIf(','));
    if (!p.expect(']')) return false;
  }
  p.addAttr(st, name, p.m.attrs.shardingPerValue(std::move(list)));
  return true;
}

void printShardingList(AsmPrinter &p, AttrId a) {
  const AttrStorage &s = p.m.attrs.get(a);
  p.out += '[';
  for (size_t i = 0; i < s.shardings.size(); ++i) {
    if (i) p.out += ", ";
    p.out += s.shardings[i].strBody();
  }
  p.out += ']';
}

// A single trailing type standing for operand and result.
bool parseTrailingType(Parser &p, OpState &st) {
  if (!p.parseOpAttrDict(st)) return false;
  TypeId t;
  if (!p.expect(':') || !p.parseType(t)) return false;
  st.resultTypes.push_back(t);
  return true;
}

// --- sdy.mesh ---------------------------------------------------------------------------

bool parseMeshOp(Parser &p, OpState &st) {
  // `@mesh`, `@0mesh` or `@"mesh name"`.
  std::string_view name;
  if (!p.parseSymbolName(name)) return false;
  if (name.empty()) return p.fail("expected mesh name");
  p.addAttr(st, "sym_name", p.m.attrs.string(name));
  if (!p.expect('=')) return false;
  Mesh mesh;
  p.consumeStr("#sdy.mesh");
  if (!p.parseMesh(mesh)) {
    // The mesh is read by the op's own parser, which names the op.
    p.prefixErrors("custom op 'sdy.mesh' ");
    return false;
  }
  p.addAttr(st, "mesh", p.m.attrs.mesh(std::move(mesh)));
  return p.parseOpAttrDict(st);
}

void printMeshOp(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.symbolName(p.m.attrs.stringValue(p.m.attr(op, "sym_name")));
  p.out += " = ";
  p.out += p.m.attrs.get(p.m.attr(op, "mesh")).mesh->str();
  p.attrDict(op, {"sym_name", "mesh"});
}

// --- sharding_constraint / reshard ------------------------------------------------------

bool parseConstraintLike(Parser &p, OpState &st) {
  ValueId v;
  if (!p.parseValueUse(v)) return false;
  st.operands.push_back(v);
  if (!parseShardingAttr(p, st, "sharding")) return false;
  return parseTrailingType(p, st);
}

void printConstraintLike(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += ' ';
  printShardingBody(p, p.m.attr(op, "sharding"));
  p.attrDict(op, {"sharding"});
  p.out += " : ";
  p.type(p.m.type(p.m.result(op)));
}

// The keyword of an sdy enum attribute kept as opaque text:
// `#sdy<propagation_direction BOTH>` -> "BOTH".
std::string enumKeyword(const std::string &text) {
  size_t sp = text.rfind(' ');
  return text.substr(sp + 1, text.size() - sp - 2);
}

// --- sharding_group -----------------------------------------------------------------------

bool parseShardingGroup(Parser &p, OpState &st) {
  ValueId v;
  if (!p.parseValueUse(v)) return false;
  st.operands.push_back(v);
  int64_t id;
  if (!p.expectKeyword("group_id") || !p.expect('=') || !p.parseInt(id)) return false;
  p.addAttr(st, "group_id", p.m.attrs.integer(id, p.m.types.scalar("i64")));
  if (p.consumeKeyword("type")) {
    if (!p.expect('=')) return false;
    std::string_view t = p.parseBareId();
    p.addAttr(st, "group_type", p.m.attrs.opaque("#sdy<sharding_group_type " + std::string(t) + ">"));
  }
  if (!p.parseOpAttrDict(st)) return false;
  TypeId t;
  return p.expect(':') && p.parseType(t);
}

void printShardingGroup(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += " group_id=" + std::to_string(p.m.attrs.get(p.m.attr(op, "group_id")).intValue);
  if (AttrId t = p.m.attr(op, "group_type"); t != kNoAttr) {
    p.out += " type=" + enumKeyword(p.m.attrs.get(t).text) + " ";
  }
  p.attrDict(op, {"group_id", "group_type"});
  p.out += " : ";
  p.type(p.m.type(p.m.operand(op, 0)));
}

// --- propagation_barrier / data_flow_edge ---------------------------------------------------

bool parseBarrier(Parser &p, OpState &st) {
  ValueId v;
  if (!p.parseValueUse(v)) return false;
  st.operands.push_back(v);
  if (!p.expectKeyword("allowed_direction") || !p.expect('=')) return false;
  std::string_view dir = p.parseBareId();
  p.addAttr(st, "allowed_direction", p.m.attrs.opaque("#sdy<propagation_direction " + std::string(dir) + ">"));
  return parseTrailingType(p, st);
}

void printBarrier(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.out += " allowed_direction=" + enumKeyword(p.m.attrs.get(p.m.attr(op, "allowed_direction")).text);
  p.attrDict(op, {"allowed_direction"});
  p.out += " : ";
  p.type(p.m.type(p.m.result(op)));
}

bool parseDataFlowEdge(Parser &p, OpState &st) {
  ValueId v;
  if (!p.parseValueUse(v)) return false;
  st.operands.push_back(v);
  if (p.consumeKeyword("sharding")) {
    if (!p.expect('=') || !parseShardingAttr(p, st, "sharding")) return false;
  }
  return parseTrailingType(p, st);
}

void printDataFlowEdge(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  if (AttrId s = p.m.attr(op, "sharding"); s != kNoAttr) {
    p.out += " sharding=";
    printShardingBody(p, s);
  }
  p.attrDict(op, {"sharding"});
  p.out += " : ";
  p.type(p.m.type(p.m.result(op)));
}

// `%1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[...]>} : t`:
// unlike `sdy.data_flow_edge` its sharding is an ordinary `sdy.sharding`
// attribute, as on any op with one result.
bool parseFuncDataFlowEdge(Parser &p, OpState &st) {
  ValueId v;
  if (!p.parseValueUse(v)) return false;
  st.operands.push_back(v);
  return parseTrailingType(p, st);
}

void printFuncDataFlowEdge(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  p.attrDict(op, {});
  p.out += " : ";
  p.type(p.m.type(p.m.result(op)));
}

// --- constant ------------------------------------------------------------------------------

bool parseSdyConstant(Parser &p, OpState &st) {
  if (!p.parseOpAttrDict(st)) return false;
  AttrId value;
  if (!p.parseAttr(value)) return false;
  TypeId t = p.m.attrs.get(value).type;
  if (t == kNoType) return p.fail("expected typed constant value");
  p.addAttr(st, "value", value);
  st.resultTypes.push_back(t);
  return true;
}

void printSdyConstant(AsmPrinter &p, OpId op) {
  p.attrDict(op, {"value"});
  p.out += ' ';
  p.attr(p.m.attr(op, "value"));
}

// --- collectives: `sdy.all_gather [{}, {"x"}] %x out_sharding=<...> : t` ---------------------

template <const char *kListAttr>
bool parseCollective(Parser &p, OpState &st) {
  p.skipWs();
  if (kListAttr[0] && p.peek() != '%') {
    // The axes list is kept as written: `[{}, {"x"}]`, `max {"y"}`,
    // `[{"x"}: 0->1]`.
    const char *s = p.pos();
    p.parseBareId();
    p.skipWs();
    char open = p.peek();
    if (open != '[' && open != '{') return p.fail("expected axes list");
    p.setPos(p.pos() + 1);
    std::string_view inner;
    if (!p.skipBalanced(open, inner)) return false;
    p.addAttr(st, kListAttr, p.m.attrs.opaque(std::string_view(s, size_t(p.pos() - s))));
  }
  ValueId v;
  if (!p.parseValueUse(v)) return false;
  st.operands.push_back(v);
  if (!p.expectKeyword("out_sharding") || !p.expect('=') || !parseShardingAttr(p, st, "out_sharding"))
    return false;
  return parseTrailingType(p, st);
}

template <const char *kListAttr>
void printCollective(AsmPrinter &p, OpId op) {
  if (kListAttr[0]) {
    if (AttrId a = p.m.attr(op, kListAttr); a != kNoAttr) {
      p.out += ' ';
      p.attr(a);
    }
  }
  p.out += ' ';
  p.operands(op);
  p.out += " out_sharding=";
  printShardingBody(p, p.m.attr(op, "out_sharding"));
  p.attrDict(op, {kListAttr, "out_sharding"});
  p.out += " : ";
  p.type(p.m.type(p.m.result(op)));
}

constexpr char kGatheringAxes[] = "gathering_axes";
constexpr char kSlicingAxes[] = "slicing_axes";
constexpr char kReductionAxes[] = "reduction_axes";
constexpr char kReduceScatterAxes[] = "reduce_scatter_axes";
constexpr char kParams[] = "params";
constexpr char kAxes[] = "axes";
constexpr char kNoList[] = "";

// --- manual_computation / named_computation -----------------------------------------------------

bool parseBlockArgs(Parser &p, std::vector<OpState::Arg> &args) {
  if (!p.expect('(')) return false;
  if (p.consumeIf(')')) return true;
  do {
    OpState::Arg a;
    if (!p.parseValueDefName(a.name) || !p.expect(':') || !p.parseType(a.type)) return false;
    if (!p.parseOptionalLoc(a.loc)) return false;
    args.push_back(a);
  } while (p.consumeIf(','));
  return p.expect(')');
}

bool parseManualComputation(Parser &p, OpState &st) {
  if (!p.expect('(')) return false;
  if (!p.consumeIf(')')) {
    if (!p.parseValueUseList(st.operands) || !p.expect(')')) return false;
  }
  if (!p.expectKeyword("in_shardings") || !p.expect('=') || !parseShardingList(p, st, "in_shardings"))
    return false;
  if (!p.expectKeyword("out_shardings") || !p.expect('=') || !parseShardingList(p, st, "out_shardings"))
    return false;
  if (!p.expectKeyword("manual_axes") || !p.expect('=')) return false;
  std::vector<AxisRef> axes;
  if (!p.parseAxisList(axes)) return false;
  std::vector<AttrId> names;
  for (const AxisRef &a : axes) names.push_back(p.m.attrs.string(a.name));
  p.addAttr(st, "manual_axes", p.m.attrs.array(names));
  std::vector<OpState::Arg> args;
  if (!parseBlockArgs(p, args)) return false;
  RegionId r;
  if (!p.parseRegion(r, args)) return false;
  st.regions.push_back(r);
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printRegionWithArgs(AsmPrinter &p, OpId op) {
  const Region &r = p.m.regions[p.m.region(op, 0)];
  p.out += ' ';
  if (!r.blocks.empty())
    p.blockArgList(r.blocks[0]);
  else
    p.out += "()";
  p.out += ' ';
  p.region(p.m.region(op, 0), false);
}

void printManualComputation(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += '(';
  p.operands(op);
  p.out += ") in_shardings=";
  printShardingList(p, m.attr(op, "in_shardings"));
  p.out += " out_shardings=";
  printShardingList(p, m.attr(op, "out_shardings"));
  p.out += " manual_axes={";
  const AttrStorage &axes = m.attrs.get(m.attr(op, "manual_axes"));
  for (size_t i = 0; i < axes.elems.size(); ++i) {
    if (i) p.out += ", ";
    p.attr(axes.elems[i]);
  }
  p.out += '}';
  printRegionWithArgs(p, op);
  p.attrDict(op, {"in_shardings", "out_shardings", "manual_axes"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseNamedComputation(Parser &p, OpState &st) {
  std::string_view name;
  if (!p.expect('<') || !p.parseStringLiteral(name) || !p.expect('>')) return false;
  p.addAttr(st, "name", p.m.attrs.string(name));
  if (!p.expect('(')) return false;
  if (!p.consumeIf(')')) {
    if (!p.parseValueUseList(st.operands) || !p.expect(')')) return false;
  }
  if (p.consumeKeyword("in_shardings")) {
    if (!p.expect('=') || !parseShardingList(p, st, "in_shardings")) return false;
  }
  if (p.consumeKeyword("out_shardings")) {
    if (!p.expect('=') || !parseShardingList(p, st, "out_shardings")) return false;
  }
  std::vector<OpState::Arg> args;
  if (!parseBlockArgs(p, args)) return false;
  RegionId r;
  if (!p.parseRegion(r, args)) return false;
  st.regions.push_back(r);
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printNamedComputation(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += "<";
  p.attr(m.attr(op, "name"));
  p.out += ">(";
  p.operands(op);
  p.out += ')';
  if (AttrId a = m.attr(op, "in_shardings"); a != kNoAttr) {
    p.out += " in_shardings=";
    printShardingList(p, a);
  }
  if (AttrId a = m.attr(op, "out_shardings"); a != kNoAttr) {
    p.out += " out_shardings=";
    printShardingList(p, a);
  }
  printRegionWithArgs(p, op);
  p.attrDict(op, {"name", "in_shardings", "out_shardings"});
  p.out += " : ";
  p.functionalType(op);
}

const OpSyntaxEntry kEntries[] = {
    {"sdy.mesh", {parseMeshOp, printMeshOp}},
    {"sdy.sharding_constraint", {parseConstraintLike, printConstraintLike}},
    {"sdy.reshard", {parseConstraintLike, printConstraintLike}},
    {"sdy.sharding_group", {parseShardingGroup, printShardingGroup}},
    {"sdy.propagation_barrier", {parseBarrier, printBarrier}},
    {"sdy.data_flow_edge", {parseDataFlowEdge, printDataFlowEdge}},
    {"sdy.func_data_flow_edge", {parseFuncDataFlowEdge, printFuncDataFlowEdge}},
    {"sdy.constant", {parseSdyConstant, printSdyConstant}},
    {"sdy.all_gather", {parseCollective<kGatheringAxes>, printCollective<kGatheringAxes>}},
    {"sdy.all_slice", {parseCollective<kSlicingAxes>, printCollective<kSlicingAxes>}},
    {"sdy.all_reduce", {parseCollective<kReductionAxes>, printCollective<kReductionAxes>}},
    {"sdy.reduce_scatter", {parseCollective<kReduceScatterAxes>, printCollective<kReduceScatterAxes>}},
    {"sdy.all_to_all", {parseCollective<kParams>, printCollective<kParams>}},
    {"sdy.sharded_to_unreduced", {parseCollective<kAxes>, printCollective<kAxes>}},
    {"sdy.replicated_to_unreduced", {parseCollective<kAxes>, printCollective<kAxes>}},
    {"sdy.collective_permute", {parseCollective<kNoList>, printCollective<kNoList>}},
    {"sdy.manual_computation", {parseManualComputation, printManualComputation}},
    {"sdy.named_computation", {parseNamedComputation, printNamedComputation}},
    {"sdy.return", {parseTerminator, printTerminator}},
};

}  // namespace

std::span<const OpSyntaxEntry> sdySyntaxTable() { return kEntries; }

}  // namespace autopart
