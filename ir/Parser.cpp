// The generic MLIR grammar: module structure, regions and blocks, values,
// types, attributes and generic-form ops. Custom op forms are in *Syntax.cpp.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "ir/OpSyntax.h"
#include "ir/ParserImpl.h"

namespace autopart {

namespace {
constexpr int kMaxNesting = 512;

bool isIdStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdChar(char c) {
  return isIdStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-';
}
bool isSuffixIdChar(char c) {  // %names and @names
  return isIdStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-';
}
}  // namespace

Parser::Parser(Module &mod, std::string_view text)
    : m(mod), begin_(text.data()), p_(text.data()), end_(text.data() + text.size()) {}

// --- Lexing ------------------------------------------------------------------

void Parser::skipWs() {
  while (p_ < end_) {
    char c = *p_;
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      ++p_;
    } else if (c == '/' && p_ + 1 < end_ && p_[1] == '/') {
      const void *nl = std::memchr(p_, '\n', size_t(end_ - p_));
      p_ = nl ? static_cast<const char *>(nl) + 1 : end_;
    } else {
      break;
    }
  }
}

bool Parser::fail(const std::string &message) { return failAt(p_, message); }

bool Parser::failAt(const char *where, const std::string &message) {
  if (failed_) return false;
  failed_ = true;
  SourceLoc l = m.lineCol(uint32_t(where - begin_));
  error_.line = l.line;
  error_.col = l.col;
  error_.message = message;
  return false;
}

bool Parser::consumeIf(char c) {
  skipWs();
  if (p_ < end_ && *p_ == c) {
    ++p_;
    return true;
  }
  return false;
}

bool Parser::consumeStr(std::string_view s) {
  skipWs();
  if (std::string_view(p_, size_t(end_ - p_)).starts_with(s)) {
    p_ += s.size();
    return true;
  }
  return false;
}

bool Parser::consumeKeyword(std::string_view kw) {
  skipWs();
  std::string_view rest(p_, size_t(end_ - p_));
  if (!rest.starts_with(kw)) return false;
  if (rest.size() > kw.size() && isIdChar(rest[kw.size()])) return false;
  p_ += kw.size();
  return true;
}

static std::string describe(char c) {
  if (c == '\0') return "end of input";
  return std::string("'") + c + "'";
}

bool Parser::expect(char c) {
  if (consumeIf(c)) return true;
  return fail(std::string("expected '") + c + "', found " + describe(peek()));
}

bool Parser::expectStr(std::string_view s) {
  if (consumeStr(s)) return true;
  return fail("expected '" + std::string(s) + "'");
}

bool Parser::expectKeyword(std::string_view kw) {
  if (consumeKeyword(kw)) return true;
  return fail("expected '" + std::string(kw) + "'");
}

std::string_view Parser::parseBareId() {
  skipWs();
  if (p_ >= end_ || !isIdStart(*p_)) return {};
  const char *s = p_;
  while (p_ < end_ && isIdChar(*p_)) ++p_;
  return std::string_view(s, size_t(p_ - s));
}

bool Parser::parseInt(int64_t &v) {
  skipWs();
  const char *s = p_;
  bool neg = false;
  if (p_ < end_ && (*p_ == '-' || *p_ == '+')) {
    neg = *p_ == '-';
    ++p_;
  }
  if (p_ + 1 < end_ && p_[0] == '0' && p_[1] == 'x') {
    p_ += 2;
    uint64_t u = 0;
    auto r = std::from_chars(p_, end_, u, 16);
    if (r.ec != std::errc()) return failAt(s, "expected hexadecimal integer");
    p_ = r.ptr;
    v = neg ? -int64_t(u) : int64_t(u);
    return true;
  }
  uint64_t u = 0;
  auto r = std::from_chars(p_, end_, u);
  if (r.ec == std::errc::result_out_of_range) return failAt(s, "integer out of range");
  if (r.ec != std::errc()) return failAt(s, "expected integer");
  p_ = r.ptr;
  v = neg ? -int64_t(u) : int64_t(u);
  return true;
}

