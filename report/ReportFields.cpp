#include "report/ReportFields.h"

#include <cmath>
#include <cstdio>

#include "report/Html.h"
#include "support/Format.h"

namespace autopart::report {

// --- JSON access that never throws ------------------------------------------

const nlohmann::json &field(const nlohmann::json &j, const char *key) {
  static const nlohmann::json null;
  if (!j.is_object()) return null;
  auto it = j.find(key);
  return it == j.end() ? null : *it;
}

std::optional<double> number(const nlohmann::json &j, const char *key) {
  const nlohmann::json &v = field(j, key);
  if (!v.is_number()) return std::nullopt;
  return v.get<double>();
}

double numberOr(const nlohmann::json &j, const char *key, double fallback) {
  return number(j, key).value_or(fallback);
}

std::string text(const nlohmann::json &j, const char *key) {
  const nlohmann::json &v = field(j, key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

const nlohmann::json &array(const nlohmann::json &j, const char *key) {
  static const nlohmann::json empty = nlohmann::json::array();
  const nlohmann::json &v = field(j, key);
  return v.is_array() ? v : empty;
}

// --- Small formatting -----------------------------------------------------

// One decimal; below 1%, two significant digits, so that a small share does
// not read as none: percent(1, 40000) -> "0.0025%".
std::string percent(double part, double whole) {
  if (whole <= 0) return "";
  double p = 100 * part / whole;
  if (p > 0 && p < 0.001) return "<0.001%";
  char buf[32];
  std::snprintf(buf, sizeof buf, p > 0 && p < 1 ? "%.2g%%" : "%.1f%%", p);
  return buf;
}

// 75648466944 -> "75.65 G"
std::string count(double x) {
  const char *units[] = {"", "K", "M", "G", "T", "P", "E"};
  int u = 0;
  while (std::fabs(x) >= 1000 && u < 6) {
    x /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.2f %s" : "%.0f%s", x, units[u]);
  return buf;
}

std::string fixed(double x, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

// Axis ticks at 1, 2 or 5 times a power of ten of `unit` (a MiB, a
// millisecond), about `ticks` of them up to `top`: {step, axis end}.
//   niceAxis(620 MiB, 4, 1 MiB) -> raw step 155 MiB -> {200 MiB, 800 MiB}
std::pair<double, double> niceAxis(double top, int ticks, double unit) {
  if (!(top > 0) || !(unit > 0)) return {1, 1};
  double raw = top / unit / ticks;
  double power = std::pow(10, std::floor(std::log10(raw)));
  double step = power * 10;
  for (double f : {1.0, 2.0, 5.0})
    if (f * power >= raw) {
      step = f * power;
      break;
    }
  step *= unit;
  return {step, std::ceil(top / step - 1e-9) * step};
}

double byteUnit(double bytes) {
  double unit = 1;
  while (bytes / unit >= 1024 && unit < 1099511627776.0) unit *= 1024;
  return unit;
}

double secondUnit(double s) { return s >= 1 ? 1 : s >= 1e-3 ? 1e-3 : 1e-6; }

// The schedule's subtractions leave rounding residue (1e-17 s of "hidden"
// communication where there is none): below a picosecond is none.
double withoutResidue(double s) { return s > 1e-12 ? s : 0; }

// A time cell with its share of the step below it, sorted by the time.
std::string timeCell(double seconds, double step) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", std::isfinite(seconds) ? seconds : 0.0);
  return "<td class=\"num\" data-v=\"" + std::string(buf) + "\">" + htmlEscape(formatSeconds(seconds)) +
         (step > 0 ? "<div class=\"share\">" + htmlEscape(percent(seconds, step)) + " of step</div>" : "") + "</td>";
}

// A numeric cell: shown text, sort key in data-v.
std::string numCell(const std::string &shown, double key) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", std::isfinite(key) ? key : 0.0);
  return "<td class=\"num\" data-v=\"" + std::string(buf) + "\">" + htmlEscape(shown) + "</td>";
}

std::string shortOpName(std::string name) {
  if (name.rfind("stablehlo.", 0) == 0) name = name.substr(10);
  return name;
}

// "tensor<64x128xbf16>" -> local "32x32xbf16" under the sharding.
std::string localShapeText(const TypeTable &types, TypeId t, const TensorSharding *s, const Mesh *mesh) {
  if (t == kNoType || !types.isTensor(t)) return std::string(t == kNoType ? "" : types.str(t));
  std::vector<int64_t> shape = types.shape(t);
  if (s && mesh && !types.hasDynamicDim(t) && s->dims.size() == shape.size()) shape = s->localShape(shape, *mesh);
  std::string out;
  for (int64_t d : shape) out += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return out + std::string(types.str(types.elementType(t)));
}

}  // namespace autopart::report
