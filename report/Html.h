// Text made safe for the HTML report: escaping for element content and
// attribute values, JSON that may sit inside a <script> element, and the
// numbers SVG coordinates are written with.
//
//   htmlEscape("a<b & \"c\"")           -> "a&lt;b &amp; &quot;c&quot;"
//   scriptSafeJson({"x": "</script>"})   -> {"x":"\u003c/script\u003e"}
//   svgNumber(12.345)                    -> "12.3"
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace autopart {

// Escapes & < > " ' so the text is inert both as element content and inside
// a quoted attribute value.
std::string htmlEscape(std::string_view text);

// Compact JSON in which no `<`, `>` or `&` appears literally (they are
// written as \u003c, \u003e, \u0026, which JSON.parse reads back) and every
// non-ASCII character is \u-escaped, so `</script>`, `<!--` or a U+2028 in a
// string cannot end or confuse the <script type="application/json"> that
// carries it.
std::string scriptSafeJson(const nlohmann::json &j);

// One decimal, no exponent, "-0" never: enough for pixel coordinates.
std::string svgNumber(double x);

}  // namespace autopart