bool Parser::parseIntList(std::vector<int64_t> &out) {
  if (!expect('[')) return false;
  if (consumeIf(']')) return true;
  do {
    int64_t v;
    if (!parseInt(v)) return false;
    out.push_back(v);
  } while (consumeIf(','));
  return expect(']');
}

bool Parser::parseStringLiteral(std::string_view &contents) {
  skipWs();
  if (p_ >= end_ || *p_ != '"') return fail("expected string literal");
  const char *s = ++p_;
  while (p_ < end_ && *p_ != '"') {
    if (*p_ == '\\') ++p_;
    if (*p_ == '\n') return fail("unterminated string literal");
    ++p_;
  }
  if (p_ >= end_) return failAt(s - 1, "unterminated string literal");
  contents = std::string_view(s, size_t(p_ - s));
  ++p_;
  return true;
}

bool Parser::parseSymbolName(std::string_view &name) {
  if (!expect('@')) return false;
  if (p_ < end_ && *p_ == '"') return parseStringLiteral(name);
  const char *s = p_;
  while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
  name = std::string_view(s, size_t(p_ - s));
  if (name.empty()) return fail("expected symbol name after '@'");
  return true;
}

bool Parser::skipBalanced(char open, std::string_view &inner) {
  const char *start = p_;
  std::vector<char> stack{open};
  while (p_ < end_ && !stack.empty()) {
    char c = *p_;
    if (c == '"') {
      ++p_;
      while (p_ < end_ && *p_ != '"') {
        if (*p_ == '\\') ++p_;
        ++p_;
      }
      if (p_ >= end_) break;
      ++p_;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') stack.push_back(c);
    if (c == ')' || c == ']' || c == '}' || c == '>') {
      // `->` inside a balanced attribute (a function type) is not a bracket.
      if (c == '>' && p_ > start && p_[-1] == '-') {
        ++p_;
        continue;
      }
      char want = stack.back() == '(' ? ')' : stack.back() == '[' ? ']' : stack.back() == '{' ? '}' : '>';
      if (c != want) return fail(std::string("unbalanced '") + c + "'");
      stack.pop_back();
    }
    ++p_;
  }
  if (!stack.empty()) return failAt(start, std::string("unterminated '") + open + "'");
  inner = std::string_view(start, size_t(p_ - 1 - start));
  return true;
}

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

// --- Types -------------------------------------------------------------------

bool Parser::parseTensorType(TypeId &t) {
  // Fast path: a spelling seen before is one hash lookup.
  const char *start = p_ - 7;  // "tensor<" already consumed
  const char *close = static_cast<const char *>(std::memchr(p_, '>', size_t(end_ - p_)));
  if (close) {
    std::string_view whole(start, size_t(close + 1 - start));
    if (TypeId id = m.types.lookup(whole); id != kNoType) {
      p_ = close + 1;
      t = id;
      return true;
    }
  }
  if (p_ < end_ && *p_ == '*') {
    ++p_;
    if (!expect('x')) return false;
    TypeId e;
    if (!parseType(e) || !expect('>')) return false;
    t = m.types.unrankedTensor(e);
    return true;
  }
  std::vector<int64_t> shape;
  while (true) {
    if (p_ < end_ && *p_ == '?') {
      ++p_;
      shape.push_back(kDynamic);
    } else if (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
      uint64_t d = 0;
      auto r = std::from_chars(p_, end_, d);
      if (r.ec != std::errc() || d > (uint64_t(1) << 53)) return fail("tensor dimension out of range");
      p_ = r.ptr;
      shape.push_back(int64_t(d));
    } else {
      break;
    }
    if (p_ >= end_ || *p_ != 'x') return fail("expected 'x' in tensor shape");
    ++p_;
  }
  TypeId elem;
  if (!parseType(elem)) return false;
  std::string_view encoding;
  if (consumeIf(',')) {
    skipWs();
    const char *encStart = p_;
    AttrId enc;
    if (!parseAttr(enc)) return false;
    encoding = std::string_view(encStart, size_t(p_ - encStart));
  }
  if (!expect('>')) return false;
  t = m.types.tensor(shape, elem, encoding);
  return true;
}

bool Parser::parseType(TypeId &t) {
  skipWs();
  if (p_ >= end_) return fail("expected type, found end of input");
  if (++depth_ > kMaxNesting) return fail("type nesting too deep");
  struct DepthGuard {
    int &d;
    ~DepthGuard() { --d; }
  } guard{depth_};
  const char *s = p_;
  if (consumeStr("tensor<")) return parseTensorType(t);
  if (*p_ == '(') {
    std::vector<TypeId> ins, outs;
    if (!parseFunctionType(ins, outs)) return false;
    t = m.types.function(ins, outs);
    return true;
  }
  if (*p_ == '!') {
    ++p_;
    const char *nameStart = p_;
    while (p_ < end_ && isIdChar(*p_)) ++p_;
    std::string_view name(nameStart, size_t(p_ - nameStart));
    if (name.empty()) return fail("expected dialect type name after '!'");
    if (p_ < end_ && *p_ == '<') {
      ++p_;
      std::string_view inner;
      if (!skipBalanced('<', inner)) return false;
      t = m.types.opaque(std::string_view(s, size_t(p_ - s)));
      return true;
    }
    if (name == "stablehlo.token") {
      t = m.types.token();
      return true;
    }
    auto it = typeAliases_.find(name);
    if (it != typeAliases_.end()) {
      t = it->second;
      return true;
    }
    t = m.types.opaque(std::string_view(s, size_t(p_ - s)));
    return true;
  }
  std::string_view id = parseBareId();
  if (id.empty()) return failAt(s, "expected type, found " + describe(*s));
  if (id == "tuple" && consumeIf('<')) {
    std::vector<TypeId> members;
    if (!consumeIf('>')) {
      if (!parseTypeList(members) || !expect('>')) return false;
    }
    t = m.types.tuple(members);
    return true;
  }
  if (id == "complex" && consumeIf('<')) {
    TypeId inner;
    if (!parseType(inner) || !expect('>')) return false;
    t = m.types.scalar("complex<" + std::string(m.types.str(inner)) + ">");
    return true;
  }
  if (id == "none") {
    t = m.types.none();
    return true;
  }
  if (id == "memref" || id == "vector") {
    if (!expect('<')) return false;
    std::string_view inner;
    if (!skipBalanced('<', inner)) return false;
    t = m.types.opaque(std::string_view(s, size_t(p_ - s)));
    return true;
  }
  bool scalarLike = id == "index" || id == "bf16" || id == "tf32" ||
                    ((id[0] == 'i' || id[0] == 'f') && id.size() > 1 && id[1] >= '0' && id[1] <= '9') ||
                    ((id.starts_with("ui") || id.starts_with("si")) && id.size() > 2);
  if (!scalarLike) return failAt(s, "unknown type '" + std::string(id) + "'");
  t = m.types.scalar(id);
  return true;
}

bool Parser::parseTypeList(std::vector<TypeId> &ts) {
  do {
    TypeId t;
    if (!parseType(t)) return false;
    ts.push_back(t);
  } while (consumeIf(','));
  return true;
}

bool Parser::parseFunctionType(std::vector<TypeId> &ins, std::vector<TypeId> &outs) {
  if (!expect('(')) return false;
  if (!consumeIf(')')) {
    if (!parseTypeList(ins) || !expect(')')) return false;
  }
  if (!expectStr("->")) return false;
  if (peek() == '(') {
    // `-> (t1, t2)`, but also `-> (t) -> t` is a function-typed result.
    const char *save = p_;
    ++p_;
    std::vector<TypeId> list;
    if (consumeIf(')')) return true;
    if (!parseTypeList(list) || !expect(')')) return false;
    if (peekStr("->")) {
      p_ = save;
      TypeId f;
      if (!parseType(f)) return false;
      outs.push_back(f);
      return true;
    }
    outs = std::move(list);
    return true;
  }
  TypeId t;
  if (!parseType(t)) return false;
  outs.push_back(t);
  return true;
}

// --- Attributes -----------------------------------------------------------------

bool Parser::parseNumberAttr(AttrId &a, TypeId expectedType) {
  skipWs();
  const char *s = p_;
  if (p_ < end_ && (*p_ == '-' || *p_ == '+')) ++p_;
  bool isFloat = false;
  if (p_ + 1 < end_ && p_[0] == '0' && p_[1] == 'x') {
    p_ += 2;
    while (p_ < end_ && std::isxdigit(static_cast<unsigned char>(*p_))) ++p_;
  } else {
    while (p_ < end_ && ((*p_ >= '0' && *p_ <= '9') || *p_ == '.' || *p_ == 'e' || *p_ == 'E' ||
                         ((*p_ == '-' || *p_ == '+') && (p_[-1] == 'e' || p_[-1] == 'E')))) {
      if (*p_ == '.' || *p_ == 'e' || *p_ == 'E') isFloat = true;
      ++p_;
    }
  }
  std::string_view spelling(s, size_t(p_ - s));
  if (spelling.empty() || spelling == "-" || spelling == "+") return failAt(s, "expected number");
  TypeId type = expectedType;
  if (peek() == ':' && !(p_ + 1 < end_ && p_[1] == ':')) {
    const char *save = p_;
    ++p_;
    TypeId t;
    if (parseType(t)) {
      type = t;
    } else {
      // Not a type: the `:` belongs to the enclosing construct.
      failed_ = false;
      p_ = save;
    }
  }
  if (type != kNoType && m.types.isFloatElement(type)) isFloat = true;
  if (isFloat) {
    std::string buf(spelling);
    double v = std::strtod(buf.c_str(), nullptr);
    a = m.attrs.floating(v, spelling, type == expectedType ? kNoType : type);
    return true;
  }
  int64_t v;
  const char *save = p_;
  p_ = s;
  if (!parseInt(v)) return false;
  p_ = save;
  a = m.attrs.integer(v, type == expectedType ? kNoType : type);
  return true;
}

bool Parser::parseDenseLike(std::string_view prefix, AttrId &a, TypeId expectedType) {
  if (!expect('<')) return false;
  std::string_view body;
  if (!skipBalanced('<', body)) return false;
  TypeId type = expectedType;
  if (consumeIf(':')) {
    if (!parseType(type)) return false;
  } else if (type == kNoType) {
    return fail("expected ':' and a type after " + std::string(prefix) + "<...>");
  }
  a = m.attrs.denseElements(prefix, body, type);
  return true;
}

bool Parser::parseAxisList(std::vector<AxisRef> &axes) {
  if (!expect('{')) return false;
  if (consumeIf('}')) return true;
  do {
    std::string_view name;
    if (!parseStringLiteral(name)) return false;
    AxisRef ref;
    ref.name = std::string(name);
    if (consumeIf(':')) {
      if (!expect('(') || !parseInt(ref.preSize) || !expect(')') || !parseInt(ref.subSize))
        return false;
    }
    axes.push_back(std::move(ref));
  } while (consumeIf(','));
  return expect('}');
}

bool Parser::parseMesh(Mesh &mesh) {
  if (!expect('<') || !expect('[')) return false;
  if (!consumeIf(']')) {
    do {
      std::string_view name;
      MeshAxis axis;
      if (!parseStringLiteral(name) || !expect('=') || !parseInt(axis.size)) return false;
      axis.name = std::string(name);
      mesh.axes.push_back(axis);
    } while (consumeIf(','));
    if (!expect(']')) return false;
  }
  if (consumeIf(',')) {
    if (!expectKeyword("device_ids") || !expect('=') || !parseIntList(mesh.deviceIds)) return false;
  }
  // Device ids in iota order say nothing more than their absence; Shardy
  // drops them, and so must we for shardings to compare equal.
  if (!mesh.axes.empty() && !mesh.deviceIds.empty()) {
    bool iota = true;
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i) iota &= mesh.deviceIds[i] == int64_t(i);
    if (iota) mesh.deviceIds.clear();
  }
  return expect('>');
}

