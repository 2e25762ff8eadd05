// What the HTML report reads and writes beside the markup: JSON fields read
// leniently (a report from another version, or a hand-edited search file,
// draws what it can instead of throwing), and the small formats of its cells
// and axes.
//
//   numberOr({"a": 2}, "a") -> 2;  numberOr({"a": "x"}, "a") -> 0;  text({"a": 3}, "a") -> "3"
//   percent(1, 40000) -> "0.0025%";  count(75648466944) -> "75.65 G"
//   niceAxis(620 MiB, 4, 1 MiB) -> {200 MiB, 800 MiB}
#pragma once

#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "ir/Sharding.h"
#include "ir/Types.h"

// In their own namespace: the short names (text, array, count) would
// otherwise claim words the whole project may want.
namespace autopart::report {

// `j[key]` when `j` is an object that has it, else null.
const nlohmann::json &field(const nlohmann::json &j, const char *key);
// The field when it is a number.
std::optional<double> number(const nlohmann::json &j, const char *key);
double numberOr(const nlohmann::json &j, const char *key, double fallback = 0);
// A string field as is, null as "", anything else as its JSON.
std::string text(const nlohmann::json &j, const char *key);
// The field when it is an array, else an empty one.
const nlohmann::json &array(const nlohmann::json &j, const char *key);

// One decimal; below 1%, two significant digits, so that a small share does
// not read as none.
std::string percent(double part, double whole);
// With a decimal prefix: 75648466944 -> "75.65 G".
std::string count(double x);
std::string fixed(double x, int decimals);
// Axis ticks at 1, 2 or 5 times a power of ten of `unit` (a MiB, a
// millisecond), about `ticks` of them up to `top`: {step, axis end}.
std::pair<double, double> niceAxis(double top, int ticks, double unit);
// The binary unit (1, KiB, MiB, ...) and the time unit (s, ms, us) an axis
// up to the value is labelled in.
double byteUnit(double bytes);
double secondUnit(double s);
// The schedule's subtractions leave rounding residue (1e-17 s of "hidden"
// communication where there is none): below a picosecond is none.
double withoutResidue(double s);

// A time cell with its share of the step below it, sorted by the time.
std::string timeCell(double seconds, double step);
// A numeric cell: shown text, sort key in data-v.
std::string numCell(const std::string &shown, double key);
// "stablehlo.dot_general" -> "dot_general".
std::string shortOpName(std::string name);
// "tensor<64x128xbf16>" -> local "32x32xbf16" under the sharding.
std::string localShapeText(const TypeTable &types, TypeId t, const TensorSharding *s, const Mesh *mesh);

}  // namespace autopart::report
