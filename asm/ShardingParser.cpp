// Parsing of the Shardy attribute bodies: axis lists `{"a", "b":(1)2}`,
// meshes `<["a"=2], device_ids=[...]>`, tensor shardings `<@mesh, [{...}]>`
// and sharding rules `<([i, j])->([i]) {i=4, j=8} reduction={j}>`. The
// `#sdy.` prefixes around them are read by the attribute parser.
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

// Factor symbols: i..z, z_1, z_2, ...; a dimension is a concatenation.
static bool parseFactorSymbols(Parser &p, std::vector<int32_t> &factors) {
  p.skipWs();
  const char *s = p.pos();
  const char *q = s;
  while (true) {
    char c = *q;
    if (c < 'i' || c > 'z') break;
    ++q;
    int32_t index = c - 'i';
    if (c == 'z' && *q == '_') {
      ++q;
      int64_t n = 0;
      const char *d = q;
      while (*q >= '0' && *q <= '9') {
        n = n * 10 + (*q++ - '0');
        if (n > (1 << 20)) return p.failAt(d, "factor index after 'z_' is too large");
      }
      if (q == d) return p.failAt(q, "expected factor number after 'z_'");
      index = int32_t(('z' - 'i') + n);
    }
    factors.push_back(index);
  }
  if (q == s) return p.failAt(s, "expected factor symbol");
  p.setPos(q);
  return true;
}

static bool parseRuleTensors(Parser &p, std::vector<OpShardingRule::TensorFactors> &ts) {
  if (!p.expect('(')) return false;
  if (p.consumeIf(')')) return true;
  do {
    OpShardingRule::TensorFactors t;
    if (!p.expect('[')) return false;
    if (!p.consumeIf(']')) {
      do {
        OpShardingRule::DimFactors d;
        if (!parseFactorSymbols(p, d)) return false;
        t.push_back(std::move(d));
      } while (p.consumeIf(','));
      if (!p.expect(']')) return false;
    }
    ts.push_back(std::move(t));
  } while (p.consumeIf(','));
  return p.expect(')');
}

static bool parseFactorSet(Parser &p, std::vector<int32_t> &out) {
  if (!p.expect('=') || !p.expect('{')) return false;
  if (p.consumeIf('}')) return true;
  do {
    if (!parseFactorSymbols(p, out)) return false;
  } while (p.consumeIf(','));
  return p.expect('}');
}

bool Parser::parseShardingRule(OpShardingRule &r) {
  if (!expect('<') || !parseRuleTensors(*this, r.operands) || !expectStr("->") ||
      !parseRuleTensors(*this, r.results))
    return false;
  if (consumeIf('{')) {
    if (!consumeIf('}')) {
      do {
        std::vector<int32_t> f;
        if (!parseFactorSymbols(*this, f) || f.size() != 1) return fail("expected factor symbol");
        int64_t size;
        if (!expect('=') || !parseInt(size)) return false;
        if (size_t(f[0]) >= r.factorSizes.size()) r.factorSizes.resize(size_t(f[0]) + 1, 1);
        r.factorSizes[size_t(f[0])] = size;
      } while (consumeIf(','));
      if (!expect('}')) return false;
    }
  }
  while (true) {
    if (consumeKeyword("reduction")) {
      if (!parseFactorSet(*this, r.reductionFactors)) return false;
    } else if (consumeKeyword("need_replication")) {
      if (!parseFactorSet(*this, r.needReplicationFactors)) return false;
    } else if (consumeKeyword("permutation")) {
      if (!parseFactorSet(*this, r.permutationFactors)) return false;
    } else if (consumeKeyword("blocked_propagation")) {
      if (!parseFactorSet(*this, r.blockedPropagationFactors)) return false;
    } else {
      break;
    }
  }
  if (consumeIf(',')) {
    if (!expectKeyword("custom")) return false;
    r.isCustom = true;
  }
  return expect('>');
}

}  // namespace autopart