bool Parser::parseSharding(TensorSharding &s) {
  if (!expect('<')) return false;
  skipWs();
  if (peek() == '@') {
    ++p_;
    const char *n = p_;
    while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
    s.meshName = std::string(n, size_t(p_ - n));
    if (s.meshName.empty()) return fail("expected mesh name after '@'");
  } else if (peek() == '<') {
    Mesh mesh;
    if (!parseMesh(mesh)) return false;
    s.inlineMesh = std::move(mesh);
  } else if (peekStr("#sdy.mesh") || peekStr("mesh<")) {
    if (!consumeStr("#sdy.mesh")) consumeStr("mesh");
    Mesh mesh;
    if (!parseMesh(mesh)) return false;
    s.inlineMesh = std::move(mesh);
  } else {
    return fail("expected mesh name or inlined mesh in sharding");
  }
  if (!expect(',') || !expect('[')) return false;
  if (!consumeIf(']')) {
    do {
      DimSharding d;
      if (!expect('{')) return false;
      if (!consumeIf('}')) {
        do {
          if (consumeIf('?')) {
            d.closed = false;
            break;
          }
          std::string_view name;
          if (!parseStringLiteral(name)) return false;
          AxisRef ref;
          ref.name = std::string(name);
          if (consumeIf(':')) {
            if (!expect('(') || !parseInt(ref.preSize) || !expect(')') || !parseInt(ref.subSize))
              return false;
          }
          d.axes.push_back(std::move(ref));
        } while (consumeIf(','));
        if (!expect('}')) return false;
      }
      if (p_ < end_ && *p_ == 'p') {
        ++p_;
        int64_t prio;
        if (!parseInt(prio)) return false;
        d.priority = prio;
      }
      s.dims.push_back(std::move(d));
    } while (consumeIf(','));
    if (!expect(']')) return false;
  }
  while (consumeIf(',')) {
    std::string_view key = parseBareId();
    if (key == "replicated") {
      if (!expect('=') || !parseAxisList(s.replicated)) return false;
    } else if (key == "unreduced") {
      if (!expect('=')) return false;
      s.unreducedKind = std::string(parseBareId());
      if (!parseAxisList(s.unreduced)) return false;
    } else {
      return fail("expected 'replicated' or 'unreduced' in sharding");
    }
  }
  return expect('>');
}

