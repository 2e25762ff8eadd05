// The generic MLIR grammar: module structure, regions and blocks, values and
// their scopes, and generic-form ops. The other parts of the parser are
// beside it: lexing in Lexer.cpp, types in TypeParser.cpp, attributes in
// AttributeParser.cpp and ShardingParser.cpp, custom op forms in *Syntax.cpp.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "asm/Lexer.h"
#include "asm/OpSyntax.h"
#include "asm/ParserImpl.h"
#include "asm/ResourceSyntax.h"
#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {
Parser::Parser(Module &mod, std::string_view text)
    : m(mod), begin_(text.data()), p_(text.data()), end_(text.data() + text.size()) {}
// --- Values -------------------------------------------------------------------

bool Parser::parseValueDefName(std::string_view &name) {
  skipWs();
  if (p_ >= end_ || *p_ != '%') return fail("expected SSA value name");
  const char *s = p_++;
  while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
  if (p_ == s + 1) return fail("expected SSA value name");
  name = std::string_view(s, size_t(p_ - s));
  return true;
}

// The number of a `%123` name, or -1 for other names (`%arg0`, `%cst`, `%01`).
static int64_t numberedName(std::string_view name) {
  if (name.size() < 2 || name.size() > 10 || (name[1] == '0' && name.size() > 2)) return -1;
  int64_t n = 0;
  for (size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

bool Parser::parseValueUse(ValueId &v) {
  std::string_view name;
  const char *s = (skipWs(), p_);
  if (!parseValueDefName(name)) return false;
  int64_t num = numberedName(name);
  if (num >= 0) {
    if (size_t(num) >= numbered_.size() || numbered_[size_t(num)] == kNone)
      return failAt(s, "use of undeclared SSA value " + std::string(name));
    v = numbered_[size_t(num)];
  } else {
    auto it = values_.find(name);
    if (it == values_.end()) return failAt(s, "use of undeclared SSA value " + std::string(name));
    v = it->second;
  }
  if (p_ < end_ && *p_ == '#') {
    ++p_;
    int64_t k;
    if (!parseInt(k)) return false;
    OpId def = m.definingOp(v);
    if (def == kNone || k < 0 || uint32_t(k) >= m.numResults(def))
      return failAt(s, "result number out of range in " + std::string(name));
    v += uint32_t(k);
  }
  return true;
}

bool Parser::parseValueUseList(std::vector<ValueId> &vs) {
  if (peek() != '%') return true;
  while (true) {
    ValueId v;
    if (!parseValueUse(v)) return false;
    vs.push_back(v);
    // A comma continues the list only when a value follows: in
    // `%a, %b, dims = [0]` the second comma starts the op's keywords.
    const char *save = p_;
    if (!consumeIf(',')) return true;
    if (peek() != '%') {
      p_ = save;
      return true;
    }
  }
}

void Parser::defineValue(std::string_view name, ValueId v) {
  int64_t num = numberedName(name);
  if (num >= 0) {
    if (size_t(num) >= numbered_.size()) numbered_.resize(size_t(num) + 1, kNone);
    undoNumbered_.push_back({uint32_t(num), numbered_[size_t(num)]});
    numbered_[size_t(num)] = v;
    return;
  }
  auto [it, inserted] = values_.try_emplace(name, v);
  undo_.push_back({name, inserted ? kNone : it->second});
  it->second = v;
}

void Parser::pushScope() { scopeMarks_.push_back({undo_.size(), undoNumbered_.size()}); }

void Parser::popScope() {
  auto [mark, markNumbered] = scopeMarks_.back();
  scopeMarks_.pop_back();
  while (undoNumbered_.size() > markNumbered) {
    auto [num, prev] = undoNumbered_.back();
    undoNumbered_.pop_back();
    numbered_[num] = prev;
  }
  while (undo_.size() > mark) {
    auto [name, prev] = undo_.back();
    undo_.pop_back();
    if (prev == kNone)
      values_.erase(name);
    else
      values_[name] = prev;
  }
}

// --- Ops -------------------------------------------------------------------------

bool Parser::parseSameOperandsAndResultType(OpState &st) {
  if (!expect(':')) return false;
  if (peek() == '(') return parseFunctionalResultType(st);
  std::vector<TypeId> ts;
  if (!parseTypeList(ts)) return false;
  // One type stands for every operand and result; a list gives the results.
  if (ts.size() == 1)
    st.resultTypes.assign(st.resultTypes.empty() ? 1 : st.resultTypes.size(), ts[0]);
  else
    st.resultTypes = ts;
  return true;
}

bool Parser::parseFunctionalResultType(OpState &st) {
  if (peek() == ':') ++p_;
  std::vector<TypeId> ins, outs;
  const char *s = (skipWs(), p_);
  if (!parseFunctionType(ins, outs)) return false;
  if (ins.size() != st.operands.size())
    return failAt(s, "expected " + std::to_string(st.operands.size()) +
                         " operand types but found " + std::to_string(ins.size()));
  st.resultTypes = std::move(outs);
  return true;
}

bool Parser::parseGenericOpBody(OpState &st) {
  if (!expect('(')) return false;
  if (!consumeIf(')')) {
    if (!parseValueUseList(st.operands) || !expect(')')) return false;
  }
  if (consumeIf('[')) {
    return fail("successor blocks are not supported");
  }
  if (peekStr("<{")) {
    ++p_;
    if (!parseAttrDict(st.attrs) || !expect('>')) return false;
  }
  if (peekStr("({")) {
    ++p_;
    do {
      RegionId r;
      if (!parseRegion(r)) return false;
      st.regions.push_back(r);
    } while (consumeIf(','));
    if (!expect(')')) return false;
  }
  if (!parseOpAttrDict(st)) return false;
  if (!expect(':')) return false;
  std::vector<TypeId> ins, outs;
  const char *s = (skipWs(), p_);
  if (!parseFunctionType(ins, outs)) return false;
  if (ins.size() != st.operands.size())
    return failAt(s, "generic op has " + std::to_string(st.operands.size()) +
                         " operands but its type lists " + std::to_string(ins.size()));
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i] != m.type(st.operands[i]))
      return failAt(s, "type of operand #" + std::to_string(i) + " is " +
                           std::string(m.types.str(m.type(st.operands[i]))) + " but the op says " +
                           std::string(m.types.str(ins[i])));
  st.resultTypes = std::move(outs);
  return true;
}

