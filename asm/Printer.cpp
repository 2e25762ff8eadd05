// Module structure, value naming and generic-form ops; the custom op forms
// are in *Syntax.cpp.
//
// Values are named the way MLIR's AsmPrinter names them, so that output
// matches FileCheck lines written against mlir-opt: inside each func.func,
// op results are numbered %0, %1, ... in order (an op with two results is
// %3:2, used as %3#0), block arguments %arg0, %arg1, ..., constants %cst
// (float) / %c (integer), rng_bit_generator results %output_state, %output,
// with a shared `_N` suffix counter on collisions, and while-loop arguments
// %iterArg. A nested region continues the counters of its
// parent at the point the parent's own ops are all numbered, and sibling
// regions restart from the same point:
//
//   %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %0) ...
//     cond { %6 = stablehlo.compare ... }   // parent used %0..%5
//     do   { %6 = stablehlo.add ... }
#include <cctype>
#include <iostream>
#include <unordered_map>

#include "asm/AsmPrinter.h"
#include "asm/OpSyntax.h"

namespace autopart {

AsmPrinter::AsmPrinter(const Module &mod, const PrintOptions &o, std::string &s)
    : m(mod), opts(o), out(s) {
  valueNames_.resize(m.values.size());
}

void AsmPrinter::newline() {
  if (sink && out.size() > (1u << 20)) {
    sink->write(out.data(), std::streamsize(out.size()));
    out.clear();
  }
  out += '\n';
  out.append(size_t(indent), ' ');
}

void AsmPrinter::value(ValueId v) {
  const ValueName &n = valueNames_[v];
  switch (n.kind) {
  case 1: {
    out += '%';
    out += std::to_string(n.id);
    OpId def = m.definingOp(v);
    if (def != kNone && m.numResults(def) > 1) {
      out += '#';
      out += std::to_string(m.values[v].index);
    }
    return;
  }
  case 2:
    out += "%arg";
    out += std::to_string(n.id);
    return;
  case 3:
    out += '%';
    out += named_[n.id];
    return;
  default:
    out += "%<<UNKNOWN SSA VALUE>>";
  }
}

void AsmPrinter::valueList(std::span<const ValueId> vs) {
  for (size_t i = 0; i < vs.size(); ++i) {
    if (i) out += ", ";
    value(vs[i]);
  }
}

void AsmPrinter::typeList(std::span<const TypeId> ts) {
  for (size_t i = 0; i < ts.size(); ++i) {
    if (i) out += ", ";
    type(ts[i]);
  }
}

void AsmPrinter::valueTypes(std::span<const ValueId> vs) {
  for (size_t i = 0; i < vs.size(); ++i) {
    if (i) out += ", ";
    type(m.type(vs[i]));
  }
}

void AsmPrinter::intList(std::span<const int64_t> v) {
  out += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(v[i]);
  }
  out += ']';
}

void AsmPrinter::attrDict(OpId op, std::initializer_list<std::string_view> elided) {
  bool first = true;
  for (const NamedAttr &a : m.attributes(op)) {
    std::string_view name = m.names.str(a.name);
    bool skip = false;
    for (std::string_view e : elided)
      if (e == name) skip = true;
    if (skip) continue;
    out += first ? " {" : ", ";
    first = false;
    out += name;
    if (m.attrs.kind(a.value) == AttrKind::Unit) continue;
    out += " = ";
    attr(a.value);
  }
  if (!first) out += '}';
}

static void printResultTypes(AsmPrinter &p, std::span<const ValueId> results) {
  bool paren = results.size() != 1 ||
               p.m.types.get(p.m.type(results[0])).kind == TypeKind::Function;
  if (paren) p.out += '(';
  p.valueTypes(results);
  if (paren) p.out += ')';
}

void AsmPrinter::functionalType(OpId op) {
  out += '(';
  valueTypes(m.operands(op));
  out += ") -> ";
  const Operation &o = m.ops[op];
  std::vector<ValueId> results;
  for (uint32_t i = 0; i < o.numResults; ++i) results.push_back(o.resultBegin + i);
  printResultTypes(*this, results);
}

void AsmPrinter::sameOperandsAndResultType(OpId op) {
  const Operation &o = m.ops[op];
  if (o.numResults == 0) {
    functionalType(op);
    return;
  }
  TypeId t = m.type(o.resultBegin);
  bool same = true;
  for (uint32_t i = 0; i < o.numResults; ++i) same &= m.type(o.resultBegin + i) == t;
  for (ValueId v : m.operands(op)) same &= m.type(v) == t;
  if (same && o.numResults == 1) {
    type(t);
    return;
  }
  functionalType(op);
}