// Factor symbols: i..z, z_1, z_2, ...; a dimension is a concatenation.
static bool parseFactorSymbols(Parser &p, std::vector<int32_t> &factors) {
  p.skipWs();
  const char *s = p.pos();
  const char *q = s;
  while (true) {
    char c = *q;
    if (c < 'i' || c > 'z') break;
    ++q;
    int32_t index = c - 'i';
    if (c == 'z' && *q == '_') {
      ++q;
      int64_t n = 0;
      const char *d = q;
      while (*q >= '0' && *q <= '9') {
        n = n * 10 + (*q++ - '0');
        if (n > (1 << 20)) return p.failAt(d, "factor index after 'z_' is too large");
      }
      if (q == d) return p.failAt(q, "expected factor number after 'z_'");
      index = int32_t(('z' - 'i') + n);
    }
    factors.push_back(index);
  }
  if (q == s) return p.failAt(s, "expected factor symbol");
  p.setPos(q);
  return true;
}

static bool parseRuleTensors(Parser &p, std::vector<OpShardingRule::TensorFactors> &ts) {
  if (!p.expect('(')) return false;
  if (p.consumeIf(')')) return true;
  do {
    OpShardingRule::TensorFactors t;
    if (!p.expect('[')) return false;
    if (!p.consumeIf(']')) {
      do {
        OpShardingRule::DimFactors d;
        if (!parseFactorSymbols(p, d)) return false;
        t.push_back(std::move(d));
      } while (p.consumeIf(','));
      if (!p.expect(']')) return false;
    }
    ts.push_back(std::move(t));
  } while (p.consumeIf(','));
  return p.expect(')');
}

