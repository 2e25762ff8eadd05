#include "sim/TripCount.h"

#include <cstdlib>
#include <string>

namespace autopart {

std::optional<int64_t> constantInt(const Module &m, ValueId v) {
  OpId def = m.definingOp(v);
  if (def == kNone) return std::nullopt;
  if (m.isa(def, "stablehlo.convert") || m.isa(def, "stablehlo.broadcast_in_dim") ||
      m.isa(def, "stablehlo.reshape"))
    return constantInt(m, m.operand(def, 0));
  if (!m.isa(def, "stablehlo.constant") || m.types.numElements(m.type(v)) != 1) return std::nullopt;
  AttrId a = m.attr(def, "value");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::DenseElements) return std::nullopt;
  std::string body(m.attrs.get(a).body);
  while (!body.empty() && (body.front() == '[' || body.front() == ' ')) body.erase(body.begin());
  char *end = nullptr;
  long long x = std::strtoll(body.c_str(), &end, 10);
  if (end == body.c_str()) return std::nullopt;
  if (*end == '.' || *end == 'e' || *end == 'x') return std::nullopt;  // floats, hex
  return int64_t(x);
}

static const std::vector<OpId> &regionOps(const Module &m, OpId op, uint32_t r) {
  static const std::vector<OpId> empty;
  RegionId region = m.region(op, r);
  if (m.regions[region].blocks.empty()) return empty;
  return m.blocks[m.regions[region].blocks.front()].ops;
}

static std::optional<uint32_t> blockArgIndex(const Module &m, OpId whileOp, uint32_t r, ValueId v) {
  const std::vector<ValueId> &args = m.blocks[m.regions[m.region(whileOp, r)].blocks.front()].args;
  for (uint32_t i = 0; i < args.size(); ++i)
    if (args[i] == v) return i;
  return std::nullopt;
}

std::optional<int64_t> staticTripCount(const Module &m, OpId whileOp) {
  if (!m.isa(whileOp, "stablehlo.while") || m.numRegions(whileOp) != 2) return std::nullopt;
  const std::vector<OpId> &cond = regionOps(m, whileOp, 0);
  const std::vector<OpId> &body = regionOps(m, whileOp, 1);
  if (cond.empty() || body.empty()) return std::nullopt;
  OpId ret = cond.back();
  if (m.numOperands(ret) != 1) return std::nullopt;
  OpId cmp = m.definingOp(m.operand(ret, 0));
  if (cmp == kNone || !m.isa(cmp, "stablehlo.compare")) return std::nullopt;
  AttrId dirAttr = m.attr(cmp, "comparison_direction");
  if (dirAttr == kNoAttr) return std::nullopt;
  std::string dir = m.attrs.str(dirAttr);

  // The counter is a loop-carried argument compared against a constant.
  ValueId lhs = m.operand(cmp, 0), rhs = m.operand(cmp, 1);
  std::optional<uint32_t> k = blockArgIndex(m, whileOp, 0, lhs);
  std::optional<int64_t> limit = constantInt(m, rhs);
  bool swapped = false;
  if (!k || !limit) {
    k = blockArgIndex(m, whileOp, 0, rhs);
    limit = constantInt(m, lhs);
    swapped = true;
  }
  if (!k || !limit) return std::nullopt;
  std::optional<int64_t> init = constantInt(m, m.operand(whileOp, *k));
  if (!init) return std::nullopt;

  OpId bodyRet = body.back();
  if (*k >= m.numOperands(bodyRet)) return std::nullopt;
  OpId step = m.definingOp(m.operand(bodyRet, *k));
  if (step == kNone || m.numOperands(step) != 2) return std::nullopt;
  bool isAdd = m.isa(step, "stablehlo.add"), isSub = m.isa(step, "stablehlo.subtract");
  if (!isAdd && !isSub) return std::nullopt;
  std::optional<uint32_t> stepArg = blockArgIndex(m, whileOp, 1, m.operand(step, 0));
  std::optional<int64_t> delta = constantInt(m, m.operand(step, 1));
  if (isAdd && (!stepArg || !delta)) {
    stepArg = blockArgIndex(m, whileOp, 1, m.operand(step, 1));
    delta = constantInt(m, m.operand(step, 0));
  }
  if (!stepArg || *stepArg != *k || !delta || *delta == 0) return std::nullopt;
  int64_t d = isSub ? -*delta : *delta;

  // Normalise to `counter <op> limit`.
  auto has = [&](const char *s) { return dir.find(s) != std::string::npos; };
  std::string op = has("LT") ? "LT" : has("LE") ? "LE" : has("GT") ? "GT" : has("GE") ? "GE" : has("NE") ? "NE" : "";
  if (swapped) op = op == "LT" ? "GT" : op == "LE" ? "GE" : op == "GT" ? "LT" : op == "GE" ? "LE" : op;
  int64_t span;
  if (op == "LT" && d > 0) span = *limit - *init;
  else if (op == "LE" && d > 0) span = *limit - *init + 1;
  else if (op == "GT" && d < 0) span = *init - *limit;
  else if (op == "GE" && d < 0) span = *init - *limit + 1;
  else if (op == "NE") span = (*limit - *init) * (d > 0 ? 1 : -1);
  else return std::nullopt;
  int64_t ad = d > 0 ? d : -d;
  if (span <= 0) return 0;
  return (span + ad - 1) / ad;
}

}  // namespace autopart