void AsmPrinter::blockArgList(BlockId b) {
  out += '(';
  const std::vector<ValueId> &args = m.blocks[b].args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    value(args[i]);
    out += ": ";
    type(m.type(args[i]));
    if (opts.printLocations && m.values[args[i]].loc != kNoAttr) {
      out += ' ';
      attr(m.values[args[i]].loc);
    }
  }
  out += ')';
}

void AsmPrinter::printBlock(BlockId b, bool printHeader) {
  if (printHeader) {
    // Labels sit two columns left of the block's ops.
    indent -= 2;
    newline();
    const Region &r = m.regions[m.blocks[b].parent];
    size_t index = 0;
    while (r.blocks[index] != b) ++index;
    out += "^bb" + std::to_string(index);
    if (!m.blocks[b].args.empty()) blockArgList(b);
    out += ':';
    indent += 2;
  }
  for (OpId op : m.blocks[b].ops) {
    newline();
    printOperation(op);
  }
}

void AsmPrinter::region(RegionId r, bool printEntryArgs) {
  out += '{';
  indent += 2;
  const Region &reg = m.regions[r];
  for (size_t i = 0; i < reg.blocks.size(); ++i) {
    BlockId b = reg.blocks[i];
    bool header = i > 0 || (printEntryArgs && !m.blocks[b].args.empty());
    printBlock(b, header);
  }
  indent -= 2;
  newline();
  out += '}';
}

void AsmPrinter::printGenericOp(OpId op) {
  out += '"';
  out += m.opName(op);
  out += "\"(";
  operands(op);
  out += ')';
  // Ops of known dialects keep inherent attributes (no dialect prefix) in
  // `<{...}>` properties, as MLIR prints them; unregistered ops have none.
  std::string_view name = m.opName(op);
  bool known = name.starts_with("stablehlo.") || name.starts_with("sdy.") ||
               name.starts_with("func.") || name.starts_with("chlo.") ||
               name.starts_with("mhlo.") || name.starts_with("builtin.");
  std::vector<NamedAttr> props, discardable;
  for (const NamedAttr &a : m.attributes(op)) {
    bool inherent = known && m.names.str(a.name).find('.') == std::string_view::npos;
    (inherent ? props : discardable).push_back(a);
  }
  auto printList = [&](const std::vector<NamedAttr> &list) {
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) out += ", ";
      out += m.names.str(list[i].name);
      if (m.attrs.kind(list[i].value) == AttrKind::Unit) continue;
      out += " = ";
      attr(list[i].value);
    }
  };
  if (!props.empty()) {
    out += " <{";
    printList(props);
    out += "}>";
  }
  if (m.numRegions(op) > 0) {
    out += " (";
    for (uint32_t i = 0; i < m.numRegions(op); ++i) {
      if (i) out += ", ";
      region(m.region(op, i), true);
    }
    out += ')';
  }
  if (!discardable.empty()) {
    out += " {";
    printList(discardable);
    out += '}';
  }
  out += " : ";
  functionalType(op);
}

void AsmPrinter::printUnknownCustomOp(OpId op, AttrId customText) {
  out += m.opName(op);
  std::string text = unescapeString(m.attrs.stringValue(customText));
  if (!text.empty()) out += ' ';
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      out += text[i];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == 'R') {
      size_t j = i + 2;
      uint32_t r = 0;
      while (j < text.size() && text[j] >= '0' && text[j] <= '9') r = r * 10 + uint32_t(text[j++] - '0');
      if (r < m.numRegions(op)) region(m.region(op, r), true);
      i = j - 1;
      continue;
    }
    size_t j = i + 1;
    uint32_t index = 0;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') index = index * 10 + uint32_t(text[j++] - '0');
    if (index < m.numOperands(op)) value(m.operand(op, index));
    i = j - 1;
  }
  // The template holds the attributes the input spelled; any attribute a
  // pass added since (a sharding, a sharding rule) goes where declarative
  // formats put `attr-dict`: before the types.
  attrDict(op, {"__custom_syntax", "__custom_types", "__custom_trailing"});
  AttrId types = m.attr(op, "__custom_types");
  if (types == kNoAttr) return;
  out += " : ";
  AttrId trailing = m.attr(op, "__custom_trailing");
  const AttrStorage &t = m.attrs.get(types);
  if (t.kind == AttrKind::String) {
    functionalType(op);
    return;
  }
  for (size_t i = 0; i < t.elems.size(); ++i) {
    if (i) out += ", ";
    attr(t.elems[i]);
  }
  if (trailing != kNoAttr) {
    out += ' ';
    attr(trailing);
  }
  bool arrow = m.numResults(op) > 0 && (t.elems.size() != m.numResults(op) ||
                                        m.attrs.get(t.elems[0]).type != m.type(m.result(op)));
  if (!arrow) return;
  out += " -> ";
  bool paren = m.numResults(op) != 1;
  if (paren) out += '(';
  for (uint32_t i = 0; i < m.numResults(op); ++i) {
    if (i) out += ", ";
    type(m.type(m.result(op, i)));
  }
  if (paren) out += ')';
}

