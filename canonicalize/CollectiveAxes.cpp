#include "canonicalize/CollectiveAxes.h"

#include <cctype>
#include <charconv>

namespace autopart::canonicalize {

namespace {

class Cursor {
public:
  explicit Cursor(std::string_view text) : s_(text) {}

  void skipWs() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool consume(char c) {
    skipWs();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool consume(std::string_view word) {
    skipWs();
    if (s_.substr(i_).starts_with(word)) {
      i_ += word.size();
      return true;
    }
    return false;
  }
  char peek() {
    skipWs();
    return i_ < s_.size() ? s_[i_] : '\0';
  }
  bool atEnd() {
    skipWs();
    return i_ == s_.size();
  }
  // A leading reduction keyword (`max`), or "" when the list starts at once.
  std::string word() {
    skipWs();
    size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return std::string(s_.substr(b, i_ - b));
  }
  std::optional<int64_t> integer() {
    skipWs();
    size_t b = i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s_.data() + b, s_.data() + i_, v);
    if (b == i_ || ec != std::errc() || end != s_.data() + i_) return std::nullopt;
    return v;
  }
  std::optional<std::string> quoted() {
    if (!consume('"')) return std::nullopt;
    size_t e = s_.find('"', i_);
    if (e == std::string_view::npos) return std::nullopt;
    std::string out(s_.substr(i_, e - i_));
    i_ = e + 1;
    return out;
  }

private:
  std::string_view s_;
  size_t i_ = 0;
};

// `"x"` or `"x":(2)4`.
std::optional<AxisRef> axisRef(Cursor &c) {
  std::optional<std::string> name = c.quoted();
  if (!name) return std::nullopt;
  AxisRef a;
  a.name = *name;
  if (c.consume(':')) {
    std::optional<int64_t> pre, size;
    if (!c.consume('(') || !(pre = c.integer()) || !c.consume(')') || !(size = c.integer())) return std::nullopt;
    a.preSize = *pre;
    a.subSize = *size;
  }
  return a;
}

// `{"x", "y"}`.
std::optional<AxisList> axisList(Cursor &c) {
  if (!c.consume('{')) return std::nullopt;
  AxisList out;
  if (c.consume('}')) return out;
  do {
    std::optional<AxisRef> a = axisRef(c);
    if (!a) return std::nullopt;
    out.push_back(std::move(*a));
  } while (c.consume(','));
  if (!c.consume('}')) return std::nullopt;
  return out;
}

std::string withReduction(const std::string &reduction, std::string body) {
  return reduction.empty() ? body : reduction + " " + body;
}

}  // namespace

bool PerDimAxes::allEmpty() const {
  for (const AxisList &d : dims)
    if (!d.empty()) return false;
  return true;
}

std::optional<PerDimAxes> parsePerDimAxes(std::string_view text) {
  Cursor c(text);
  PerDimAxes out;
  out.reduction = c.word();
  if (!c.consume('[')) return std::nullopt;
  if (!c.consume(']')) {
    do {
      std::optional<AxisList> dim = axisList(c);
      if (!dim) return std::nullopt;
      out.dims.push_back(std::move(*dim));
    } while (c.consume(','));
    if (!c.consume(']')) return std::nullopt;
  }
  if (!c.atEnd()) return std::nullopt;
  return out;
}

std::optional<FlatAxes> parseFlatAxes(std::string_view text) {
  Cursor c(text);
  FlatAxes out;
  out.reduction = c.word();
  std::optional<AxisList> axes = axisList(c);
  if (!axes || !c.atEnd()) return std::nullopt;
  out.axes = std::move(*axes);
  return out;
}

std::optional<AllToAllParams> parseAllToAllParams(std::string_view text) {
  Cursor c(text);
  AllToAllParams out;
  if (!c.consume('[')) return std::nullopt;
  if (!c.consume(']')) {
    do {
      AllToAllParam p;
      std::optional<AxisList> axes = axisList(c);
      std::optional<int64_t> src, tgt;
      if (!axes || !c.consume(':') || !(src = c.integer()) || !c.consume("->") || !(tgt = c.integer()))
        return std::nullopt;
      p.axes = std::move(*axes);
      p.srcDim = *src;
      p.tgtDim = *tgt;
      out.push_back(std::move(p));
    } while (c.consume(','));
    if (!c.consume(']')) return std::nullopt;
  }
  if (!c.atEnd()) return std::nullopt;
  return out;
}

std::string printPerDimAxes(const PerDimAxes &axes) {
  std::string body = "[";
  for (size_t i = 0; i < axes.dims.size(); ++i) {
    if (i) body += ", ";
    body += axisListStr(axes.dims[i]);
  }
  body += ']';
  return withReduction(axes.reduction, std::move(body));
}

std::string printFlatAxes(const FlatAxes &axes) {
  return withReduction(axes.reduction, axisListStr(axes.axes));
}

std::string printAllToAllParams(const AllToAllParams &params) {
  std::string out = "[";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) out += ", ";
    out += axisListStr(params[i].axes) + ": " + std::to_string(params[i].srcDim) + "->" +
           std::to_string(params[i].tgtDim);
  }
  out += ']';
  return out;
}

}  // namespace autopart::canonicalize
