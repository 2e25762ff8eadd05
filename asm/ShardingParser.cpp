// Parsing of the Shardy attribute bodies: axis lists `{"a", "b":(1)2}`,
// meshes `<["a"=2], device_ids=[...]>` and tensor shardings
// `<@mesh, [{...}]>` (sharding rules: ShardingRuleParser.cpp). The `#sdy.`
// prefixes around them are read by the attribute parser.
#include <algorithm>

#include "asm/Lexer.h"
#include "asm/ParserImpl.h"

namespace autopart {

namespace {

constexpr const char *kAxisListContext =
    "failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`";

std::string meshError(const Mesh &mesh) {
  std::vector<std::string_view> names;
  for (const MeshAxis &a : mesh.axes) {
    for (std::string_view n : names)
      if (n == a.name) return "duplicate axis name: \"" + a.name + "\"";
    names.push_back(a.name);
  }
  for (int64_t id : mesh.deviceIds)
    if (id < 0) return "device id must be non-negative, got: " + std::to_string(id);
  if (mesh.deviceIds.empty()) return "";
  if (mesh.axes.empty())
    return mesh.deviceIds.size() > 1 ? "axes is empty and device_ids has more than one element"
                                     : "";
  int64_t product = 1;
  for (const MeshAxis &a : mesh.axes)
    if (__builtin_mul_overflow(product, a.size, &product)) product = -1;
  if (product != int64_t(mesh.deviceIds.size()))
    return "total product of axis sizes must match total number of device ids, got: " +
           std::to_string(product) + " != " + std::to_string(mesh.deviceIds.size());
  std::vector<int64_t> sorted = mesh.deviceIds;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] == int64_t(i)) continue;
    std::string got;
    for (size_t j = 0; j < sorted.size(); ++j) got += (j ? ", " : "") + std::to_string(sorted[j]);
    return "sorted device ids must be iota(product(axes)), got: " + got;
  }
  return "";
}

}  // namespace

bool Parser::parseAxisRef(AxisRef &ref) {
  skipWs();
  const char *start = p_;
  std::string_view name;
  if (!parseStringLiteral(name))
    return failContext(start, "failed to parse Sdy_AxisRef parameter 'name' which is to be a "
                              "`::llvm::StringRef`");
  ref.name = std::string(name);
  if (consumeIf(':'))
    return expect('(') && parseInt(ref.preSize) && expect(')') && parseInt(ref.subSize);
  return true;
}

bool Parser::parseAxisList(std::vector<AxisRef> &axes) {
  skipWs();
  const char *start = p_;
  if (!expect('{')) return false;
  if (consumeIf('}')) return true;
  do {
    AxisRef ref;
    if (!parseAxisRef(ref)) return failContext(start, kAxisListContext);
    axes.push_back(std::move(ref));
  } while (consumeIf(','));
  return expect('}');
}

bool Parser::parseMesh(Mesh &mesh) {
  skipWs();
  const char *start = p_;
  if (!expect('<') || !expect('[')) return false;
  if (!consumeIf(']')) {
    do {
      std::string_view name;
      MeshAxis axis;
      skipWs();
      const char *axisStart = p_;
      if (!parseStringLiteral(name) || !expect('=') || !parseInt(axis.size) ||
          (axis.size < 1 &&
           !failAt(axisStart, "axis size must be at least 1, got: " + std::to_string(axis.size))))
        return failContext(start, "failed to parse Sdy_Mesh parameter 'axes' which is to be a "
                                  "`::llvm::ArrayRef<MeshAxisAttr>`");
      axis.name = std::string(name);
      mesh.axes.push_back(axis);
    } while (consumeIf(','));
    if (!expect(']')) return false;
  }
  if (consumeIf(',')) {
    if (!expectKeyword("device_ids") || !expect('=') || !parseIntList(mesh.deviceIds)) return false;
  }
  if (!expect('>')) return false;
  if (std::string e = meshError(mesh); !e.empty()) return failAt(start, e);
  // Device ids in iota order say nothing more than their absence; Shardy
  // drops them, and so must we for shardings to compare equal.
  if (!mesh.axes.empty() && !mesh.deviceIds.empty()) {
    bool iota = true;
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i) iota &= mesh.deviceIds[i] == int64_t(i);
    if (iota) mesh.deviceIds.clear();
  }
  return true;
}

// `p3` right after a dimension's `}`.
bool Parser::parsePriority(std::optional<int64_t> &priority) {
  const char *start = p_;
  ++p_;
  while (p_ < end_ && isSuffixIdChar(*p_)) ++p_;
  std::string token(start, size_t(p_ - start));
  std::string_view digits = std::string_view(token).substr(1);
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return failAt(start, "expecting priority in format 'p<number>', got: " + token);
  if (digits.size() > 1 && digits[0] == '0')
    return failAt(start, "priorities with leading zeros are not allowed, got: " + token);
  int64_t v = 0;
  for (char c : digits)
    if (__builtin_mul_overflow(v, int64_t(10), &v) || __builtin_add_overflow(v, c - '0', &v))
      return failAt(start, "expecting integer priority, got: " + token);
  priority = v;
  return true;
}

bool Parser::parseSharding(TensorSharding &s) {
  if (!expect('<')) return false;
  skipWs();
  if (peek() == '@') {
    std::string_view name;  // `@mesh` or `@"mesh name"`
    if (!parseSymbolName(name)) return false;
    s.meshName = std::string(name);
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
  if (!expect(',')) return false;
  skipWs();
  const char *dimsStart = p_;
  auto dimsFailed = [&] {
    return failContext(dimsStart, "failed to parse Sdy_TensorSharding parameter 'dim_shardings' "
                                  "which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`");
  };
  if (!expect('[')) return dimsFailed();
  if (!consumeIf(']')) {
    do {
      DimSharding d;
      if (!expect('{')) return dimsFailed();
      if (!consumeIf('}')) {
        do {
          if (consumeIf('?')) {
            d.closed = false;
            break;
          }
          AxisRef ref;
          if (!parseAxisRef(ref)) return dimsFailed();
          d.axes.push_back(std::move(ref));
        } while (consumeIf(','));
        if (!expect('}')) return dimsFailed();
      }
      if (p_ < end_ && *p_ == 'p' && !parsePriority(d.priority)) return dimsFailed();
      s.dims.push_back(std::move(d));
    } while (consumeIf(','));
    if (!expect(']')) return dimsFailed();
  }
  // Then `replicated=` and `unreduced=`, each at most once.
  bool replicated = false, unreduced = false;
  while (consumeIf(',')) {
    skipWs();
    const char *keyStart = p_;
    std::string_view key = parseBareId();
    auto listFailed = [&](const char *param) {
      return failContext(keyStart, "failed to parse Sdy_TensorSharding parameter '" +
                                       std::string(param) +
                                       "' which is to be a `::llvm::ArrayRef<AxisRefAttr>`");
    };
    if (key == "replicated" && !replicated) {
      replicated = true;
      if (!expect('=') || !parseAxisList(s.replicated)) return listFailed("replicated_axes");
    } else if (key == "unreduced" && !unreduced) {
      unreduced = true;
      if (!expect('=')) return listFailed("unreduced_axes");
      s.unreducedKind = std::string(parseBareId());
      if (!parseAxisList(s.unreduced)) return listFailed("unreduced_axes");
    } else {
      return failAt(keyStart,
                    "failed to parse Sdy_TensorSharding, expected valid named axis list after comma");
    }
  }
  return expect('>');
}

}  // namespace autopart
