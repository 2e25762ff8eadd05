// Parsing of the Shardy attribute bodies: axis lists `{"a", "b":(1)2}`,
// meshes `<["a"=2], device_ids=[...]>` and tensor shardings
// `<@mesh, [{...}]>` (sharding rules: ShardingRuleParser.cpp). The `#sdy.`
// prefixes around them are read by the attribute parser.
#include "asm/Lexer.h"
#include "asm/ParserImpl.h"

namespace autopart {

bool Parser::parseAxisRef(AxisRef &ref) {
  std::string_view name;
  if (!parseStringLiteral(name)) return false;
  ref.name = std::string(name);
  if (consumeIf(':'))
    return expect('(') && parseInt(ref.preSize) && expect(')') && parseInt(ref.subSize);
  return true;
}

bool Parser::parseAxisList(std::vector<AxisRef> &axes) {
  if (!expect('{')) return false;
  if (consumeIf('}')) return true;
  do {
    AxisRef ref;
    if (!parseAxisRef(ref)) return false;
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
          AxisRef ref;
          if (!parseAxisRef(ref)) return false;
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

}  // namespace autopart
