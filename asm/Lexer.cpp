// The lexing members of Parser: whitespace and comments, punctuation and
// keywords, integers, string literals, symbol names and balanced brackets.
// They read the bytes in place; see ir/ParserImpl.h.
#include <charconv>
#include <cstring>

#include "asm/Lexer.h"
#include "asm/ParserImpl.h"

namespace autopart {

std::string describeChar(char c) {
  if (c == '\0') return "end of input";
  return std::string("'") + c + "'";
}

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

bool Parser::expect(char c) {
  if (consumeIf(c)) return true;
  return fail(std::string("expected '") + c + "', found " + describeChar(peek()));
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

}  // namespace autopart
