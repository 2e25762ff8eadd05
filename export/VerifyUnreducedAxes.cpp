// `-sdy-verify-unreduced-axes`: a value with unreduced axes holds partial
// results; only a blessed op (a reshard, a sharding constraint, an
// all-reduce) may reduce them. Every other op must carry its operands'
// unreduced axes, with the same reduction, into its results; it may add
// new ones only for the reduction it performs (a sum, or a reduce's own
// reduction). Calls and returns must match the callee's / function's
// boundary exactly (a function result without a sharding states nothing).
// The first violation in each function is reported.
//
//   %arg0 {sdy.sharding = <@mesh, [{"x"}, {}], unreduced={"y"}>}
//   %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
//   -> error: 'stablehlo.add' op dropped unreduced axis 'y' without a blessed
//      operation (e.g., sdy.reshard). This is an invalid transition from
//      unreduced to reduced.
//
// Ops on different meshes are not compared. The sdy ops that pin a
// sharding are checked by the verifier (a reduction kept must not change);
// this pass adds that an `sdy.all_reduce` needs a sharded operand.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "export/FuncShardings.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

constexpr const char *kBlessed =
    " without a blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.";

std::string kindOf(const TensorSharding &s) { return s.unreducedKind.empty() ? "sum" : s.unreducedKind; }

struct Unreduced {
  AxisRef axis;
  std::string kind;
};

void append(const TensorSharding *s, std::vector<Unreduced> &out) {
  if (!s) return;
  for (const AxisRef &a : s->unreduced) out.push_back({a, kindOf(*s)});
}

const Unreduced *find(const std::vector<Unreduced> &list, const AxisRef &a) {
  for (const Unreduced &u : list)
    if (u.axis == a) return &u;
  return nullptr;
}

// The reduction a region-carrying op applies (its body's combining op).
std::string bodyReduction(const Module &m, OpId op) {
  if (m.numRegions(op) == 0 || m.regions[m.region(op, 0)].blocks.empty()) return "sum";
  for (OpId inner : m.blocks[m.regions[m.region(op, 0)].blocks.front()].ops) {
    std::string_view n = m.opName(inner);
    if (n == "stablehlo.maximum") return "max";
    if (n == "stablehlo.minimum") return "min";
    if (n == "stablehlo.multiply") return "product";
    if (n == "stablehlo.add") return "sum";
  }
  return "sum";
}

