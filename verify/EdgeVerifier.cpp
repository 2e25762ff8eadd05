// Shardy's checks of the ops and attributes that describe how shardings flow
// rather than what they are: data-flow edges, function data-flow edges,
// propagation barriers, and the `sdy.propagation_edges` record that
// propagation leaves on ops for debugging.
//
//   %1 = sdy.data_flow_edge %0 : tensor<?x8xf32>
//   -> 'sdy.data_flow_edge' op expected sdy.data_flow_edge to have a
//      static-shaped result. type: 'tensor<?x8xf32>'
//   {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [operand-0]}]}]>}
//   -> 'stablehlo.add' op propagation edges have a source that is the same as a target
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

#include "verify/TensorShardingVerifier.h"

namespace autopart {

namespace {

bool hasStaticShape(const Module &m, TypeId t) {
  const TypeStorage &s = m.types.get(t);
  if (s.kind != TypeKind::Tensor) return false;
  return std::none_of(s.shape.begin(), s.shape.end(), [](int64_t d) { return d == kDynamic; });
}

std::string quotedType(const Module &m, TypeId t) {
  return "'" + std::string(m.types.str(t)) + "'";
}

// The `sdy` ops that may feed a data-flow edge: those whose results are
// themselves the targets of data-flow edges.
bool isShardableDataFlowOp(const Module &m, OpId op) {
  return m.isa(op, "sdy.manual_computation") || m.isa(op, "sdy.named_computation");
}

void verifyDataFlowEdge(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  TypeId type = m.type(m.result(op));
  if (!hasStaticShape(m, type)) {
    ctx.opError(op, "expected sdy.data_flow_edge to have a static-shaped result. type: " +
                        quotedType(m, type));
    return;
  }
  ValueId input = m.operand(op, 0);
  if (ctx.useCount(input) != 1) {
    ctx.opError(op, "expected input of sdy.data_flow_edge to have a single user");
    return;
  }
  if (OpId def = m.definingOp(input);
      def != kNone && m.opName(def).starts_with("sdy.") && !isShardableDataFlowOp(m, def)) {
    ctx.opError(op,
                "expected input of sdy.data_flow_edge to not be defined by an SdyDialect op (other "
                "than an sdy.named_computation).");
    ctx.note(def, "sdy op defining the input of the sdy.data_flow_edge");
    return;
  }
  AttrId a = m.attr(op, "sharding");
  if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding)
    verifyTensorSharding(
        ctx, *m.attrs.get(a).sharding, type, [&](const std::string &msg) { ctx.opError(op, msg); },
        op);
}

// A function data-flow edge stands on a function's argument or on a call's
// result, which it alone reads.
void verifyFuncDataFlowEdge(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  TypeId type = m.type(m.result(op));
  if (!hasStaticShape(m, type)) {
    ctx.opError(op, "expected sdy.func_data_flow_edge to have a static-shaped result. type: " +
                        quotedType(m, type));
    return;
  }
  ValueId input = m.operand(op, 0);
  if (ctx.useCount(input) != 1) {
    ctx.opError(op, "expected operand of sdy.func_data_flow_edge to have a single user");
    return;
  }
  const ValueInfo &info = m.values[input];
  if (info.isBlockArg) {
    OpId owner = m.regions[m.blocks[info.owner].parent].parent;
    if (owner == kNone || !m.isa(owner, "func.func"))
      ctx.opError(op, "expected operand of sdy.func_data_flow_edge to be a block argument of a "
                      "func op.");
    return;
  }
  if (!m.isa(info.owner, "func.call"))
    ctx.opError(op, "expected operand of sdy.func_data_flow_edge to be a result of call op.");
}

void verifyPropagationBarrier(VerifyContext &ctx, OpId op) {
  AttrId dir = ctx.m.attr(op, "allowed_direction");
  if (dir == kNoAttr) return;
  const std::string &text = ctx.m.attrs.get(dir).text;
  if (text.ends_with(" BOTH>") || text == "BOTH")
    ctx.opError(op, "cannot specify `BOTH` as the direction. Not blocking propagation direction "
                    "makes the op redundant.");
}

OpVerifierRegistration dataFlowEdge("sdy.data_flow_edge", verifyDataFlowEdge);
OpVerifierRegistration funcDataFlowEdge("sdy.func_data_flow_edge", verifyFuncDataFlowEdge);
OpVerifierRegistration propagationBarrier("sdy.propagation_barrier", verifyPropagationBarrier);

// --- sdy.propagation_edges ----------------------------------------------------

// `operand-3` / `result-0`.
struct ValueRef {
  bool isResult = false;
  int64_t index = 0;
  bool operator==(const ValueRef &) const = default;
};

// `{"a":(1)2 = operand-0 -> [result-0, result-1]}`: axis "a":(1)2 moved
// from the op's first operand to its two results.
struct AxisEdge {
  AxisRef axis;
  ValueRef source;
  std::vector<ValueRef> targets;
};

struct PropagationStep {
  int64_t index = 0;
  std::vector<AxisEdge> edges;
};

// Reads the attribute's text, which autopart keeps as written: `[{step-N =
// [edge, ...]}, ...]` between `#sdy.propagation_edges<` and `>`.
class EdgesReader {
public:
  explicit EdgesReader(std::string_view text) : s_(text) {}

