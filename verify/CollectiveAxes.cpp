#include "verify/CollectiveAxes.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <tuple>

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
  bool integer(int64_t &v) {
    skipWs();
    size_t b = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    return std::from_chars(s_.data() + b, s_.data() + i_, v).ec == std::errc();
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
    if (consume(':') && consume('(')) {
      return integer(a.preSize) && consume(')') && integer(a.subSize);
    }
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

std::optional<CollectiveAxes> parseCollectiveAxes(std::string_view text) {
  AxesReader r(text);
  CollectiveAxes out;
  if (std::isalpha(static_cast<unsigned char>(r.peek()))) out.reductionOp = std::string(r.word());
  if (r.peek() == '{') {
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

std::string axisListBrackets(const AxisList &axes) {
  std::string s = "[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) s += ", ";
    s += axes[i].str();
  }
  return s + "]";
}

bool verifyAxisList(const AxisList &axes, const Mesh &mesh, AxisList &seen,
                    const std::function<void(const std::string &)> &emit) {
  const AxisRef *prev = nullptr;
  for (const AxisRef &a : axes) {
    if (mesh.axisIndex(a.name) < 0) {
      emit("unknown axis name: \"" + a.name + "\"");
      return false;
    }
    if (std::find(seen.begin(), seen.end(), a) != seen.end()) {
      emit("duplicate axis ref: " + a.str());
      return false;
    }
    seen.push_back(a);
    // "x":(1)2, "x":(2)2 is "x":(1)4 (or "x") written in two pieces.
    if (prev && prev->isSubAxis() && a.isSubAxis() && prev->name == a.name &&
        prev->preSize * prev->subSize == a.preSize) {
      emit("two consecutive sub-axes can be merged: " + prev->str() + ", " + a.str());
      return false;
    }
    prev = &a;
  }
  return true;
}

bool isSortedByMesh(const AxisList &axes, const Mesh &mesh) {
  auto key = [&](const AxisRef &a) {
    return std::tuple(mesh.axisIndex(a.name), axisStart(a), a.size(mesh));
  };
  for (size_t i = 1; i < axes.size(); ++i)
    if (key(axes[i]) < key(axes[i - 1])) return false;
  return true;
}

bool isAxisSuffixOf(const AxisRef &axis, const AxisRef &of, const Mesh &mesh) {
  return axis.name == of.name && axisEnd(axis, mesh) == axisEnd(of, mesh) &&
         axisStart(axis) >= axisStart(of);
}

std::optional<AxisList> gatherAlongDim(const AxisList &dim, const AxisList &gathering,
                                       const Mesh &mesh, AxisRef &bad) {
  AxisList out = dim;
  for (auto it = gathering.rbegin(); it != gathering.rend(); ++it) {
    if (out.empty() || !isAxisSuffixOf(*it, out.back(), mesh)) {
      bad = *it;
      return std::nullopt;
    }
    AxisRef last = out.back();
    out.pop_back();
    // Gathering the minor part of an axis leaves its major part sharded.
    if (axisStart(*it) > axisStart(last))
      out.push_back(makeAxis(last.name, axisStart(last), axisStart(*it) / axisStart(last), mesh));
  }
  return out;
}

AxisList sliceAlongDim(const AxisList &dim, const AxisList &slicing, const Mesh &mesh) {
  AxisList out = dim;
  for (const AxisRef &a : slicing) appendOrMerge(out, a, mesh);
  return out;
}

}  // namespace autopart
