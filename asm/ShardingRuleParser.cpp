// Parsing of Shardy's op sharding rules,
// `<([i, j], [j, k])->([i, k]) {i=8, j=32, k=16} reduction={j}>`; the
// `#sdy.op_sharding_rule` prefix is read by the attribute parser.
//
// The grammar and the diagnostics are Shardy's (MLIR's generated attribute
// parser around Shardy's factor-symbol parsing), so a malformed rule fails
// with the messages Shardy gives, innermost first, then one per enclosing
// construct:
//
//   ([z_, j])->([i])   -> expecting integer after 'z_'. Received: 'z_'
//                         failed to parse Sdy_TensorMapping parameter 'dim_mappings' ...
//                         failed to parse Sdy_OpShardingRule parameter 'operand_mappings' ...
//   {j=4, i=2}         -> expecting factor indices to be ordered like an iota ...
//   ([i,])             -> parses, as a dimension with no factor: the verifier
//                         rejects it ("dim mapping must have at least one factor")
#include <cstdint>
#include <limits>

#include "asm/Lexer.h"
#include "asm/ParserImpl.h"

namespace autopart {

namespace {

// Index of `z`: `z_1` is the factor after it.
constexpr int64_t kIndexOfZ = 'z' - 'i';

// MLIR's keyword token, which a factor list is read as before its symbols
// are split: `[a-zA-Z_][a-zA-Z0-9_$.]*` (unlike a bare id, no `-`).
std::string_view parseKeywordToken(Parser &p) {
  p.skipWs();
  const char *s = p.pos();
  if (!isIdStart(*s)) return {};
  const char *q = s + 1;
  while (isIdStart(*q) || (*q >= '0' && *q <= '9') || *q == '$' || *q == '.') ++q;
  p.setPos(q);
  return std::string_view(s, size_t(q - s));
}

class RuleParser {
public:
  RuleParser(Parser &p, OpShardingRule &r) : p(p), r(r) {}

  bool parse() {
    bool ok = parseBody();
    // Shardy reports an index past 2^63-1 and goes on parsing with a wrong
    // index; whatever fails next is reported beside it.
    if (overflowAt) {
      if (ok) return p.failAt(overflowAt, overflowMessage);
      p.failContext(overflowAt, overflowMessage);
    }
    return ok;
  }

private:
  Parser &p;
  OpShardingRule &r;
  const char *overflowAt = nullptr;
  std::string overflowMessage;

  bool parseBody() {
    if (!p.expect('<') || !p.expect('(') ||
        !parseTensorMappings(r.operands, "operand_mappings") || !p.expect(')') ||
        !p.expectStr("->") || !p.expect('(') ||
        !parseTensorMappings(r.results, "result_mappings") || !p.expect(')') ||
        !parseFactorSizes())
      return false;
    // The special factor lists come in this order, each at most once.
    if (!parseFactorList("reduction", r.reductionFactors) ||
        !parseFactorList("need_replication", r.needReplicationFactors) ||
        !parseFactorList("permutation", r.permutationFactors) ||
        !parseFactorList("blocked_propagation", r.blockedPropagationFactors))
      return false;
    if (p.consumeIf(',')) {
      if (!p.expectKeyword("custom")) return false;
      r.isCustom = true;
    }
    return p.expect('>');
  }

  // One factor symbol off the front of `text` (`k`, `z_12`), as its index;
  // `at` is where `text` was read, for the diagnostics.
  bool parseSymbol(std::string_view &text, const char *at, int64_t &index) {
    if (!text.starts_with("z_")) {
      char c = text.front();
      if (c < 'i' || c > 'z')
        return p.failAt(at, std::string("expecting symbol from 'i' to 'z'. Received: '") + c + "'");
      text.remove_prefix(1);
      index = c - 'i';
      return true;
    }
    size_t end = 2;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end == 2)
      return p.failAt(at, "expecting integer after 'z_'. Received: '" + std::string(text) + "'");
    std::string_view digits = text.substr(2, end - 2);
    if (digits.front() == '0')
      return p.failAt(at, "expecting positive integer without leading zeros. Received: '" +
                              std::string(digits) + "'");
    int64_t n = 0;
    bool overflow = false;
    for (char d : digits) {
      if (n > (std::numeric_limits<int64_t>::max() - (d - '0')) / 10) {
        overflow = true;
        break;
      }
      n = n * 10 + (d - '0');
    }
    if (overflow) {
      if (!overflowAt) {
        overflowAt = at;
        overflowMessage = "expecting symbol index <=2^63-1. Received: '" + std::string(digits) + "'";
      }
      n = 0;
    }
    text.remove_prefix(end);
    index = n > std::numeric_limits<int64_t>::max() - kIndexOfZ ? std::numeric_limits<int64_t>::max()
                                                                 : n + kIndexOfZ;
    return true;
  }