  std::optional<std::vector<PropagationStep>> read() {
    std::vector<PropagationStep> steps;
    if (!lit("#sdy.propagation_edges") || !lit("<") || !lit("[")) return std::nullopt;
    if (lit("]")) return lit(">") ? std::optional(steps) : std::nullopt;
    do {
      PropagationStep step;
      if (!lit("{") || !lit("step-") || !integer(step.index) || !lit("=") || !lit("["))
        return std::nullopt;
      if (!lit("]")) {
        do {
          AxisEdge e;
          if (!lit("{") || !axisRef(e.axis) || !lit("=") || !valueRef(e.source) || !lit("->") ||
              !lit("["))
            return std::nullopt;
          do {
            ValueRef t;
            if (!valueRef(t)) return std::nullopt;
            e.targets.push_back(t);
          } while (lit(","));
          if (!lit("]") || !lit("}")) return std::nullopt;
          step.edges.push_back(std::move(e));
        } while (lit(","));
        if (!lit("]")) return std::nullopt;
      }
      if (!lit("}")) return std::nullopt;
      steps.push_back(std::move(step));
    } while (lit(","));
    if (!lit("]") || !lit(">")) return std::nullopt;
    return steps;
  }

private:
  void ws() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
  bool lit(std::string_view t) {
    ws();
    if (s_.substr(p_, t.size()) != t) return false;
    p_ += t.size();
    return true;
  }
  bool integer(int64_t &v) {
    ws();
    size_t start = p_;
    if (p_ < s_.size() && s_[p_] == '-') ++p_;
    while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
    if (p_ == start || (p_ == start + 1 && s_[start] == '-')) return false;
    v = std::strtoll(std::string(s_.substr(start, p_ - start)).c_str(), nullptr, 10);
    return true;
  }
  bool axisRef(AxisRef &r) {
    ws();
    if (p_ >= s_.size() || s_[p_] != '"') return false;
    size_t end = s_.find('"', p_ + 1);
    if (end == std::string_view::npos) return false;
    r.name = std::string(s_.substr(p_ + 1, end - p_ - 1));
    p_ = end + 1;
    if (lit(":"))
      return lit("(") && integer(r.preSize) && lit(")") && integer(r.subSize);
    return true;
  }
  bool valueRef(ValueRef &v) {
    ws();
    auto keyword = [&](std::string_view kw) {
      if (s_.size() - p_ < kw.size()) return false;
      for (size_t i = 0; i < kw.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s_[p_ + i])) != kw[i]) return false;
      p_ += kw.size();
      return true;
    };
    if (keyword("operand")) {
      v.isResult = false;
    } else if (keyword("result")) {
      v.isResult = true;
    } else {
      return false;
    }
    return (lit("-") || lit("_")) && integer(v.index);
  }

  std::string_view s_;
  size_t p_ = 0;
};

bool isPropagationEdges(const Module &m, AttrId a) {
  return m.attrs.kind(a) == AttrKind::Opaque &&
         std::string_view(m.attrs.get(a).text).starts_with("#sdy.propagation_edges<");
}

std::string axisName(const AxisRef &r) {
  std::string s = r.name;
  if (r.isSubAxis()) s += ":(" + std::to_string(r.preSize) + ")" + std::to_string(r.subSize);
  return s;
}

