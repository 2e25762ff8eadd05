// Parsing of Shardy's op sharding rules,
// `<([i, j], [j, k])->([i, k]) {i=8, j=32, k=16} reduction={j}>`; the
// `#sdy.op_sharding_rule` prefix is read by the attribute parser.
#include "asm/Lexer.h"
#include "asm/ParserImpl.h"

namespace autopart {

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