// The axis names in one list and not the other, sorted, ", "-joined.
std::string mismatch(const std::vector<AxisRef> &a, const std::vector<AxisRef> &b) {
  std::vector<std::string> names;
  for (const AxisRef &x : a)
    if (std::find(b.begin(), b.end(), x) == b.end()) names.push_back(x.name);
  for (const AxisRef &x : b)
    if (std::find(a.begin(), a.end(), x) == a.end()) names.push_back(x.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string out;
  for (const std::string &n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::vector<AxisRef> unreducedOf(const TensorSharding *s) { return s ? s->unreduced : std::vector<AxisRef>{}; }

class Verifier {
public:
  Verifier(const Module &m, Diagnostics &diags) : m_(m), diags_(diags) {}

  // False after reporting the function's first violation.
  bool verifyFunction(OpId func) {
    bool ok = true;
    m_.walk(func, [&](OpId op) {
      if (ok) ok = verifyOp(func, op);
    });
    return ok;
  }

private:
  const Module &m_;
  Diagnostics &diags_;

  bool fail(OpId op, const std::string &message) {
    diags_.error(m_, op, "'" + std::string(m_.opName(op)) + "' op " + message);
    return false;
  }

  bool verifyOp(OpId func, OpId op) {
    std::string_view name = m_.opName(op);
    if (name == "func.call") return verifyCall(op);
    if (name == "func.return") return verifyReturn(func, op);
    if (name == "stablehlo.all_reduce") return verifyAllReduce(op, bodyReduction(m_, op));
    if (name == "sdy.all_reduce") {
      if (m_.numOperands(op) == 1 && !valueSharding(m_, m_.operand(op, 0))) return fail(op, "operand must be sharded.");
      return true;
    }
    if (name == "sdy.manual_computation" || name == "sdy.constant") return verifyDefault(op);
    if (name.starts_with("sdy.")) return true;
    // Region terminators hand values to their parent op, which is checked
    // itself.
    if (name == "stablehlo.return") return true;
    return verifyDefault(op);
  }

  bool verifyCall(OpId call) {
    OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
    if (callee == kNone) return true;
    for (uint32_t i = 0; i < m_.numOperands(call); ++i) {
      std::string diff = mismatch(unreducedOf(valueSharding(m_, m_.operand(call, i))),
                                  unreducedOf(funcArgSharding(m_, callee, i)));
      if (!diff.empty())
        return fail(call, "has unreduced axes mismatch for '" + diff + "' at call argument " + std::to_string(i) + ".");
    }
    for (uint32_t i = 0; i < m_.numResults(call); ++i) {
      std::string diff = mismatch(unreducedOf(funcResultSharding(m_, callee, i)),
                                  unreducedOf(valueSharding(m_, m_.result(call, i))));
      if (!diff.empty())
        return fail(call, "has unreduced axes mismatch for '" + diff + "' at call result " + std::to_string(i) + ".");
    }
    return true;
  }

  // A result without a sharding states nothing to match.
  bool verifyReturn(OpId func, OpId ret) {
    for (uint32_t i = 0; i < m_.numOperands(ret); ++i) {
      const TensorSharding *declared = funcResultSharding(m_, func, i);
      if (!declared) continue;
      std::string diff = mismatch(unreducedOf(valueSharding(m_, m_.operand(ret, i))), unreducedOf(declared));
      if (!diff.empty())
        return fail(ret,
                    "has unreduced axes mismatch for '" + diff + "' at return value " + std::to_string(i) + kBlessed);
    }
    return true;
  }

  bool verifyAllReduce(OpId op, const std::string &reduction) {
    for (ValueId v : m_.operands(op)) {
      const TensorSharding *s = valueSharding(m_, v);
      if (s && !s->unreduced.empty() && kindOf(*s) != reduction)
        return fail(op, "cannot reduce '" + kindOf(*s) + "' unreduced axes. Expected '" + reduction + "'.");
    }
    return true;
  }

  bool verifyDefault(OpId op) {
    std::vector<Unreduced> in, out;
    std::optional<std::string> mesh;
    bool oneMesh = true;
    auto noteMesh = [&](const TensorSharding *s) {
      if (!s) return;
      if (mesh && *mesh != s->meshName) oneMesh = false;
      mesh = s->meshName;
    };
    for (ValueId v : m_.operands(op)) {
      const TensorSharding *s = valueSharding(m_, v);
      if (s && !s->unreduced.empty()) noteMesh(s);
      append(s, in);
    }
    for (uint32_t r = 0; r < m_.numResults(op); ++r) {
      const TensorSharding *s = resultSharding(m_, op, r);
      if (s && !s->unreduced.empty()) noteMesh(s);
      append(s, out);
    }
    if (!oneMesh) return true;
    for (const Unreduced &u : in) {
      const Unreduced *kept = find(out, u.axis);
      if (!kept) return fail(op, "dropped unreduced axis '" + u.axis.name + "'" + kBlessed);
      if (kept->kind != u.kind)
        return fail(op, "cannot change the reduction operator of kept unreduced axes from " + u.kind + " to " +
                            kept->kind + ".");
    }
    std::string allowed = m_.isa(op, "stablehlo.reduce") ? bodyReduction(m_, op) : "sum";
    for (const Unreduced &u : out)
      if (!find(in, u.axis) && u.kind != allowed)
        return fail(op, "cannot introduce '" + u.kind + "' unreduced axes. Expected '" + allowed + "'.");
    return true;
  }
};

PassRegistration reg("sdy-verify-unreduced-axes",
                     "Checks that unreduced axes are only reduced by reshards, constraints and all-reduces, and "
                     "match across calls and returns",
                     [](Module &m, const PassOptions &, Diagnostics &diags) {
                       Verifier verifier(m, diags);
                       bool ok = true;
                       for (OpId func : m.functions()) ok &= verifier.verifyFunction(func);
                       return ok;
                     });

}  // namespace

}  // namespace autopart
