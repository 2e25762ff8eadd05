#include "ir/StablehloAttrs.h"

namespace autopart {

std::optional<DotDims> getDotDims(const Module &m, OpId op) {
  DotDims d;
  if (m.isa(op, "stablehlo.dot")) {
    if (m.numOperands(op) != 2) return std::nullopt;
    int64_t lhsRank = m.types.rank(m.type(m.operand(op, 0)));
    d.lhsContract = {lhsRank - 1};
    d.rhsContract = {0};
    return d;
  }
  AttrId dn = m.attr(op, "dot_dimension_numbers");
  if (dn == kNoAttr) return std::nullopt;
  auto list = [&](const char *key) {
    AttrId a = m.attrs.field(dn, key);
    return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
  };
  d.lhsBatch = list("lhs_batching_dimensions");
  d.rhsBatch = list("rhs_batching_dimensions");
  d.lhsContract = list("lhs_contracting_dimensions");
  d.rhsContract = list("rhs_contracting_dimensions");
  return d;
}

// One bracketed list: letters name the special dims, digits the spatial ones
// in order.
static bool parseConvList(std::string_view &s, char a, char b, int64_t &ia, int64_t &ib,
                          std::vector<int64_t> &spatial) {
  while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  if (s.empty() || s[0] != '[') return false;
  size_t close = s.find(']');
  if (close == std::string_view::npos) return false;
  std::string_view body = s.substr(1, close - 1);
  s.remove_prefix(close + 1);
  std::vector<std::pair<int64_t, int64_t>> sp;  // (spatial index, position)
  int64_t pos = 0;
  ia = ib = -1;
  size_t i = 0;
  while (i < body.size()) {
    while (i < body.size() && (body[i] == ' ' || body[i] == ',')) ++i;
    if (i >= body.size()) break;
    if (body[i] == a) {
      ia = pos;
      ++i;
    } else if (body[i] == b) {
      ib = pos;
      ++i;
    } else if (body[i] >= '0' && body[i] <= '9') {
      int64_t v = 0;
      while (i < body.size() && body[i] >= '0' && body[i] <= '9') {
        v = v * 10 + (body[i++] - '0');
        if (v > 4096) return false;  // spatial dimension index, never this large
      }
      sp.push_back({v, pos});
    } else {
      return false;
    }
    ++pos;
  }
  spatial.assign(sp.size(), -1);
  for (auto [index, position] : sp) {
    if (index < 0 || size_t(index) >= sp.size()) return false;
    spatial[size_t(index)] = position;
  }
  return ia >= 0 && ib >= 0;
}

std::optional<ConvDims> parseConvDims(std::string_view text) {
  ConvDims d;
  std::string_view s = text;
  if (!parseConvList(s, 'b', 'f', d.inputBatch, d.inputFeature, d.inputSpatial)) return std::nullopt;
  while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  if (s.empty() || s[0] != 'x') return std::nullopt;
  s.remove_prefix(1);
  if (!parseConvList(s, 'i', 'o', d.kernelInput, d.kernelOutput, d.kernelSpatial)) return std::nullopt;
  while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  if (!s.starts_with("->")) return std::nullopt;
  s.remove_prefix(2);
  if (!parseConvList(s, 'b', 'f', d.outputBatch, d.outputFeature, d.outputSpatial)) return std::nullopt;
  return d;
}

std::optional<ConvDims> getConvDims(const Module &m, OpId op) {
  AttrId a = m.attr(op, "dimension_numbers");
  if (a == kNoAttr) return std::nullopt;
  std::string_view t = m.attrs.get(a).text;
  size_t open = t.find('<');
  if (open == std::string_view::npos || t.back() != '>') return std::nullopt;
  t = t.substr(open + 1, t.size() - open - 2);
  if (t.starts_with("raw")) t.remove_prefix(3);
  return parseConvDims(t);
}

}  // namespace autopart