void AsmPrinter::printOperation(OpId op) {
  const Operation &o = m.ops[op];
  if (o.numResults > 0) {
    ValueId first = o.resultBegin;
    value(first);
    if (valueNames_[first].kind == 1 && o.numResults > 1) {
      // `value()` printed `%N#0`: rewrite as the group definition `%N:n`.
      size_t hash = out.rfind('#');
      out.resize(hash);
      out += ':';
      out += std::to_string(o.numResults);
    } else if (valueNames_[first].kind != 1) {
      for (uint32_t i = 1; i < o.numResults; ++i) {
        out += ", ";
        value(first + i);
      }
    }
    out += " = ";
  }
  std::string_view name = m.opName(op);
  const OpSyntax *syntax = opts.genericForm ? nullptr : lookupOpSyntax(name);
  AttrId customText = m.attr(op, "__custom_syntax");
  if (customText != kNoAttr && !opts.genericForm) {
    printUnknownCustomOp(op, customText);
  } else if (syntax) {
    // MLIR drops the `func.` prefix only for ops directly in a function's
    // body (the default dialect belongs to the op owning the region).
    if (inFunc && name.starts_with("func.") && name != "func.func" && m.parentOp(op) != kNone &&
        m.isa(m.parentOp(op), "func.func"))
      out += name.substr(5);
    else
      out += name;
    syntax->print(*this, op);
  } else {
    printGenericOp(op);
  }
  if (opts.printLocations && o.loc != kNoAttr) {
    out += ' ';
    attr(o.loc);
  }
}

// --- Naming --------------------------------------------------------------------

namespace {
struct NameScope {
  std::unordered_map<std::string, int> used;
  std::vector<std::string> log;
};
}  // namespace

static thread_local NameScope *gScope = nullptr;

std::string AsmPrinter::uniqueName(std::string_view base, uint32_t &nextConflict) {
  std::string name(base);
  if (gScope->used.count(name)) {
    while (true) {
      std::string probe = name + "_" + std::to_string(nextConflict++);
      if (!gScope->used.count(probe)) {
        name = probe;
        break;
      }
    }
  }
  gScope->used[name] = 1;
  gScope->log.push_back(name);
  return name;
}

// The asm names an op gives its results, as its OpAsmOpInterface would:
// one per result, or none (numbered).
static std::vector<std::string_view> resultNameHints(const Module &m, OpId op) {
  std::string_view name = m.opName(op);
  if (name == "stablehlo.constant" && m.numResults(op) == 1)
    return {m.types.isIntegerElement(m.type(m.result(op))) ? "c" : "cst"};
  if (name == "stablehlo.rng_bit_generator" && m.numResults(op) == 2) return {"output_state", "output"};
  return {};
}

