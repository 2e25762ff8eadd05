// Type parsing: `tensor<4x?xf32>`, scalars (`f32`, `i1`, `index`),
// `complex<f32>`, `tuple<...>`, `none`, function types `(t1) -> (t2, t3)`,
// `!dialect.types` and `!alias` uses. A tensor type spelled before is one
// hash lookup (Module::types.lookup) instead of a parse.
#include <charconv>
#include <cstring>

#include "asm/Lexer.h"
#include "asm/ParserImpl.h"

namespace autopart {

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
  if (id.empty()) return failAt(s, "expected type, found " + describeChar(*s));
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

}  // namespace autopart