static bool parseFactorSet(Parser &p, std::vector<int32_t> &out) {
  if (!p.expect('=') || !p.expect('{')) return false;
  if (p.consumeIf('}')) return true;
  do {
    if (!parseFactorSymbols(p, out)) return false;
  } while (p.consumeIf(','));
  return p.expect('}');
}

bool Parser::parseShardingRule(OpShardingRule &r) {
  if (!expect('<') || !parseRuleTensors(*this, r.operands) || !expectStr("->") ||
      !parseRuleTensors(*this, r.results))
    return false;
  if (consumeIf('{')) {
    if (!consumeIf('}')) {
      do {
        std::vector<int32_t> f;
        if (!parseFactorSymbols(*this, f) || f.size() != 1) return fail("expected factor symbol");
        int64_t size;
        if (!expect('=') || !parseInt(size)) return false;
        if (size_t(f[0]) >= r.factorSizes.size()) r.factorSizes.resize(size_t(f[0]) + 1, 1);
        r.factorSizes[size_t(f[0])] = size;
      } while (consumeIf(','));
      if (!expect('}')) return false;
    }
  }
  while (true) {
    if (consumeKeyword("reduction")) {
      if (!parseFactorSet(*this, r.reductionFactors)) return false;
    } else if (consumeKeyword("need_replication")) {
      if (!parseFactorSet(*this, r.needReplicationFactors)) return false;
    } else if (consumeKeyword("permutation")) {
      if (!parseFactorSet(*this, r.permutationFactors)) return false;
    } else if (consumeKeyword("blocked_propagation")) {
      if (!parseFactorSet(*this, r.blockedPropagationFactors)) return false;
    } else {
      break;
    }
  }
  if (consumeIf(',')) {
    if (!expectKeyword("custom")) return false;
    r.isCustom = true;
  }
  return expect('>');
}