void AsmPrinter::numberRegion(RegionId r, uint32_t nextValue, uint32_t nextArg,
                              uint32_t nextConflict, size_t usedMark) {
  const Region &reg = m.regions[r];
  OpId parent = reg.parent;
  bool iterArgs = parent != kNone && m.isa(parent, "stablehlo.while");
  for (BlockId b : reg.blocks) {
    for (ValueId v : m.blocks[b].args) {
      if (iterArgs) {
        valueNames_[v] = {3, uint32_t(named_.size())};
        named_.push_back(uniqueName("iterArg", nextConflict));
      } else {
        valueNames_[v] = {2, nextArg++};
      }
    }
    for (OpId op : m.blocks[b].ops) {
      const Operation &o = m.ops[op];
      if (o.numResults == 0) continue;
      std::vector<std::string_view> hints = resultNameHints(m, op);
      if (!hints.empty()) {
        for (uint32_t i = 0; i < o.numResults; ++i) {
          valueNames_[o.resultBegin + i] = {3, uint32_t(named_.size())};
          named_.push_back(uniqueName(hints[i], nextConflict));
        }
        continue;
      }
      uint32_t id = nextValue++;
      for (uint32_t i = 0; i < o.numResults; ++i) valueNames_[o.resultBegin + i] = {1, id};
    }
  }
  size_t mark = gScope->log.size();
  for (BlockId b : reg.blocks)
    for (OpId op : m.blocks[b].ops) {
      if (m.isa(op, "func.func") || m.isa(op, "builtin.module")) continue;
      for (uint32_t i = 0; i < m.numRegions(op); ++i) {
        numberRegion(m.region(op, i), nextValue, nextArg, nextConflict, mark);
        // Names used inside a sibling region are not visible to the next.
        while (gScope->log.size() > mark) {
          gScope->used.erase(gScope->log.back());
          gScope->log.pop_back();
        }
      }
    }
  (void)usedMark;
}

void AsmPrinter::numberScope(OpId isolatedOp) {
  NameScope scope;
  NameScope *saved = gScope;
  gScope = &scope;
  for (uint32_t i = 0; i < m.numRegions(isolatedOp); ++i)
    numberRegion(m.region(isolatedOp, i), 0, 0, 0, 0);
  gScope = saved;
}

void AsmPrinter::symbolName(std::string_view name) {
  // MLIR's bare symbol names: a letter or `_`, then letters, digits, `_$.`.
  bool bare = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name)
    bare &= std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  out += '@';
  if (bare) {
    out += name;
    return;
  }
  // The parser keeps a quoted name's escapes as written, so it prints as is.
  out += '"';
  out += name;
  out += '"';
}

// --- Top level -------------------------------------------------------------------

void AsmPrinter::printModuleOp(OpId mod) {
  out += "module";
  AttrId sym = m.attr(mod, "sym_name");
  if (sym != kNoAttr) {
    out += ' ';
    symbolName(m.attrs.stringValue(sym));
  }
  bool hasAttrs = false;
  for (const NamedAttr &a : m.attributes(mod))
    if (m.names.str(a.name) != "sym_name") hasAttrs = true;
  if (hasAttrs) {
    out += " attributes";
    attrDict(mod, {"sym_name"});
  }
  out += " {";
  indent += 2;
  for (BlockId b : m.regions[m.region(mod, 0)].blocks)
    for (OpId op : m.blocks[b].ops) {
      newline();
      bool saved = inFunc;
      inFunc = m.isa(op, "func.func");
      // A `builtin.module` written as an unknown custom op has no region.
      if (m.isa(op, "builtin.module") && m.numRegions(op) == 1)
        printModuleOp(op);
      else
        printOperation(op);
      inFunc = saved;
    }
  indent -= 2;
  newline();
  out += "}";
  if (opts.printLocations && m.ops[mod].loc != kNoAttr) {
    out += ' ';
    attr(m.ops[mod].loc);
  }
}

void AsmPrinter::printTop() {
  if (opts.printLocations)
    for (auto &[name, def] : m.aliasDefs) out += name + " = " + def + "\n";
  m.walk(m.top, [&](OpId op) {
    if (m.isa(op, "func.func")) numberScope(op);
  });
  printModuleOp(m.top);
  out += '\n';
  // The data of dense_resource constants, after the module as MLIR prints it.
  if (!m.resourceBlock.empty()) {
    out += '\n';
    out += m.resourceBlock;
    out += '\n';
  }
}

std::string printModule(const Module &m, const PrintOptions &opts) {
  std::string out;
  out.reserve(m.source ? m.source->size() + m.source->size() / 4 : 4096);
  AsmPrinter printer(m, opts, out);
  printer.printTop();
  return out;
}

bool printModule(const Module &m, std::ostream &os, const PrintOptions &opts) {
  std::string out;
  out.reserve(2u << 20);
  AsmPrinter printer(m, opts, out);
  printer.sink = &os;
  printer.printTop();
  os.write(out.data(), std::streamsize(out.size()));
  return bool(os);
}

}  // namespace autopart
