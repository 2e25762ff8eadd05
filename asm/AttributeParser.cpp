// Attribute parsing: numbers, strings, arrays, dense elements, dictionaries,
// locations and `#dialect<...>` attributes. The bodies of the Shardy
// attributes (meshes, shardings, sharding rules) are in ir/ShardingParser.cpp.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "asm/Lexer.h"
#include "asm/ParserImpl.h"

namespace autopart {

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

bool Parser::failContext(const char *where, const std::string &message) {
  if (!failed_) return false;
  SourceLoc l = m.lineCol(uint32_t(where - begin_));
  ParseError e;
  e.line = l.line;
  e.col = l.col;
  e.message = message;
  error_.context.push_back(std::move(e));
  return false;
}

void Parser::prefixErrors(std::string_view prefix) {
  if (!failed_) return;
  error_.message.insert(0, prefix);
  for (ParseError &e : error_.context) e.message.insert(0, prefix);
}

bool Parser::parseDenseLike(std::string_view prefix, AttrId &a, TypeId expectedType) {
  if (!expect('<')) return false;
  std::string_view body;
  if (!skipBalanced('<', body)) return false;
  TypeId type = expectedType;
  const char *typeStart = p_;
  if (consumeIf(':')) {
    skipWs();
    typeStart = p_;
    if (!parseType(type)) return false;
  } else if (type == kNoType) {
    return fail("expected ':' and a type after " + std::string(prefix) + "<...>");
  }
  // A literal lists every element, so its type must say how many there are.
  if (prefix != "dense_resource") {
    const TypeStorage &t = m.types.get(type);
    if (t.kind == TypeKind::UnrankedTensor ||
        (t.kind == TypeKind::Tensor &&
         std::find(t.shape.begin(), t.shape.end(), kDynamic) != t.shape.end()))
      return failAt(typeStart, "elements literal type must have static shape");
  }
  a = m.attrs.denseElements(prefix, body, type);
  return true;
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
        if (!parseSharding(sh))
          return failContext(s, "failed to parse Sdy_TensorShardingPerValue parameter 'shardings' "
                                "which is to be a `::llvm::ArrayRef<TensorShardingAttr>`");
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
  return failAt(s, "expected attribute value, found " + describeChar(c));
}

bool Parser::parseOpAttrDict(OpState &st, std::string_view keyword) {
  skipWs();
  st.dictBegin = offset();
  st.dictEnd = kNone;
  st.dictKeyword = !keyword.empty();
  if (!keyword.empty()) {
    if (!consumeKeyword(keyword)) return true;
    skipWs();
    st.dictBegin = offset();
  } else if (peek() != '{') {
    return true;
  }
  if (!parseAttrDict(st.attrs)) return false;
  st.dictEnd = offset();
  return true;
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
      if (key.empty()) return fail("expected attribute name, found " + describeChar(peek()));
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

}  // namespace autopart