bool Parser::parseDialectAttr(AttrId &a) {
  // At '#'.
  const char *s = p_;
  ++p_;
  const char *nameStart = p_;
  while (p_ < end_ && isIdChar(*p_)) ++p_;
  std::string_view name(nameStart, size_t(p_ - nameStart));
  if (name.empty()) return fail("expected attribute name after '#'");
  bool hasBody = p_ < end_ && *p_ == '<';
  if (!hasBody) {
    auto it = attrAliases_.find(name);
    if (it != attrAliases_.end()) {
      // Re-parse the alias' definition in place.
      const char *save = p_;
      const char *saveEnd = end_;
      p_ = it->second.data();
      end_ = it->second.data() + it->second.size();
      bool ok = parseAttr(a);
      p_ = save;
      end_ = saveEnd;
      return ok;
    }
    return failAt(s, "undefined attribute alias #" + std::string(name));
  }
  if (name == "sdy.sharding") {
    TensorSharding sh;
    if (!parseSharding(sh)) return false;
    a = m.attrs.sharding(std::move(sh));
    return true;
  }
  if (name == "sdy.sharding_per_value") {
    std::vector<TensorSharding> list;
    if (!expect('<') || !expect('[')) return false;
    if (!consumeIf(']')) {
      do {
        TensorSharding sh;
        consumeStr("#sdy.sharding");
        if (!parseSharding(sh)) return false;
        list.push_back(std::move(sh));
      } while (consumeIf(','));
      if (!expect(']')) return false;
    }
    if (!expect('>')) return false;
    a = m.attrs.shardingPerValue(std::move(list));
    return true;
  }
  if (name == "sdy.op_sharding_rule") {
    OpShardingRule r;
    if (!parseShardingRule(r)) return false;
    a = m.attrs.shardingRule(std::move(r));
    return true;
  }
  if (name == "sdy.mesh") {
    Mesh mesh;
    if (!parseMesh(mesh)) return false;
    a = m.attrs.mesh(std::move(mesh));
    return true;
  }
  // `#dialect.name<key = value, ...>` keeps its parts when every entry has
  // that shape; anything else is kept as written.
  ++p_;
  const char *bodyStart = p_;
  std::vector<std::pair<NameId, AttrId>> entries;
  bool structured = name.find('.') != std::string_view::npos;
  if (structured && !consumeIf('>')) {
    while (true) {
      std::string_view key = parseBareId();
      if (key.empty()) {
        structured = false;
        break;
      }
      AttrId v;
      if (consumeIf('=')) {
        const char *save = p_;
        if (!parseAttr(v)) {
          failed_ = false;
          p_ = save;
          structured = false;
          break;
        }
      } else {
        v = m.attrs.unit();
      }
      entries.push_back({m.names.get(key), v});
      if (consumeIf(',')) continue;
      if (consumeIf('>')) break;
      structured = false;
      break;
    }
  }
  if (structured) {
    a = m.attrs.dialectStruct(name, std::move(entries));
    return true;
  }
  p_ = bodyStart;
  std::string_view inner;
  if (!skipBalanced('<', inner)) return false;
  a = m.attrs.opaque(std::string_view(s, size_t(p_ - s)));
  return true;
}

