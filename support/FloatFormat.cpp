#include "support/FloatFormat.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace autopart {

namespace {

// A finite non-zero value as decimal digits (most significant first, no
// trailing zeros) times 10^exp, exact: a double's decimal expansion ends
// within 767 significant digits.
struct Decimal {
  std::string digits;
  int exp = 0;  // of the last digit
};

Decimal exactDecimal(double v) {
  char buf[1200];
  std::snprintf(buf, sizeof buf, "%.1100e", std::fabs(v));
  Decimal d;
  const char *e = std::strchr(buf, 'e');
  for (const char *p = buf; p != e; ++p)
    if (*p != '.') d.digits += *p;
  int e10 = std::atoi(e + 1);
  size_t n = d.digits.find_last_not_of('0') + 1;
  d.exp = e10 - int(n - 1);
  d.digits.resize(n);
  return d;
}

// Rounds to at most `precision` significant digits the way APFloat does:
// half away from zero on the first dropped digit, then drops trailing zeros.
void roundTo(Decimal &d, size_t precision) {
  if (d.digits.size() <= precision) return;
  bool up = d.digits[precision] >= '5';
  d.exp += int(d.digits.size() - precision);
  d.digits.resize(precision);
  if (up) {
    size_t i = precision;
    while (i > 0 && d.digits[i - 1] == '9') d.digits[--i] = '0';
    if (i == 0) d.digits.insert(d.digits.begin(), '1');
    else ++d.digits[i - 1];
  }
  size_t n = d.digits.find_last_not_of('0') + 1;
  d.exp += int(d.digits.size() - n);
  d.digits.resize(n);
}

void appendExponent(std::string &s, int exp, size_t minDigits) {
  s += exp >= 0 ? '+' : '-';
  std::string e = std::to_string(exp >= 0 ? exp : -exp);
  if (e.size() < minDigits) s.append(minDigits - e.size(), '0');
  s += e;
}

// APFloat::toString(str, 6, 0, /*TruncateZero=*/false): d.ddddddesNN.
std::string scientific6(double v) {
  std::string s = std::signbit(v) ? "-" : "";
  if (v == 0) return s + "0.000000e+00";
  Decimal d = exactDecimal(v);
  roundTo(d, 6);
  s += d.digits[0];
  s += '.';
  s.append(d.digits, 1);
  s.append(7 - d.digits.size(), '0');
  s += 'e';
  appendExponent(s, d.exp + int(d.digits.size() - 1), 2);
  return s;
}

// APFloat::toString(str) with its defaults (precision from the semantics,
// padding 3, trailing zeros truncated).
std::string defaultForm(double v, bool isF32) {
  std::string s = std::signbit(v) ? "-" : "";
  if (v == 0) return s + "0";
  size_t precision = 2 + (isF32 ? 24 : 53) * 59 / 196;
  Decimal d = exactDecimal(v);
  roundTo(d, precision);
  const int n = int(d.digits.size());
  bool sci;
  if (d.exp >= 0) sci = d.exp > 3 || n + d.exp > int(precision);
  else sci = d.exp + n - 1 < 0 && -(d.exp + n - 1) > 3;
  if (sci) {
    s += d.digits[0];
    s += '.';
    s += n == 1 ? std::string("0") : d.digits.substr(1);
    s += 'E';
    appendExponent(s, d.exp + n - 1, 1);
    return s;
  }
  if (d.exp >= 0) return s + d.digits + std::string(size_t(d.exp), '0');
  int whole = d.exp + n;
  if (whole > 0) return s + d.digits.substr(0, size_t(whole)) + "." + d.digits.substr(size_t(whole));
  return s + "0." + std::string(size_t(-whole), '0') + d.digits;
}

bool readsBackAs(const std::string &s, double v, bool isF32) {
  if (isF32) {
    float f = std::strtof(s.c_str(), nullptr), g = float(v);
    return std::memcmp(&f, &g, sizeof f) == 0;
  }
  double r = std::strtod(s.c_str(), nullptr);
  return std::memcmp(&r, &v, sizeof r) == 0;
}

bool isNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' ||
         c == 'x' || c == 'X' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace

std::optional<std::string> formatMlirFloat(double v, bool isF32) {
  if (!std::isfinite(v)) return std::nullopt;
  if (isF32) v = double(float(v));
  std::string s = scientific6(v);
  if (readsBackAs(s, v, isF32)) return s;
  s = defaultForm(v, isF32);
  if (s.find('.') == std::string::npos) return std::nullopt;
  return s;
}

std::optional<std::string> canonicalFloatElements(std::string_view body, bool isF32) {
  size_t first = body.find_first_not_of(" \t\n");
  if (first == std::string_view::npos || body[first] == '"') return std::nullopt;
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')) {
      out += c;
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < body.size() && isNumberChar(body[j])) ++j;
    std::string token(body.substr(i, j - i));
    i = j;
    std::string digits = token[0] == '-' || token[0] == '+' ? token.substr(1) : token;
    std::optional<std::string> spelled;
    if (!(digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))) {
      char *end = nullptr;
      double v = std::strtod(token.c_str(), &end);
      if (end == token.c_str() + token.size()) spelled = formatMlirFloat(v, isF32);
    }
    out += spelled ? *spelled : token;
  }
  if (out == body) return std::nullopt;
  return out;
}

}  // namespace autopart