bool Parser::parseUnknownCustomOp(OpState &st) {
  std::string templ;
  skipWs();
  const char *start = p_;
  int depth = 0;
  while (p_ < end_) {
    char c = *p_;
    if (depth == 0 && c == ':' && !(p_ + 1 < end_ && p_[1] == ':')) break;
    if (depth == 0 && (c == '\n' || c == '}')) {
      // No type: an op like `check.expect_true %x` ends at the line end.
      const char *q = p_;
      while (q < end_ && (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r')) ++q;
      if (q >= end_ || *q != ':') break;
    }
    if (c == '"') {
      const char *s = p_;
      std::string_view lit;
      if (!parseStringLiteral(lit)) return false;
      templ.append(s, size_t(p_ - s));
      continue;
    }
    if (c == '%') {
      ValueId v;
      if (!parseValueUse(v)) return false;
      templ += '$' + std::to_string(st.operands.size());
      st.operands.push_back(v);
      continue;
    }
    if (depth == 0 && c == '{') {
      // A region of the op (`{` then a newline or a block label).
      const char *q = p_ + 1;
      while (q < end_ && (*q == ' ' || *q == '\t')) ++q;
      if (q < end_ && (*q == '\n' || *q == '^')) {
        RegionId r;
        if (!parseRegion(r)) return false;
        templ += "$R" + std::to_string(st.regions.size());
        st.regions.push_back(r);
        continue;
      }
    }
    if (c == '$') templ += '$';  // escape literal dollars
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || (c == '>' && !(p_ > start && p_[-1] == '-'))) --depth;
    if (depth < 0) return fail("unbalanced brackets in custom op '" + st.name + "'");
    templ += c;
    ++p_;
  }
  while (!templ.empty() && (templ.back() == ' ' || templ.back() == '\n' || templ.back() == '\t'))
    templ.pop_back();
  std::string collapsed;
  for (char c : templ) {
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
    if (c == ' ' && !collapsed.empty() && collapsed.back() == ' ') continue;
    collapsed += c;
  }
  addAttr(st, "__custom_syntax", m.attrs.string(escapeString(collapsed)));
  if (!consumeIf(':')) {
    if (st.declaredResults) return fail("expected ':' and result types for '" + st.name + "'");
    return true;
  }
  if (peek() == '(') {
    std::vector<TypeId> ins, outs;
    if (!parseFunctionType(ins, outs)) return false;
    st.resultTypes = std::move(outs);
    addAttr(st, "__custom_types", m.attrs.string("functional"));
    return true;
  }
  std::vector<TypeId> ts;
  if (!parseTypeList(ts)) return false;
  if (consumeStr("->")) {
    std::vector<TypeId> outs;
    if (consumeIf('(')) {
      if (!consumeIf(')') && (!parseTypeList(outs) || !expect(')'))) return false;
    } else if (!parseTypeList(outs)) {
      return false;
    }
    std::vector<AttrId> ins;
    for (TypeId t : ts) ins.push_back(m.attrs.typeAttr(t));
    addAttr(st, "__custom_types", m.attrs.array(ins));
    st.resultTypes = std::move(outs);
    return true;
  }
  std::vector<AttrId> listed;
  for (TypeId t : ts) listed.push_back(m.attrs.typeAttr(t));
  addAttr(st, "__custom_types", m.attrs.array(listed));
  if (peek() == '{') {
    // A trailing attribute dictionary (`: tensor<f64> {tolerance = 0.1 : f64}`).
    std::vector<NamedAttr> trailing;
    if (!parseAttrDict(trailing)) return false;
    std::vector<std::pair<NameId, AttrId>> kv;
    for (const NamedAttr &a : trailing) kv.push_back({a.name, a.value});
    addAttr(st, "__custom_trailing", m.attrs.dict(std::move(kv)));
  }
  if (st.declaredResults == ts.size())
    st.resultTypes = ts;
  else if (st.declaredResults > 0 && ts.size() == 1)
    st.resultTypes.assign(st.declaredResults, ts[0]);
  else if (st.declaredResults > 0)
    return fail("cannot tell the result types of custom op '" + st.name + "'");
  return true;
}

bool Parser::parseOperation(BlockId block) {
  skipWs();
  const char *opStart = p_;
  if (++depth_ > kMaxNesting) return fail("op nesting too deep");
  struct DepthGuard {
    int &d;
    ~DepthGuard() { --d; }
  } guard{depth_};

  // Result names: `%a, %b:2 =`.
  std::vector<std::pair<std::string_view, uint32_t>> resultNames;
  if (*p_ == '%') {
    do {
      std::string_view name;
      if (!parseValueDefName(name)) return false;
      uint32_t count = 1;
      if (p_ < end_ && *p_ == ':' && p_ + 1 < end_ && p_[1] >= '0' && p_[1] <= '9') {
        ++p_;
        int64_t n;
        if (!parseInt(n)) return false;
        if (n < 1 || n > (1 << 20)) return fail("invalid result count");
        count = uint32_t(n);
      }
      resultNames.push_back({name, count});
    } while (consumeIf(','));
    if (!expect('=')) return false;
  }
  skipWs();
  const char *nameStart = p_;
  OpState st;
  if (*p_ == '"') {
    std::string_view name;
    if (!parseStringLiteral(name)) return false;
    st.name = std::string(name);
    if (!parseGenericOpBody(st)) return false;
  } else {
    std::string_view name = parseBareId();
    if (name.empty()) return fail("expected operation name, found " + describeChar(peek()));
    st.name = std::string(name);
    if (name == "return" || name == "call" || name == "call_indirect" || name == "constant")
      st.name = "func." + st.name;
    const OpSyntax *syntax = lookupOpSyntax(st.name);
    for (auto &[_, n] : resultNames) st.declaredResults += n;
    if (!syntax) {
      if (!parseUnknownCustomOp(st)) return false;
    } else if (!syntax->parse(*this, st)) {
      return false;
    }
  }
  if (std::string_view(st.name).starts_with("stablehlo.")) upgradeDenseListAttrs(m, st);
  AttrId loc = kNoAttr;
  if (!parseOptionalLoc(loc)) return false;

  uint32_t declared = 0;
  for (auto &[_, n] : resultNames) declared += n;
  if (!resultNames.empty() && declared != st.resultTypes.size())
    return failAt(opStart, "operation defines " + std::to_string(st.resultTypes.size()) +
                               " results but " + std::to_string(declared) + " names were given");
  OpId op = m.createOp(st.name, st.operands, st.resultTypes, st.attrs);
  m.attachRegions(op, st.regions);
  m.ops[op].srcOffset = uint32_t(nameStart - begin_);
  m.ops[op].loc = loc;
  // Up to the op's last character, not the whitespace after it.
  const char *last = p_;
  while (last > nameStart && std::isspace(static_cast<unsigned char>(last[-1]))) --last;
  m.ops[op].srcEnd = uint32_t(last - begin_);
  m.ops[op].dictBegin = st.dictBegin;
  m.ops[op].dictEnd = st.dictEnd;
  m.ops[op].dictKeyword = st.dictKeyword;
  if (st.signature.func != kNone) {
    st.signature.func = op;
    m.signatures.push_back(std::move(st.signature));
  }
  m.insertOp(block, op);
  uint32_t next = 0;
  for (auto &[name, n] : resultNames) {
    defineValue(name, m.result(op, next));
    next += n;
  }
  return true;
}

bool Parser::parseBlockBody(BlockId block) {
  while (true) {
    char c = peek();
    if (c == '}' || c == '^' || c == '\0') return true;
    if (!parseOperation(block)) return false;
  }
}

bool Parser::parseRegion(RegionId &r, const std::vector<OpState::Arg> &entryArgs) {
  if (!expect('{')) return false;
  r = m.createRegion();
  pushScope();
  bool first = true;
  while (peek() != '}') {
    if (atEnd()) {
      popScope();
      return fail("expected '}' to end region");
    }
    BlockId b = m.createBlock(r);
    if (consumeIf('^')) {
      while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
      if (consumeIf('(')) {
        if (!consumeIf(')')) {
          do {
            std::string_view name;
            TypeId t;
            if (!parseValueDefName(name) || !expect(':') || !parseType(t)) return false;
            ValueId v = m.addBlockArg(b, t);
            if (!parseOptionalLoc(m.values[v].loc)) return false;
            defineValue(name, v);
          } while (consumeIf(','));
          if (!expect(')')) return false;
        }
      }
      if (!expect(':')) return false;
    } else if (first) {
      for (const OpState::Arg &a : entryArgs) {
        ValueId v = m.addBlockArg(b, a.type);
        m.values[v].loc = a.loc;
        if (!a.name.empty()) defineValue(a.name, v);
      }
    } else {
      return fail("expected block label");
    }
    first = false;
    if (!parseBlockBody(b)) return false;
  }
  ++p_;  // '}'
  if (first && !entryArgs.empty()) {
    // `{}` for an op whose region takes arguments: keep them on an empty block.
    BlockId b = m.createBlock(r);
    for (const OpState::Arg &a : entryArgs) m.addBlockArg(b, a.type);
  }
  popScope();
  return true;
}

// --- Module ----------------------------------------------------------------------

bool Parser::parseModuleBody(OpId moduleOp, bool braced) {
  BlockId block = m.regions[m.region(moduleOp, 0)].blocks[0];
  while (true) {
    skipWs();
    if (p_ >= end_) {
      if (braced) return fail("expected '}' to end module");
      return true;
    }
    if (braced && *p_ == '}') {
      ++p_;
      return true;
    }
    if (!parseOperation(block)) return false;
  }
}

bool Parser::parseTopLevel() {
  m.top = m.createOp("builtin.module", {}, {}, {}, 1);
  m.createBlock(m.region(m.top, 0));
  // Aliases and file-level resources may come before or after the module.
  bool sawModule = false;
  while (true) {
    skipWs();
    if (p_ >= end_) break;
    if (*p_ == '#' || *p_ == '!') {
      const char *s = p_;
      char kind = *p_++;
      const char *n = p_;
      while (p_ < end_ && isIdChar(*p_)) ++p_;
      std::string_view name(n, size_t(p_ - n));
      if (!consumeIf('=')) {
        p_ = s;  // not an alias definition: a top-level op would start with '%' or a name
        return fail("expected alias definition '" + std::string(1, kind) + std::string(name) + " = ...'");
      }
      skipWs();
      const char *v = p_;
      if (kind == '#') {
        AttrId a;
        if (!parseAttr(a)) return false;
        std::string_view def(v, size_t(p_ - v));
        attrAliases_[name] = def;
        m.aliasDefs.push_back({"#" + std::string(name), std::string(def)});
      } else {
        TypeId t;
        if (!parseType(t)) return false;
        typeAliases_[name] = t;
      }
      continue;
    }
    if (peekStr("---")) {
      // Dump tools (tt-xla) append `---- END OF MLIR MODULE ----` banners;
      // no MLIR construct starts with three dashes, so skip the line.
      const void *nl = std::memchr(p_, '\n', size_t(end_ - p_));
      p_ = nl ? static_cast<const char *>(nl) + 1 : end_;
      continue;
    }
    if (peekStr("{-#")) {
      const char *endRes = static_cast<const char *>(
          memmem(p_, size_t(end_ - p_), "#-}", 3));
      if (!endRes) return fail("unterminated file-level resource block");
      std::string_view block(p_, size_t(endRes + 3 - p_));
      size_t errorAt = 0;
      std::string why;
      if (!parseResourceBlock(block, m.resourceBlobs, errorAt, why)) return failAt(p_ + errorAt, why);
      m.resourceBlock = block;
      p_ = endRes + 3;
      continue;
    }
    if (consumeKeyword("module")) {
      if (sawModule) {
        // Several modules: each becomes a nested module of an implicit top.
        if (!parseNestedModules()) return false;
        break;
      }
      sawModule = true;
      if (peek() == '@') {
        std::string_view name;  // `@jit_f` or `@"jit f"`
        if (!parseSymbolName(name)) return false;
        m.setAttr(m.top, "sym_name", m.attrs.string(name));
      }
      if (consumeKeyword("attributes")) {
        std::vector<NamedAttr> attrs;
        if (!parseAttrDict(attrs)) return false;
        for (const NamedAttr &a : attrs) m.setAttr(m.top, m.names.str(a.name), a.value);
      }
      if (!expect('{')) return false;
      m.moduleBodyBegin = offset();
      if (!parseModuleBody(m.top, true)) return false;
      AttrId loc = kNoAttr;
      if (!parseOptionalLoc(loc)) return false;
      m.ops[m.top].loc = loc;
      continue;
    }
    if (sawModule) return fail("unexpected " + describeChar(*p_) + " after the module");
    BlockId block = m.regions[m.region(m.top, 0)].blocks[0];
    if (!parseOperation(block)) return false;
  }
  return true;
}

bool Parser::parseNestedModules() {
  // The module parsed so far becomes the first nested one.
  OpId first = m.top;
  m.top = m.createOp("builtin.module", {}, {}, {}, 1);
  m.moduleBodyBegin = kNone;  // the implicit top has no text of its own
  BlockId block = m.createBlock(m.region(m.top, 0));
  m.insertOp(block, first);
  p_ -= 6;  // back to `module`
  while (!atEnd()) {
    if (peekStr("---")) {
      const void *nl = std::memchr(p_, '\n', size_t(end_ - p_));
      p_ = nl ? static_cast<const char *>(nl) + 1 : end_;
      continue;
    }
    const char *s = p_;
    if (!consumeKeyword("module")) return fail("expected 'module'");
    OpId mod = m.createOp("builtin.module", {}, {}, {}, 1);
    m.ops[mod].srcOffset = uint32_t(s - begin_);
    BlockId body = m.createBlock(m.region(mod, 0));
    if (peek() == '@') {
      std::string_view name;
      if (!parseSymbolName(name)) return false;
      m.setAttr(mod, "sym_name", m.attrs.string(name));
    }
    if (consumeKeyword("attributes")) {
      std::vector<NamedAttr> attrs;
      if (!parseAttrDict(attrs)) return false;
      for (const NamedAttr &a : attrs) m.setAttr(mod, m.names.str(a.name), a.value);
    }
    if (!expect('{')) return false;
    while (peek() != '}') {
      if (atEnd()) return fail("expected '}' to end module");
      if (!parseOperation(body)) return false;
    }
    ++p_;
    m.insertOp(block, mod);
  }
  return true;
}

std::unique_ptr<Module> parseModule(std::string text, const std::string &fileName,
                                    ParseError *error) {
  auto m = std::make_unique<Module>();
  m->source = std::make_shared<const std::string>(std::move(text));
  m->fileName = fileName;
  // One op per line is the norm: reserving up front avoids the transient
  // doubling of every array as it grows, which would dominate peak memory.
  size_t lines = size_t(std::count(m->source->begin(), m->source->end(), '\n')) + 1;
  m->ops.reserve(lines);
  m->values.reserve(lines + lines / 4);
  m->operandPool.reserve(2 * lines);
  m->attrPool.reserve(lines);
  Parser parser(*m, *m->source);
  if (!parser.parseTopLevel()) {
    if (error) {
      *error = parser.error();
      error->full = fileName + ":" + std::to_string(error->line) + ":" +
                    std::to_string(error->col) + ": error: " + error->message;
    }
    return nullptr;
  }
  return m;
}

bool readFile(const std::string &path, std::string &out, Diagnostics &diags) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    out = ss.str();
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("cannot open '" + path + "': " + std::strerror(errno));
    return false;
  }
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) {
    diags.error("cannot read '" + path + "'");
    return false;
  }
  out.resize(size_t(size));
  in.read(out.data(), size);
  if (!in) {
    diags.error("cannot read '" + path + "'");
    return false;
  }
  return true;
}

}  // namespace autopart