bool Parser::parseAttr(AttrId &a, TypeId expectedType) {
  skipWs();
  if (p_ >= end_) return fail("expected attribute value, found end of input");
  if (++depth_ > kMaxNesting) return fail("attribute nesting too deep");
  struct DepthGuard {
    int &d;
    ~DepthGuard() { --d; }
  } guard{depth_};
  const char *s = p_;
  char c = *p_;
  if (c == '{') {
    std::vector<NamedAttr> entries;
    if (!parseAttrDict(entries)) return false;
    std::vector<std::pair<NameId, AttrId>> kv;
    kv.reserve(entries.size());
    for (const NamedAttr &e : entries) kv.push_back({e.name, e.value});
    a = m.attrs.dict(std::move(kv));
    return true;
  }
  if (c == '[') {
    ++p_;
    std::vector<AttrId> elems;
    if (!consumeIf(']')) {
      do {
        AttrId e;
        if (!parseAttr(e)) return false;
        elems.push_back(e);
      } while (consumeIf(','));
      if (!expect(']')) return false;
    }
    a = m.attrs.array(std::move(elems));
    return true;
  }
  if (c == '"') {
    std::string_view contents;
    if (!parseStringLiteral(contents)) return false;
    a = m.attrs.string(contents);
    return true;
  }
  if (c == '@') {
    ++p_;
    if (p_ < end_ && *p_ == '"') {
      std::string_view q;
      if (!parseStringLiteral(q)) return false;
    } else {
      while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
    }
    while (p_ + 2 < end_ && p_[0] == ':' && p_[1] == ':' && p_[2] == '@') {
      p_ += 3;
      while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
    }
    a = m.attrs.symbolRef(std::string_view(s, size_t(p_ - s)));
    return true;
  }
  if (c == '#') return parseDialectAttr(a);
  if (c == '-' || c == '+' || (c >= '0' && c <= '9')) return parseNumberAttr(a, expectedType);
  if (isIdStart(c)) {
    const char *save = p_;
    std::string_view id = parseBareId();
    if (id == "true" || id == "false") {
      a = m.attrs.boolean(id == "true");
      return true;
    }
    if (id == "unit") {
      a = m.attrs.unit();
      return true;
    }
    if (id == "dense" || id == "dense_resource" || id == "sparse")
      return parseDenseLike(id, a, expectedType);
    if (id == "array") {
      if (!expect('<')) return false;
      TypeId elem;
      if (!parseType(elem)) return false;
      std::vector<int64_t> ints;
      std::vector<double> floats;
      std::vector<std::string> spellings;
      bool isFloat = m.types.isFloatElement(elem);
      if (consumeIf(':')) {
        do {
          skipWs();
          if (consumeKeyword("true")) {
            ints.push_back(1);
          } else if (consumeKeyword("false")) {
            ints.push_back(0);
          } else if (isFloat) {
            const char *ns = p_;
            AttrId num;
            if (!parseNumberAttr(num, elem)) return false;
            floats.push_back(m.attrs.get(num).floatValue);
            spellings.emplace_back(ns, size_t(p_ - ns));
          } else {
            int64_t v;
            if (!parseInt(v)) return false;
            ints.push_back(v);
          }
        } while (consumeIf(','));
      }
      if (!expect('>')) return false;
      a = isFloat ? m.attrs.denseArrayFloat(elem, std::move(floats), std::move(spellings))
                  : m.attrs.denseArray(elem, std::move(ints));
      return true;
    }
    if (id == "loc" || id == "affine_map" || id == "affine_set" || id == "distinct") {
      if (!expect(id == "distinct" ? '[' : '(')) {
        if (id != "distinct") return false;
      }
      std::string_view inner;
      if (!skipBalanced(id == "distinct" ? '[' : '(', inner)) return false;
      if (id == "distinct") {
        if (!expect('<')) return false;
        if (!skipBalanced('<', inner)) return false;
      }
      a = m.attrs.opaque(std::string_view(s, size_t(p_ - s)));
      return true;
    }
    // A type used as an attribute (`function_type = (...) -> ...`, `i32`).
    p_ = save;
    TypeId t;
    if (!parseType(t)) return false;
    a = m.attrs.typeAttr(t);
    return true;
  }
  if (c == '(' || c == '!') {
    TypeId t;
    if (!parseType(t)) return false;
    a = m.attrs.typeAttr(t);
    return true;
  }
  return failAt(s, "expected attribute value, found " + describe(c));
}

