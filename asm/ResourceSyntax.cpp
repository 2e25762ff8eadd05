#include "asm/ResourceSyntax.h"

#include <cctype>

namespace autopart {
namespace {

class ResourceScanner {
public:
  ResourceScanner(std::string_view text, size_t pos) : s_(text), p_(pos) {}

  bool parseGroups(std::vector<std::pair<std::string_view, std::string_view>> &blobs) {
    // `dialect_resources: {...}` and `external_resources: {...}`, comma separated.
    while (true) {
      skipWs();
      if (s_.substr(p_, 3) == "#-}") return true;
      std::string_view group;
      if (!key(group) || !expect(':') || !expect('{')) return false;
      while (true) {
        skipWs();
        if (peek('}')) break;
        std::string_view owner;  // a dialect name, or an external tool's name
        if (!key(owner) || !expect(':') || !expect('{')) return false;
        if (!entries(group == "dialect_resources" && owner == "builtin", blobs)) return false;
        skipWs();
        if (!peek(',')) continue;
      }
      skipWs();
      peek(',');
    }
  }

  size_t pos() const { return p_; }
  std::string error;

private:
  // key: value pairs up to the closing '}'; blobs kept when `keep`.
  bool entries(bool keep, std::vector<std::pair<std::string_view, std::string_view>> &blobs) {
    while (true) {
      skipWs();
      if (peek('}')) return true;
      std::string_view k, v;
      if (!key(k) || !expect(':')) return false;
      skipWs();
      if (p_ < s_.size() && s_[p_] == '"') {
        if (!quoted(v)) return false;
        if (keep) blobs.push_back({k, v});
      } else if (!skipValue()) {
        return false;
      }
      skipWs();
      peek(',');
    }
  }

  // A bare identifier or a quoted string.
  bool key(std::string_view &k) {
    skipWs();
    if (p_ < s_.size() && s_[p_] == '"') return quoted(k);
    size_t b = p_;
    while (p_ < s_.size() && (std::isalnum((unsigned char)s_[p_]) || s_[p_] == '_' || s_[p_] == '.' || s_[p_] == '$' ||
                              s_[p_] == '-'))
      ++p_;
    if (p_ == b) return fail("expected a resource key");
    k = s_.substr(b, p_ - b);
    return true;
  }

  bool quoted(std::string_view &v) {
    size_t b = ++p_;
    while (p_ < s_.size() && s_[p_] != '"') p_ += s_[p_] == '\\' ? 2 : 1;
    if (p_ >= s_.size()) return fail("unterminated string in the resource block");
    v = s_.substr(b, p_ - b);
    ++p_;
    return true;
  }

  // A non-string value (`true`, `{...}`): up to the next ',' or '}' at depth 0.
  bool skipValue() {
    int depth = 0;
    for (; p_ < s_.size(); ++p_) {
      char c = s_[p_];
      if (c == '{' || c == '[') ++depth;
      else if ((c == '}' || c == ']') && depth-- == 0) return true;
      else if (c == ',' && depth == 0) return true;
    }
    return fail("unterminated value in the resource block");
  }

  void skipWs() {
    while (p_ < s_.size()) {
      if (std::isspace((unsigned char)s_[p_])) ++p_;
      else if (s_.substr(p_, 2) == "//") p_ = std::min(s_.find('\n', p_), s_.size());
      else break;
    }
  }
  bool peek(char c) {
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool expect(char c) {
    skipWs();
    if (peek(c)) return true;
    return fail(std::string("expected '") + c + "' in the resource block");
  }
  bool fail(std::string msg) {
    error = std::move(msg);
    return false;
  }

  std::string_view s_;
  size_t p_;
};

}  // namespace

bool parseResourceBlock(std::string_view block, std::vector<std::pair<std::string_view, std::string_view>> &blobs,
                        size_t &errorOffset, std::string &error) {
  ResourceScanner sc(block, block.starts_with("{-#") ? 3 : 0);
  if (sc.parseGroups(blobs)) return true;
  errorOffset = sc.pos();
  error = sc.error;
  return false;
}

}  // namespace autopart
