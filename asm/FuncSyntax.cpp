// Custom forms of the func dialect:
//
//   func.func public @main(%arg0: tensor<8xf32> {jax.arg_info = "x"})
//       -> (tensor<8xf32> {jax.result_info = ""}) attributes {foo} { ... }
//   func.func private @decl(tensor<f32>) -> tensor<f32>
//   return %0, %1 : tensor<f32>, tensor<i32>
//   %0 = call @f(%arg0) : (tensor<f32>) -> tensor<f32>
#include "asm/OpSyntax.h"

namespace autopart {

namespace {

bool parseFunc(Parser &p, OpState &st) {
  Module &m = p.m;
  if (p.consumeKeyword("public"))
    p.addAttr(st, "sym_visibility", m.attrs.string("public"));
  else if (p.consumeKeyword("private"))
    p.addAttr(st, "sym_visibility", m.attrs.string("private"));
  else if (p.consumeKeyword("nested"))
    p.addAttr(st, "sym_visibility", m.attrs.string("nested"));
  std::string_view name;
  if (!p.parseSymbolName(name)) return false;
  if (name.empty()) return p.fail("expected function name");
  p.addAttr(st, "sym_name", m.attrs.string(name));

  std::vector<OpState::Arg> args;
  std::vector<TypeId> inTypes, outTypes;
  std::vector<AttrId> argDicts, resDicts;
  bool anyArgAttr = false, anyResAttr = false;
  AttrId emptyDict = m.attrs.dict({});
  SignatureSpans &spans = st.signature;
  spans.func = 0;  // set to the op once created
  // Where an argument's or result's dictionary is, or would be inserted.
  auto dictSpan = [&](SignatureSpans::Entry &e, std::vector<NamedAttr> &attrs) {
    p.skipWs();
    e.dictBegin = p.offset();
    if (p.peek() != '{') return true;
    if (!p.parseAttrDict(attrs)) return false;
    e.dictEnd = p.offset();
    return true;
  };
  if (!p.expect('(')) return false;
  if (!p.consumeIf(')')) {
    do {
      OpState::Arg a;
      if (p.peek() == '%') {
        if (!p.parseValueDefName(a.name) || !p.expect(':')) return false;
      }
      if (!p.parseType(a.type)) return false;
      std::vector<NamedAttr> attrs;
      if (!dictSpan(spans.args.emplace_back(), attrs)) return false;
      std::vector<std::pair<NameId, AttrId>> kv;
      for (const NamedAttr &na : attrs) kv.push_back({na.name, na.value});
      AttrId d = kv.empty() ? emptyDict : m.attrs.dict(std::move(kv));
      anyArgAttr |= d != emptyDict;
      argDicts.push_back(d);
      if (!p.parseOptionalLoc(a.loc)) return false;
      inTypes.push_back(a.type);
      args.push_back(a);
    } while (p.consumeIf(','));
    if (!p.expect(')')) return false;
  }
  if (p.consumeStr("->")) {
    // Result attributes exist only inside parentheses: in `-> t {` the brace
    // opens the body.
    auto parseResult = [&](bool allowAttrs) {
      TypeId t;
      SignatureSpans::Entry &e = spans.results.emplace_back();
      p.skipWs();
      e.typeBegin = p.offset();
      if (!p.parseType(t)) return false;
      e.typeEnd = p.offset();
      std::vector<NamedAttr> attrs;
      if (allowAttrs && !dictSpan(e, attrs)) return false;
      std::vector<std::pair<NameId, AttrId>> kv;
      for (const NamedAttr &na : attrs) kv.push_back({na.name, na.value});
      AttrId d = kv.empty() ? emptyDict : m.attrs.dict(std::move(kv));
      anyResAttr |= d != emptyDict;
      resDicts.push_back(d);
      outTypes.push_back(t);
      return true;
    };
    const char *save = p.pos();
    if (p.consumeIf('(')) {
      // `-> (t1, t2)` or a single function-typed result `-> (t) -> t`.
      if (!p.consumeIf(')')) {
        do {
          if (!parseResult(true)) return false;
        } while (p.consumeIf(','));
        if (!p.expect(')')) return false;
      }
      if (p.peekStr("->")) {
        p.setPos(save);
        outTypes.clear();
        resDicts.clear();
        spans.results.clear();
        if (!parseResult(false)) return false;
        spans.bareResult = true;
      }
    } else if (!parseResult(false)) {
      return false;
    } else {
      spans.bareResult = true;
    }
  }
  p.addAttr(st, "function_type", m.attrs.typeAttr(m.types.function(inTypes, outTypes)));
  if (anyArgAttr) p.addAttr(st, "arg_attrs", m.attrs.array(argDicts));
  if (anyResAttr) p.addAttr(st, "res_attrs", m.attrs.array(resDicts));
  if (p.consumeKeyword("attributes")) {
    if (!p.parseAttrDict(st.attrs)) return false;
  }
  if (p.peek() == '{') {
    RegionId r;
    p.pushScope();
    bool ok = p.parseRegion(r, args);
    p.popScope();
    if (!ok) return false;
    st.regions.push_back(r);
  } else {
    st.regions.push_back(m.createRegion());
  }
  return true;
}

void printFunc(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  AttrId vis = m.attr(op, "sym_visibility");
  if (vis != kNoAttr) {
    p.out += ' ';
    p.out += m.attrs.stringValue(vis);
  }
  p.out += ' ';
  p.symbolName(m.attrs.stringValue(m.attr(op, "sym_name")));
  const TypeStorage &ft = m.types.get(m.attrs.get(m.attr(op, "function_type")).type);
  AttrId argAttrs = m.attr(op, "arg_attrs"), resAttrs = m.attr(op, "res_attrs");
  auto dictAt = [&](AttrId list, size_t i) -> AttrId {
    if (list == kNoAttr) return kNoAttr;
    const AttrStorage &a = m.attrs.get(list);
    if (i >= a.elems.size() || m.attrs.get(a.elems[i]).elems.empty()) return kNoAttr;
    return a.elems[i];
  };
  const Region &body = m.regions[m.region(op, 0)];
  bool hasBody = !body.blocks.empty();
  p.out += '(';
  for (size_t i = 0; i < ft.members.size(); ++i) {
    if (i) p.out += ", ";
    if (hasBody) {
      ValueId arg = m.blocks[body.blocks[0]].args[i];
      p.value(arg);
      p.out += ": ";
    }
    p.type(ft.members[i]);
    if (AttrId d = dictAt(argAttrs, i); d != kNoAttr) {
      p.out += ' ';
      p.attr(d);
    }
    if (hasBody && p.opts.printLocations) {
      ValueId arg = m.blocks[body.blocks[0]].args[i];
      if (m.values[arg].loc != kNoAttr) {
        p.out += ' ';
        p.attr(m.values[arg].loc);
      }
    }
  }
  p.out += ')';
  if (!ft.results.empty()) {
    p.out += " -> ";
    bool anyAttr = false;
    for (size_t i = 0; i < ft.results.size(); ++i) anyAttr |= dictAt(resAttrs, i) != kNoAttr;
    bool paren = ft.results.size() > 1 || anyAttr ||
                 m.types.get(ft.results[0]).kind == TypeKind::Function;
    if (paren) p.out += '(';
    for (size_t i = 0; i < ft.results.size(); ++i) {
      if (i) p.out += ", ";
      p.type(ft.results[i]);
      if (AttrId d = dictAt(resAttrs, i); d != kNoAttr) {
        p.out += ' ';
        p.attr(d);
      }
    }
    if (paren) p.out += ')';
  }
  bool extra = false;
  for (const NamedAttr &a : m.attributes(op)) {
    std::string_view n = m.names.str(a.name);
    if (n != "sym_name" && n != "function_type" && n != "arg_attrs" && n != "res_attrs" &&
        n != "sym_visibility")
      extra = true;
  }
  if (extra) {
    p.out += " attributes";
    p.attrDict(op, {"sym_name", "function_type", "arg_attrs", "res_attrs", "sym_visibility"});
  }
  if (hasBody) {
    p.out += ' ';
    p.region(m.region(op, 0), false);
  }
}

bool parseCall(Parser &p, OpState &st) {
  AttrId callee;
  p.skipWs();
  if (p.peek() != '@' || !p.parseAttr(callee)) return p.fail("expected callee symbol");
  p.addAttr(st, "callee", callee);
  if (!p.expect('(') ) return false;
  if (!p.consumeIf(')')) {
    if (!p.parseValueUseList(st.operands) || !p.expect(')')) return false;
  }
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printCall(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.attr(p.m.attr(op, "callee"));
  p.out += '(';
  p.operands(op);
  p.out += ')';
  p.attrDict(op, {"callee"});
  p.out += " : ";
  p.functionalType(op);
}

const OpSyntaxEntry kEntries[] = {
    {"func.func", {parseFunc, printFunc}},
    {"func.return", {parseTerminator, printTerminator}},
    {"func.call", {parseCall, printCall}},
};

}  // namespace

std::span<const OpSyntaxEntry> builtinSyntaxTable() { return kEntries; }

}  // namespace autopart
