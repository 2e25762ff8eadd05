#include "ir/CollectiveAxes.h"

#include <cctype>
#include <charconv>

namespace autopart {

namespace {

// A cursor over the axes text; every read skips leading blanks.
class AxesReader {
public:
  explicit AxesReader(std::string_view text) : s_(text) {}

  bool atEnd() {
    skipWs();
    return i_ == s_.size();
  }
  char peek() {
    skipWs();
    return i_ < s_.size() ? s_[i_] : '\0';
  }
  bool consume(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  bool consume(std::string_view word) {
    skipWs();
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  std::string_view word() {
    skipWs();
    size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      ++i_;
    return s_.substr(b, i_ - b);
  }
  // Negative dimensions are read, so that the verifier can name them.
  bool integer(int64_t &v) {
    skipWs();
    size_t b = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    auto [end, ec] = std::from_chars(s_.data() + b, s_.data() + i_, v);
    return ec == std::errc() && end == s_.data() + i_;
  }
  // `"name"` or `"name":(pre)size`.
  bool axis(AxisRef &a) {
    if (!consume('"')) return false;
    size_t b = i_;
    while (i_ < s_.size() && s_[i_] != '"') i_ += s_[i_] == '\\' ? 2 : 1;
    if (i_ >= s_.size()) return false;
    a.name = std::string(s_.substr(b, i_ - b));
    ++i_;
    size_t save = i_;
    if (consume(':') && consume('(')) return integer(a.preSize) && consume(')') && integer(a.subSize);
    i_ = save;
    return true;
  }
  // `{"a", "b":(1)2}`.
  bool axisList(AxisList &axes) {
    if (!consume('{')) return false;
    if (consume('}')) return true;
    do {
      AxisRef a;
      if (!axis(a)) return false;
      axes.push_back(std::move(a));
    } while (consume(','));
    return consume('}');
  }

private:
  void skipWs() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

CollectiveAxes CollectiveAxes::ofDims(std::string reduction, std::vector<AxisList> dims) {
  CollectiveAxes out;
  out.reduction = std::move(reduction);
  out.perDim = std::move(dims);
  return out;
}

CollectiveAxes CollectiveAxes::ofParams(std::vector<AllToAllParam> params) {
  CollectiveAxes out;
  out.params = std::move(params);
  return out;
}

bool CollectiveAxes::allEmpty() const {
  for (const AxisList &d : perDim)
    if (!d.empty()) return false;
  return true;
}

std::string CollectiveAxes::str() const {
  std::string out = reduction.empty() ? "" : reduction + " ";
  if (!bracketed) return out + axisListStr(axes);
  out += '[';
  for (size_t i = 0; i < perDim.size(); ++i) {
    if (i) out += ", ";
    out += axisListStr(perDim[i]);
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) out += ", ";
    out += axisListStr(params[i].axes) + ": " + std::to_string(params[i].srcDim) + "->" +
           std::to_string(params[i].tgtDim);
  }
  return out + ']';
}

std::optional<CollectiveAxes> parseCollectiveAxes(std::string_view text) {
  AxesReader r(text);
  CollectiveAxes out;
  if (std::isalpha(static_cast<unsigned char>(r.peek()))) out.reduction = std::string(r.word());
  if (r.peek() == '{') {
    out.bracketed = false;
    if (!r.axisList(out.axes) || !r.atEnd()) return std::nullopt;
    return out;
  }
  if (!r.consume('[')) return std::nullopt;
  if (r.consume(']')) return r.atEnd() ? std::optional(out) : std::nullopt;
  do {
    AxisList axes;
    if (!r.axisList(axes)) return std::nullopt;
    if (r.consume(':')) {
      AllToAllParam p{std::move(axes)};
      if (!r.integer(p.srcDim) || !r.consume("->") || !r.integer(p.tgtDim)) return std::nullopt;
      out.params.push_back(std::move(p));
    } else {
      out.perDim.push_back(std::move(axes));
    }
  } while (r.consume(','));
  if (!r.consume(']') || !r.atEnd()) return std::nullopt;
  // A list is either all parameters or all dimensions.
  if (!out.params.empty() && !out.perDim.empty()) return std::nullopt;
  return out;
}

}  // namespace autopart
