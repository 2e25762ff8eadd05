// Custom forms of the StableHLO contractions, whose dimension numbers get a
// compact syntax of their own:
//
//   stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
//       contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : ...
//     dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], ...>
//   stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
//       window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {...} : ...
//     dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
#include <algorithm>

#include "asm/OpSyntax.h"
#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {

namespace {

// --- dot / dot_general ----------------------------------------------------------------------

bool parsePrecision(Parser &p, OpState &st) {
  if (!p.expect('=') || !p.expect('[')) return false;
  std::vector<AttrId> list;
  if (!p.consumeIf(']')) {
    do {
      std::string_view v;
      if (!parseEnumWord(p, v)) return false;
      list.push_back(enumAttr(p.m, "precision", v));
    } while (p.consumeIf(','));
    if (!p.expect(']')) return false;
  }
  p.addAttr(st, "precision_config", p.m.attrs.array(list));
  return true;
}

void printPrecision(AsmPrinter &p, OpId op) {
  AttrId pc = p.m.attr(op, "precision_config");
  if (pc == kNoAttr) return;
  const AttrStorage &a = p.m.attrs.get(pc);
  if (a.kind != AttrKind::Array) return;
  p.out += ", precision = [";
  for (size_t i = 0; i < a.elems.size(); ++i) {
    if (i) p.out += ", ";
    p.out += enumValue(p.m, a.elems[i]);
  }
  p.out += ']';
}

bool parseDot(Parser &p, OpState &st) {
  if (!p.parseValueUseList(st.operands)) return false;
  if (p.consumeIf(',')) {
    if (!p.expectKeyword("precision") || !parsePrecision(p, st)) return false;
  }
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printDot(AsmPrinter &p, OpId op) {
  p.out += ' ';
  p.operands(op);
  printPrecision(p, op);
  p.attrDict(op, {"precision_config"});
  p.out += " : ";
  p.functionalType(op);
}

bool parseDotGeneral(Parser &p, OpState &st) {
  Module &m = p.m;
  if (!p.parseValueUseList(st.operands)) return false;
  std::vector<int64_t> lb, rb, lc, rc;
  while (p.consumeIf(',')) {
    if (p.consumeKeyword("batching_dims")) {
      if (!p.expect('=') || !p.parseIntList(lb) || !p.expectKeyword("x") || !p.parseIntList(rb))
        return false;
    } else if (p.consumeKeyword("contracting_dims")) {
      if (!p.expect('=') || !p.parseIntList(lc) || !p.expectKeyword("x") || !p.parseIntList(rc))
        return false;
    } else if (p.consumeKeyword("precision")) {
      if (!parsePrecision(p, st)) return false;
    } else if (p.consumeKeyword("algorithm")) {
      AttrId alg;
      if (!p.expect('=')) return false;
      p.skipWs();
      if (p.peek() == '<') {
        // `algorithm = <lhs_precision_type = ...>`: the body of #stablehlo.dot_algorithm.
        const char *s = p.pos();
        p.setPos(s + 1);
        std::string_view inner;
        if (!p.skipBalanced('<', inner)) return false;
        alg = m.attrs.opaque("#stablehlo.dot_algorithm<" + std::string(inner) + ">");
      } else if (!p.parseAttr(alg)) {
        return false;
      }
      p.addAttr(st, "algorithm", alg);
    } else {
      return p.fail("expected 'batching_dims', 'contracting_dims', 'precision' or 'algorithm'");
    }
  }
  std::vector<std::pair<NameId, AttrId>> dn;
  auto add = [&](const char *key, const std::vector<int64_t> &v) {
    if (v.empty()) return;
    std::vector<AttrId> elems;
    for (int64_t x : v) elems.push_back(m.attrs.integer(x));
    dn.push_back({m.names.get(key), m.attrs.array(elems)});
  };
  add("lhs_batching_dimensions", lb);
  add("rhs_batching_dimensions", rb);
  add("lhs_contracting_dimensions", lc);
  add("rhs_contracting_dimensions", rc);
  p.addAttr(st, "dot_dimension_numbers", m.attrs.dialectStruct("stablehlo.dot", std::move(dn)));
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printDotGeneral(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += ' ';
  p.operands(op);
  AttrId dn = m.attr(op, "dot_dimension_numbers");
  auto list = [&](const char *key) {
    AttrId a = m.attrs.field(dn, key);
    return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
  };
  std::vector<int64_t> lb = list("lhs_batching_dimensions"), rb = list("rhs_batching_dimensions");
  if (!lb.empty() || !rb.empty()) {
    p.out += ", batching_dims = ";
    p.intList(lb);
    p.out += " x ";
    p.intList(rb);
  }
  p.out += ", contracting_dims = ";
  p.intList(list("lhs_contracting_dimensions"));
  p.out += " x ";
  p.intList(list("rhs_contracting_dimensions"));
  printPrecision(p, op);
  if (AttrId alg = m.attr(op, "algorithm"); alg != kNoAttr) {
    const std::string &t = m.attrs.get(alg).text;
    constexpr std::string_view kPrefix = "#stablehlo.dot_algorithm";
    p.out += ", algorithm = ";
    if (std::string_view(t).starts_with(kPrefix))
      p.out += std::string_view(t).substr(kPrefix.size());
    else
      p.out += t;
  }
  p.attrDict(op, {"dot_dimension_numbers", "precision_config", "algorithm"});
  p.out += " : ";
  p.functionalType(op);
}

// --- convolution ---------------------------------------------------------------------------

bool parseConvolution(Parser &p, OpState &st) {
  Module &m = p.m;
  if (!p.expect('(') || !p.parseValueUseList(st.operands) || !p.expect(')')) return false;
  if (!p.expectKeyword("dim_numbers") || !p.expect('=')) return false;
  p.skipWs();
  // `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` up to the next top-level ','.
  const char *s = p.pos();
  const char *q = s;
  int depth = 0;
  while (*q && !(depth == 0 && *q == ',')) {
    if (*q == '[') ++depth;
    if (*q == ']') --depth;
    if (*q == '\n' || *q == '{' || *q == ':') return p.failAt(q, "malformed convolution dim_numbers");
    ++q;
  }
  std::string dims(s, size_t(q - s));
  while (!dims.empty() && dims.back() == ' ') dims.pop_back();
  p.addAttr(st, "dimension_numbers", m.attrs.opaque("#stablehlo.conv<" + dims + ">"));
  p.setPos(q);
  if (!p.expect(',') || !p.expectKeyword("window") || !p.expect('=') || !p.expect('{'))
    return false;
  if (!p.consumeIf('}')) {
    do {
      std::string_view key = p.parseBareId();
      if (!p.expect('=')) return false;
      if (key == "stride" || key == "lhs_dilate" || key == "rhs_dilate") {
        std::vector<int64_t> v;
        if (!p.parseIntList(v)) return false;
        const char *name = key == "stride" ? "window_strides" : key == "lhs_dilate" ? "lhs_dilation" : "rhs_dilation";
        p.addAttr(st, name, i64Array(m, std::move(v)));
      } else if (key == "reverse") {
        std::vector<int64_t> v;
        if (!p.expect('[')) return false;
        if (!p.consumeIf(']')) {
          do {
            if (p.consumeKeyword("true")) v.push_back(1);
            else if (p.consumeKeyword("false")) v.push_back(0);
            else {
              int64_t x;
              if (!p.parseInt(x)) return false;
              v.push_back(x != 0);
            }
          } while (p.consumeIf(','));
          if (!p.expect(']')) return false;
        }
        p.addAttr(st, "window_reversal", m.attrs.denseArray(m.types.scalar("i1"), std::move(v)));
      } else if (key == "pad") {
        if (!p.expect('[')) return false;
        std::vector<int64_t> flat;
        size_t rows = 0;
        if (!p.consumeIf(']')) {
          do {
            std::vector<int64_t> pair;
            if (!p.parseIntList(pair)) return false;
            if (pair.size() != 2) return p.fail("expected [low, high] padding pair");
            flat.insert(flat.end(), pair.begin(), pair.end());
            ++rows;
          } while (p.consumeIf(','));
          if (!p.expect(']')) return false;
        }
        std::string body = "[";
        for (size_t r = 0; r < rows; ++r) {
          if (r) body += ", ";
          body += "[" + std::to_string(flat[2 * r]) + ", " + std::to_string(flat[2 * r + 1]) + "]";
        }
        body += "]";
        // All equal: a splat, as MLIR stores it (`dense<0> : tensor<2x2xi64>`).
        if (!flat.empty() && std::all_of(flat.begin(), flat.end(), [&](int64_t x) { return x == flat[0]; }))
          body = std::to_string(flat[0]);
        TypeId t = m.types.tensor({int64_t(rows), 2}, i64Type(m));
        p.addAttr(st, "padding", m.attrs.denseElementsOwned("dense", body, t));
      } else {
        return p.fail("unknown convolution window field '" + std::string(key) + "'");
      }
    } while (p.consumeIf(','));
    if (!p.expect('}')) return false;
  }
  if (!p.parseOpAttrDict(st)) return false;
  return p.expect(':') && p.parseFunctionalResultType(st);
}

void printConvolution(AsmPrinter &p, OpId op) {
  const Module &m = p.m;
  p.out += '(';
  p.operands(op);
  p.out += ") dim_numbers = ";
  const std::string &dn = m.attrs.get(m.attr(op, "dimension_numbers")).text;
  constexpr std::string_view kPrefix = "#stablehlo.conv<";
  if (std::string_view(dn).starts_with(kPrefix))
    p.out += std::string_view(dn).substr(kPrefix.size(), dn.size() - kPrefix.size() - 1);
  else
    p.out += dn;
  p.out += ", window = {";
  bool first = true;
  auto sep = [&] {
    if (!first) p.out += ", ";
    first = false;
  };
  if (m.hasAttr(op, "window_strides")) {
    sep();
    p.out += "stride = ";
    p.intList(intsOf(m, op, "window_strides"));
  }
  if (AttrId pad = m.attr(op, "padding"); pad != kNoAttr) {
    sep();
    p.out += "pad = ";
    const AttrStorage &a = m.attrs.get(pad);
    if (a.kind == AttrKind::DenseElements) {
      std::string_view body = a.body;
      // A splat `dense<0>` stands for all-zero pairs.
      if (!body.empty() && body[0] != '[') {
        int64_t rows = m.types.shape(a.type).empty() ? 0 : m.types.shape(a.type)[0];
        std::string v(body);
        p.out += '[';
        for (int64_t r = 0; r < rows; ++r) p.out += (r ? ", [" : "[") + v + ", " + v + "]";
        p.out += ']';
      } else {
        p.out += body;
      }
    }
  }
  if (m.hasAttr(op, "lhs_dilation")) {
    sep();
    p.out += "lhs_dilate = ";
    p.intList(intsOf(m, op, "lhs_dilation"));
  }
  if (m.hasAttr(op, "rhs_dilation")) {
    sep();
    p.out += "rhs_dilate = ";
    p.intList(intsOf(m, op, "rhs_dilation"));
  }
  if (m.hasAttr(op, "window_reversal")) {
    sep();
    p.out += "reverse = [";
    std::vector<int64_t> v = intsOf(m, op, "window_reversal");
    for (size_t i = 0; i < v.size(); ++i) p.out += std::string(i ? ", " : "") + (v[i] ? "true" : "false");
    p.out += ']';
  }
  p.out += '}';
  p.attrDict(op, {"dimension_numbers", "window_strides", "padding", "lhs_dilation", "rhs_dilation",
                  "window_reversal"});
  p.out += " : ";
  p.functionalType(op);
}

const OpSyntaxEntry kEntries[] = {
    {"stablehlo.dot", {parseDot, printDot}},
    {"stablehlo.dot_general", {parseDotGeneral, printDotGeneral}},
    {"stablehlo.convolution", {parseConvolution, printConvolution}},
};

}  // namespace

std::span<const OpSyntaxEntry> stablehloContractionSyntaxTable() { return kEntries; }

}  // namespace autopart