// The edges' structure: step indices, value refs within the op, no edge to
// its own source, no target twice.
bool verifyEdgeStructure(VerifyContext &ctx, OpId op, const std::vector<PropagationStep> &steps) {
  const Module &m = ctx.m;
  // An edge op's operands are its sources elsewhere in the program, not
  // its own operands.
  bool checkOperands = !m.isa(op, "sdy.func_data_flow_edge") && !m.isa(op, "sdy.data_flow_edge");
  auto inRange = [&](const ValueRef &v) {
    if (v.isResult) {
      if (v.index >= 0 && v.index < int64_t(m.numResults(op))) return true;
      ctx.opError(op, "expected a value ref to have a result index in range [0, " +
                          std::to_string(m.numResults(op)) + "), got: " + std::to_string(v.index));
      return false;
    }
    if (!checkOperands || (v.index >= 0 && v.index < int64_t(m.numOperands(op)))) return true;
    ctx.opError(op, "expected a value ref to have an operand index in range [0, " +
                        std::to_string(m.numOperands(op)) + "), got: " + std::to_string(v.index));
    return false;
  };
  std::vector<int64_t> seenSteps;
  for (const PropagationStep &step : steps) {
    if (step.index < 0) {
      ctx.opError(op, "propagation edges have negative step index: " + std::to_string(step.index));
      return false;
    }
    if (std::find(seenSteps.begin(), seenSteps.end(), step.index) != seenSteps.end()) {
      ctx.opError(op, "propagation edges have duplicate step index: " + std::to_string(step.index));
      return false;
    }
    seenSteps.push_back(step.index);
    for (const AxisEdge &e : step.edges) {
      if (!inRange(e.source)) return false;
      for (size_t i = 0; i < e.targets.size(); ++i) {
        if (!inRange(e.targets[i])) return false;
        if (e.targets[i] == e.source) {
          ctx.opError(op, "propagation edges have a source that is the same as a target");
          return false;
        }
        if (std::find(e.targets.begin(), e.targets.begin() + i, e.targets[i]) !=
            e.targets.begin() + i) {
          ctx.opError(op, "propagation edges have duplicate targets for step index: " +
                              std::to_string(step.index) + " and axis: " + axisName(e.axis));
          return false;
        }
      }
    }
  }
  return true;
}

// Every axis moved must be an axis of the mesh of some sharding of the op's
// operands or results.
bool verifyEdgeAxes(VerifyContext &ctx, OpId op, const std::vector<PropagationStep> &steps) {
  const Module &m = ctx.m;
  std::vector<const Mesh *> meshes;
  auto addMesh = [&](ValueId value) {
    if (const TensorSharding *s = ctx.sharding(value))
      if (const Mesh *mesh = ctx.mesh(*s))
        if (std::find(meshes.begin(), meshes.end(), mesh) == meshes.end()) meshes.push_back(mesh);
  };
  for (ValueId v : m.operands(op)) addMesh(v);
  for (uint32_t i = 0; i < m.numResults(op); ++i) addMesh(m.result(op, i));
  if (steps.empty()) return true;
  if (meshes.empty()) {
    ctx.opError(op, "expected propagation edges attr to reference a sharding");
    return false;
  }
  for (const PropagationStep &step : steps)
    for (const AxisEdge &e : step.edges)
      if (std::none_of(meshes.begin(), meshes.end(),
                       [&](const Mesh *mesh) { return mesh->axisIndex(e.axis.name) >= 0; })) {
        ctx.opError(op, "expected axis ref to be in one of the meshes");
        return false;
      }
  return true;
}

void verifyPropagationEdges(VerifyContext &ctx, OpId op, AttrId a) {
  const Module &m = ctx.m;
  if (!isPropagationEdges(m, a)) {
    ctx.opError(op, "should have a propagation edges attribute of type PropagationEdgesAttr for "
                    "attr named 'sdy.propagation_edges'");
    return;
  }
  std::optional<std::vector<PropagationStep>> steps = EdgesReader(m.attrs.get(a).text).read();
  if (!steps) return;
  // The axes are checked first: an axis foreign to every mesh is the more
  // basic error, whatever the value refs say.
  if (verifyEdgeAxes(ctx, op, *steps)) verifyEdgeStructure(ctx, op, *steps);
}

// Per-result and per-block-argument edges: an array of edge attributes.
void verifyPropagationEdgesArray(VerifyContext &ctx, OpId op, AttrId a) {
  const Module &m = ctx.m;
  bool ok = m.attrs.kind(a) == AttrKind::Array;
  if (ok)
    for (AttrId e : m.attrs.get(a).elems) ok &= isPropagationEdges(m, e);
  if (!ok)
    ctx.opError(op, "should have a propagation edges attribute of type "
                    "ArrayAttr<PropagationEdgesAttr> for attr named "
                    "'sdy.result_propagation_edges' or 'sdy.block_arg_propagation_edges'");
}

AttrVerifierRegistration propagationEdges("sdy.propagation_edges", verifyPropagationEdges);
AttrVerifierRegistration resultEdges("sdy.result_propagation_edges", verifyPropagationEdgesArray);
AttrVerifierRegistration blockArgEdges("sdy.block_arg_propagation_edges",
                                       verifyPropagationEdgesArray);

}  // namespace

}  // namespace autopart