bool Parser::parseAttrDict(std::vector<NamedAttr> &attrs) {
  if (!expect('{')) return false;
  if (consumeIf('}')) return true;
  do {
    skipWs();
    std::string_view key;
    if (peek() == '"') {
      if (!parseStringLiteral(key)) return false;
    } else {
      key = parseBareId();
      if (key.empty()) return fail("expected attribute name, found " + describe(peek()));
    }
    AttrId v;
    if (consumeIf('=')) {
      if (!parseAttr(v)) return false;
    } else {
      v = m.attrs.unit();
    }
    attrs.push_back({m.names.get(key), v});
  } while (consumeIf(','));
  return expect('}');
}

bool Parser::parseOptionalLoc(AttrId &loc) {
  if (!consumeKeyword("loc")) return true;
  const char *s = p_ - 3;
  if (!expect('(')) return false;
  std::string_view inner;
  if (!skipBalanced('(', inner)) return false;
  loc = m.attrs.opaque(std::string_view(s, size_t(p_ - s)));
  return true;
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
  if (!parseOptionalAttrDict(st.attrs)) return false;
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
    if (name.empty()) return fail("expected operation name, found " + describe(peek()));
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
      skipWs();
      const char *nameStart = p_;
      if (*p_ == '@') {
        ++p_;
        while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
        m.setAttr(m.top, "sym_name",
                  m.attrs.string(std::string_view(nameStart + 1, size_t(p_ - nameStart - 1))));
      }
      if (consumeKeyword("attributes")) {
        std::vector<NamedAttr> attrs;
        if (!parseAttrDict(attrs)) return false;
        for (const NamedAttr &a : attrs) m.setAttr(m.top, m.names.str(a.name), a.value);
      }
      if (!expect('{')) return false;
      if (!parseModuleBody(m.top, true)) return false;
      AttrId loc = kNoAttr;
      if (!parseOptionalLoc(loc)) return false;
      m.ops[m.top].loc = loc;
      continue;
    }
    if (sawModule) return fail("unexpected " + describe(*p_) + " after the module");
    BlockId block = m.regions[m.region(m.top, 0)].blocks[0];
    if (!parseOperation(block)) return false;
  }
  return true;
}

bool Parser::parseNestedModules() {
  // The module parsed so far becomes the first nested one.
  OpId first = m.top;
  m.top = m.createOp("builtin.module", {}, {}, {}, 1);
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
    skipWs();
    if (*p_ == '@') {
      const char *n = ++p_;
      while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
      m.setAttr(mod, "sym_name", m.attrs.string(std::string_view(n, size_t(p_ - n))));
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

bool readFile(const std::string &path, std::string &out, std::string *error) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    out = ss.str();
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) {
    if (error) *error = "cannot read '" + path + "'";
    return false;
  }
  out.resize(size_t(size));
  in.read(out.data(), size);
  if (!in) {
    if (error) *error = "cannot read '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace autopart