  // A rule names at most a few hundred factors; a larger index can only be
  // out of range, which the verifier reports, so it is kept as the largest
  // index the rule type holds.
  static int32_t storedIndex(int64_t index) {
    return index > std::numeric_limits<int32_t>::max() ? std::numeric_limits<int32_t>::max()
                                                       : int32_t(index);
  }

  // `ij` or `z_1k`: the factors of one dimension, major first. No symbol at
  // all is a dimension without factors, left to the verifier.
  bool parseDim(OpShardingRule::DimFactors &dim) {
    p.skipWs();
    const char *at = p.pos();
    std::string_view text = parseKeywordToken(p);
    while (!text.empty()) {
      int64_t index = 0;
      if (!parseSymbol(text, at, index)) return false;
      dim.push_back(storedIndex(index));
    }
    return true;
  }

  // `[i, jk]` or `[]`.
  bool parseTensorMapping(OpShardingRule::TensorFactors &t) {
    if (!p.expect('[')) return false;
    if (p.consumeIf(']')) return true;
    do {
      OpShardingRule::DimFactors dim;
      if (!parseDim(dim))
        return p.failContext(p.pos(), "failed to parse Sdy_TensorMapping parameter "
                                      "'dim_mappings' which is to be a "
                                      "`::llvm::ArrayRef<DimMappingAttr>`");
      t.push_back(std::move(dim));
    } while (p.consumeIf(','));
    return p.expect(']');
  }

  // At least one tensor mapping: an op without operands or results has no
  // rule.
  bool parseTensorMappings(std::vector<OpShardingRule::TensorFactors> &ts,
                           std::string_view parameter) {
    do {
      OpShardingRule::TensorFactors t;
      if (!parseTensorMapping(t))
        return p.failContext(p.pos(), "failed to parse Sdy_OpShardingRule parameter '" +
                                          std::string(parameter) +
                                          "' which is to be a `::llvm::ArrayRef<TensorMappingAttr>`");
      ts.push_back(std::move(t));
    } while (p.consumeIf(','));
    return true;
  }

  // One whole symbol from a keyword token (`{k, i}`, `{i=2}`).
  bool parseSingleSymbol(int64_t &index, std::string_view &rest) {
    p.skipWs();
    const char *at = p.pos();
    std::string_view text = parseKeywordToken(p);
    if (text.empty()) return p.failAt(at, "expected valid keyword");
    if (!parseSymbol(text, at, index)) return false;
    rest = text;
    return true;
  }

  // `{i=2, j=4}` (optional): the factors in index order, so each symbol is
  // the next one.
  bool parseFactorSizes() {
    if (!p.consumeIf('{') || p.consumeIf('}')) return true;
    do {
      p.skipWs();
      const char *at = p.pos();
      int64_t index = 0;
      std::string_view rest;
      if (!parseSingleSymbol(index, rest)) return false;
      int64_t expected = int64_t(r.factorSizes.size());
      if (index != expected) {
        std::string_view received(at, size_t(p.pos() - at) - rest.size());
        return p.failAt(p.pos(), "expecting factor indices to be ordered like an iota "
                                 "([0,1,2,...], e.g. {i=#, j=#, ...}). Expecting factor index "
                                 "symbol '" +
                                     OpShardingRule::factorName(size_t(expected)) +
                                     "', received: '" + std::string(received) + "'");
      }
      if (!rest.empty())
        return p.failAt(p.pos(), "expecting single factor symbol: " + std::string(rest));
      int64_t size;
      if (!p.expect('=') || !p.parseInt(size)) return false;
      r.factorSizes.push_back(size);
    } while (p.consumeIf(','));
    return p.expect('}');
  }

  // `reduction={j, k}` (optional): one symbol per entry.
  bool parseFactorList(std::string_view keyword, std::vector<int32_t> &out) {
    if (!p.consumeKeyword(keyword)) return true;
    if (!p.expect('=')) return false;
    if (!p.consumeIf('{') || p.consumeIf('}')) return true;
    do {
      int64_t index = 0;
      std::string_view rest;
      if (!parseSingleSymbol(index, rest)) return false;
      if (!rest.empty())
        return p.failAt(p.pos(), "expecting single factor symbol: " + std::string(rest));
      out.push_back(storedIndex(index));
    } while (p.consumeIf(','));
    return p.expect('}');
  }
};

}  // namespace

bool Parser::parseShardingRule(OpShardingRule &r) { return RuleParser(*this, r).parse(); }

}  // namespace autopart
