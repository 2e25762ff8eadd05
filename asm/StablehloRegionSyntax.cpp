// Custom forms of the StableHLO ops that run other computations: by symbol
// (custom_call, composite) or by region (while, reduce).
//
//   stablehlo.custom_call @Sharding(%x) {backend_config = ""} : (t) -> t
//   stablehlo.composite "my.op" %x {decomposition = @impl} : (t) -> t
//   stablehlo.while(%iterArg = %c) : t cond { ... } do { ... }
//   stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : ...
#include <cctype>

#include "asm/OpSyntax.h"
#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {

namespace {

// --- custom_call / composite --------------------------------------------------------------

bool parseCustomCall(Parser &p, OpState &st) {
  std::string_view target;
  if (!p.parseSymbolName(target)) return false;
  p.addAttr(st, "call_target_name", p.m.attrs.string(target));
  if (!p.expect('(')) return false;
  if (!p.consumeIf(')')) {
    if (!p.parseValueUseList(st.operands) || !p.expect(')')) return false;
  }
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printCustomCall(AsmPrinter &p, OpId op) {
  std::string_view target = p.m.attrs.stringValue(p.m.attr(op, "call_target_name"));
  p.out += ' ';
  p.symbolName(target);  // `@"foo-bar"` when not a bare identifier
  p.out += '(';
  p.operands(op);
  p.out += ')';
  p.attrDict(op, {"call_target_name"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseComposite(Parser &p, OpState &st) {
  std::string_view name;
  if (!p.parseStringLiteral(name)) return false;
  p.addAttr(st, "name", p.m.attrs.string(name));
  if (!p.parseValueUseList(st.operands) || !p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printComposite(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.attr(p.m.attr(op, "name"));
  if (p.m.numOperands(op)) p.out += ' ';
  p.operands(op);
  p.attrDict(op, {"name"});
  p.out += " : ";
  p.functionalType(op);
}

// --- while ---------------------------------------------------------------------------------

bool parseWhile(Parser &p, OpState &st) {
  if (!p.expect('(')) return false;
  std::vector<OpState::Arg> args;
  if (!p.consumeIf(')')) {
    do {
      OpState::Arg a;
      ValueId v;
      if (!p.parseValueDefName(a.name) || !p.expect('=') || !p.parseValueUse(v)) return false;
      st.operands.push_back(v);
      args.push_back(a);
    } while (p.consumeIf(','));
    if (!p.expect(')')) return false;
  }
  if (!st.operands.empty()) {
    if (!p.expect(':')) return false;
    std::vector<TypeId> ts;
    if (!p.parseTypeList(ts)) return false;
    if (ts.size() != st.operands.size()) return p.fail("while has a different number of types and operands");
    for (size_t i = 0; i < ts.size(); ++i) args[i].type = ts[i];
    st.resultTypes = ts;
  }
  if (!p.parseOpAttrDict(st, "attributes")) return false;
  RegionId cond, body;
  if (!p.expectKeyword("cond") || !p.parseRegion(cond, args)) return false;
  if (!p.expectKeyword("do") || !p.parseRegion(body, args)) return false;
  st.regions = {cond, body};
  return true;
}

void printWhile(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += '(';
  BlockId condEntry = m.regions[m.region(op, 0)].blocks.empty() ? kNone : m.regions[m.region(op, 0)].blocks[0];
  for (uint32_t i = 0; i < m.numOperands(op); ++i) {
    if (i) p.out += ", ";
    if (condEntry != kNone && i < m.blocks[condEntry].args.size())
      p.value(m.blocks[condEntry].args[i]);
    else
      p.out += "%iterArg";
    p.out += " = ";
    p.value(m.operand(op, i));
  }
  p.out += ')';
  if (m.numOperands(op)) {
    p.out += " : ";
    p.valueTypes(m.operands(op));
  }
  bool hasAttrs = m.ops[op].numAttrs > 0;
  if (hasAttrs) {
    p.out += " attributes";
    p.attrDict(op);
  }
  p.newline();
  p.out += " cond ";
  p.region(m.region(op, 0), false);
  p.out += " do ";
  p.region(m.region(op, 1), false);
}

// --- reduce --------------------------------------------------------------------------------

// The body of `applies stablehlo.add`: (a, b) -> add(a, b) on scalars.
constexpr std::string_view kCompactReducers[] = {
    "stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.and", "stablehlo.or",       "stablehlo.xor"};

bool parseReduce(Parser &p, OpState &st) {
  Module &m = p.m;
  std::vector<ValueId> inputs, inits;
  do {
    ValueId in, init;
    if (!p.expect('(') || !p.parseValueUse(in) || !p.expectKeyword("init") || !p.expect(':') ||
        !p.parseValueUse(init) || !p.expect(')'))
      return false;
    inputs.push_back(in);
    inits.push_back(init);
  } while (p.consumeIf(','));
  st.operands = inputs;
  st.operands.insert(st.operands.end(), inits.begin(), inits.end());
  std::string reducer;
  if (p.consumeKeyword("applies")) {
    std::string_view name = p.parseBareId();
    if (name.empty()) return p.fail("expected reducer op name after 'applies'");
    reducer = std::string(name);
  }
  if (!p.expectKeyword("across") || !p.expectKeyword("dimensions") || !p.expect('=')) return false;
  std::vector<int64_t> dims;
  if (!p.parseIntList(dims)) return false;
  p.addAttr(st, "dimensions", i64Array(m, dims));
  if (!p.parseOpAttrDict(st)) return false;
  if (!p.expect(':') || !p.parseFunctionalResultType(st)) return false;
  if (!reducer.empty()) {
    RegionId r = m.createRegion();
    BlockId b = m.createBlock(r);
    std::vector<ValueId> lhs, rhs;
    for (ValueId init : inits) lhs.push_back(m.addBlockArg(b, m.type(init)));
    for (ValueId init : inits) rhs.push_back(m.addBlockArg(b, m.type(init)));
    std::vector<ValueId> rets;
    for (size_t i = 0; i < inits.size(); ++i) {
      OpId body = m.createOp(reducer, {lhs[i], rhs[i]}, {m.type(inits[i])});
      m.ops[body].srcOffset = p.offset();
      m.insertOp(b, body);
      rets.push_back(m.result(body));
    }
    OpId ret = m.createOp("stablehlo.return", rets, {});
    m.insertOp(b, ret);
    st.regions.push_back(r);
    return true;
  }
  // reducer(%a: t, %c: t) (%b: t, %d: t) { ... }: pairs (lhs_i, rhs_i).
  if (!p.expectKeyword("reducer")) return false;
  std::vector<OpState::Arg> lhs, rhs;
  while (p.peek() == '(') {
    p.consumeIf('(');
    OpState::Arg a, b;
    if (!p.parseValueDefName(a.name) || !p.expect(':') || !p.parseType(a.type) ||
        !p.parseOptionalLoc(a.loc) || !p.expect(',') || !p.parseValueDefName(b.name) ||
        !p.expect(':') || !p.parseType(b.type) || !p.parseOptionalLoc(b.loc) || !p.expect(')'))
      return false;
    lhs.push_back(a);
    rhs.push_back(b);
  }
  if (lhs.size() != inputs.size()) return p.fail("reducer needs one argument pair per input");
  std::vector<OpState::Arg> args = lhs;
  args.insert(args.end(), rhs.begin(), rhs.end());
  RegionId r;
  if (!p.parseRegion(r, args)) return false;
  st.regions.push_back(r);
  return true;
}

// The reducer op when the body is exactly `op(arg0, arg1); return`, so the
// compact `applies op` form prints it.
std::string_view compactReducer(const Module &m, OpId reduce) {
  if (m.numOperands(reduce) != 2 || m.numRegions(reduce) != 1) return {};
  const Region &r = m.regions[m.region(reduce, 0)];
  if (r.blocks.size() != 1) return {};
  const Block &b = m.blocks[r.blocks[0]];
  if (b.ops.size() != 2 || b.args.size() != 2) return {};
  OpId body = b.ops[0], ret = b.ops[1];
  std::string_view name = m.opName(body);
  bool known = false;
  for (std::string_view k : kCompactReducers) known |= k == name;
  if (!known || !m.isa(ret, "stablehlo.return") || m.ops[body].numAttrs != 0) return {};
  if (m.numOperands(body) != 2 || m.operand(body, 0) != b.args[0] || m.operand(body, 1) != b.args[1])
    return {};
  if (m.numOperands(ret) != 1 || m.operand(ret, 0) != m.result(body)) return {};
  TypeId t = m.type(b.args[0]);
  if (m.type(b.args[1]) != t || m.type(m.result(body)) != t) return {};
  if (m.types.rank(t) != 0 || m.type(m.operand(reduce, 1)) != t) return {};
  return name;
}

void printReduce(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  uint32_t n = m.numOperands(op) / 2;
  for (uint32_t i = 0; i < n; ++i) {
    p.out += i ? ", (" : "(";
    p.value(m.operand(op, i));
    p.out += " init: ";
    p.value(m.operand(op, n + i));
    p.out += ')';
  }
  std::string_view compact = compactReducer(m, op);
  if (!compact.empty()) {
    p.out += " applies ";
    p.out += compact;
  }
  p.out += " across dimensions = ";
  p.intList(intsOf(m, op, "dimensions"));
  p.attrDict(op, {"dimensions"});
  p.out += " : ";
  p.functionalType(op);
  if (!compact.empty()) return;
  const Region &r = m.regions[m.region(op, 0)];
  if (r.blocks.empty()) return;
  const Block &b = m.blocks[r.blocks[0]];
  p.newline();
  p.out += " reducer";
  for (uint32_t i = 0; i < n && n + i < b.args.size(); ++i) {
    p.out += '(';
    p.value(b.args[i]);
    p.out += ": ";
    p.type(m.type(b.args[i]));
    p.out += ", ";
    p.value(b.args[n + i]);
    p.out += ": ";
    p.type(m.type(b.args[n + i]));
    p.out += ") ";
  }
  p.region(m.region(op, 0), false);
}

const OpSyntaxEntry kEntries[] = {
    {"stablehlo.custom_call", {parseCustomCall, printCustomCall}},
    {"stablehlo.composite", {parseComposite, printComposite}},
    {"stablehlo.while", {parseWhile, printWhile}},
    {"stablehlo.reduce", {parseReduce, printReduce}},
};

}  // namespace

std::span<const OpSyntaxEntry> stablehloRegionSyntaxTable() { return kEntries; }

}  // namespace autopart
