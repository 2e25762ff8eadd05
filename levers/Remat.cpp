#include "levers/Remat.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "analysis/NamedDimensions.h"
#include "ir/Clone.h"
#include "levers/StepStructure.h"
#include "rules/OpInfo.h"

namespace autopart {

const char *rematPolicyName(RematPolicy p) {
  switch (p) {
  case RematPolicy::None: return "none";
  case RematPolicy::Full: return "full";
  case RematPolicy::Selective: return "selective";
  case RematPolicy::Dots: return "dots";
  case RematPolicy::DotsNoBatch: return "dots-no-batch";
  }
  return "?";
}

std::optional<RematPolicy> parseRematPolicy(const std::string &name) {
  for (RematPolicy p :
       {RematPolicy::None, RematPolicy::Full, RematPolicy::Selective, RematPolicy::Dots, RematPolicy::DotsNoBatch})
    if (name == rematPolicyName(p)) return p;
  return std::nullopt;
}

namespace {

// Ops whose copy computes the same values: no side effects, no control flow
// (a loop is not worth recomputing and may not be pure), not a collective.
bool recomputable(const Module &m, OpId op) {
  const OpInfo &info = opInfo(m, op);
  switch (info.category) {
  case OpCategory::Elementwise:
  case OpCategory::DataMovement:
  case OpCategory::Contraction:
  case OpCategory::Reduction:
  case OpCategory::Constant:
  case OpCategory::Sharding:
    return m.numResults(op) > 0;
  case OpCategory::Other:
    // Random bits are a pure function of the state they are given.
    return m.isa(op, "stablehlo.rng_bit_generator");
  default:
    return false;
  }
}

bool hasRepeatedName(const Module &m, const NamedDimensions &names, ValueId v) {
  TypeId t = m.type(v);
  if (!m.types.isTensor(t)) return false;
  int64_t rank = m.types.rank(t);
  for (int64_t a = 0; a < rank; ++a) {
    NameId32 na = names.nameOf(v, uint32_t(a));
    if (na == kNoDimName) continue;
    for (int64_t b = a + 1; b < rank; ++b)
      if (names.nameOf(v, uint32_t(b)) == na) return true;
  }
  return false;
}

}  // namespace

bool rematerialize(Module &m, OpId func, BlockId block, RematPolicy policy, RematResult &out,
                   Diagnostics &diags) {
  (void)diags;
  out = RematResult{};
  if (policy == RematPolicy::None) return true;
  StepStructure s = analyzeStep(m, func, block, dataArguments(m, func));
  out.layers = s.layerBoundaries;
  if (s.residuals.empty()) return true;

  std::optional<NamedDimensions> names;
  if (policy == RematPolicy::Selective) names = analyzeNamedDimensions(m);
  std::vector<bool> isCheckpoint(m.values.size(), false);
  for (ValueId v : s.checkpoints) isCheckpoint[v] = true;

  // Values the recomputation must not go past: kept residuals, and values it
  // cannot or need not copy.
  std::vector<char> keep(m.values.size(), 0), recompute(m.values.size(), 0);
  auto isLeaf = [&](ValueId v) {
    if (keep[v]) return true;
    OpId def = m.definingOp(v);
    if (def == kNone || m.ops[def].parent != block) return true;  // arguments, captured values
    if (!s.forward[s.position[def]]) return true;
    return !recomputable(m, def) || opInfo(m, def).category == OpCategory::Constant;
  };
  // Layer inputs are saved even when the backward pass does not read them:
  // the recomputation of their layer starts from them.
  bool dots = policy == RematPolicy::Dots || policy == RematPolicy::DotsNoBatch;
  if (policy == RematPolicy::Full || dots)
    for (ValueId v : s.checkpoints) keep[v] = 1;
  // The dots policies save every (unbatched) matmul output the
  // recomputation would read.
  auto savedDot = [&](OpId op) {
    if (opInfo(m, op).category != OpCategory::Contraction) return false;
    if (policy != RematPolicy::DotsNoBatch) return true;
    AttrId dn = m.attr(op, "dot_dimension_numbers");
    return dn == kNoAttr || m.attrs.field(dn, "lhs_batching_dimensions") == kNoAttr;
  };
  if (dots)
    for (size_t i = 0; i < s.ops.size(); ++i)
      if (s.forward[i] && savedDot(s.ops[i]))
        for (uint32_t r = 0; r < m.numResults(s.ops[i]); ++r) keep[m.result(s.ops[i], r)] = 1;
  for (ValueId v : s.residuals) {
    OpId def = m.definingOp(v);
    // A value of constants alone (a causal mask) is one buffer every layer
    // shares: recomputing it per layer would multiply it.
    bool keepIt = !recomputable(m, def) || opInfo(m, def).category == OpCategory::Constant ||
                  !s.argumentDependent[v];
    switch (policy) {
    case RematPolicy::Full: keepIt = keepIt || isCheckpoint[v]; break;
    case RematPolicy::Dots:
    case RematPolicy::DotsNoBatch: keepIt = keepIt || isCheckpoint[v] || savedDot(def); break;
    case RematPolicy::Selective: keepIt = keepIt || !hasRepeatedName(m, *names, v); break;
    case RematPolicy::None: keepIt = true; break;
    }
    keep[v] = keepIt;
    recompute[v] = !keepIt;
    if (keepIt) {
      ++out.keptResiduals;
    } else {
      ++out.recomputedValues;
      out.droppedBytes += m.types.isTensor(m.type(v)) ? m.types.byteSize(m.type(v)) : 0;
    }
  }
  if (!out.recomputedValues) return true;

  // The blocks whose values `block` sees: itself and those enclosing it.
  std::vector<BlockId> enclosing;
  for (BlockId b = block; b != kNone;) {
    enclosing.push_back(b);
    OpId parent = m.regions[m.blocks[b].parent].parent;
    b = parent == kNone ? kNone : m.ops[parent].parent;
  }
  auto visibleInBlock = [&](ValueId u) {
    BlockId owner = m.values[u].isBlockArg ? BlockId(m.values[u].owner) : m.ops[m.values[u].owner].parent;
    return std::find(enclosing.begin(), enclosing.end(), owner) != enclosing.end();
  };

  std::vector<ValueId> cloneOf(m.values.size(), kNone);
  std::vector<char> cloned(m.ops.size(), 0);
  std::vector<OpId> newOps;
  std::vector<ValueId> stack;
  std::vector<OpId> closure, barriers;
  std::vector<char> inClosure(m.ops.size(), 0);
  for (size_t i = 0; i < s.ops.size(); ++i) {
    OpId op = s.ops[i];
    if (s.forward[i]) {
      newOps.push_back(op);
      continue;
    }
    // The forward ops to copy for what this op reads.
    closure.clear();
    forEachRead(m, op, [&](ValueId v) {
      if (v < recompute.size() && recompute[v] && cloneOf[v] == kNone) stack.push_back(v);
    });
    while (!stack.empty()) {
      ValueId v = stack.back();
      stack.pop_back();
      OpId def = m.definingOp(v);
      if (def == kNone || inClosure[def] || cloned[def]) continue;
      inClosure[def] = 1;
      closure.push_back(def);
      forEachRead(m, def, [&](ValueId u) {
        if (u < cloneOf.size() && cloneOf[u] == kNone && !isLeaf(u)) stack.push_back(u);
      });
    }
    if (!closure.empty()) {
      std::sort(closure.begin(), closure.end(), [&](OpId a, OpId b) { return s.position[a] < s.position[b]; });
      // Inputs from outside the copy go through one barrier.
      std::vector<ValueId> inputs;
      std::vector<char> seen;
      auto isInClosureResult = [&](ValueId u) {
        OpId d = m.definingOp(u);
        return d != kNone && d < inClosure.size() && inClosure[d];
      };
      for (OpId c : closure)
        forEachRead(m, c, [&](ValueId u) {
          if (isInClosureResult(u) || (u < cloneOf.size() && cloneOf[u] != kNone)) return;
          if (!visibleInBlock(u)) return;  // defined inside the op's own regions
          OpId d = m.definingOp(u);
          if (d != kNone && opInfo(m, d).category == OpCategory::Constant) return;
          if (std::find(inputs.begin(), inputs.end(), u) == inputs.end()) inputs.push_back(u);
        });
      std::vector<ValueId> barrierOf(inputs.size());
      if (!inputs.empty()) {
        std::vector<TypeId> types;
        for (ValueId u : inputs) types.push_back(m.type(u));
        OpId b = m.createOp("stablehlo.optimization_barrier", inputs, types);
        m.ops[b].srcOffset = m.ops[closure.front()].srcOffset;
        m.ops[b].parent = block;
        newOps.push_back(b);
        barriers.push_back(b);
        ++out.barriers;
        for (size_t j = 0; j < inputs.size(); ++j) barrierOf[j] = m.result(b, uint32_t(j));
      }
      auto mapValue = [&](ValueId u) {
        if (u < cloneOf.size() && cloneOf[u] != kNone) return cloneOf[u];
        auto it = std::find(inputs.begin(), inputs.end(), u);
        return it == inputs.end() ? u : barrierOf[size_t(it - inputs.begin())];
      };
      for (OpId c : closure) {
        OpId copy = cloneOp(m, c, mapValue);
        m.ops[copy].parent = block;
        newOps.push_back(copy);
        cloned[c] = 1;
        ++out.clonedOps;
        if (cloneOf.size() < m.values.size()) cloneOf.resize(m.values.size(), kNone);
        for (uint32_t r = 0; r < m.numResults(c); ++r) cloneOf[m.result(c, r)] = m.result(copy, r);
      }
      for (OpId c : closure) inClosure[c] = 0;
      if (inClosure.size() < m.ops.size()) inClosure.resize(m.ops.size(), 0);
      if (cloned.size() < m.ops.size()) cloned.resize(m.ops.size(), 0);
    }
    // Read the copies.
    auto redirect = [&](OpId user) {
      for (uint32_t k = 0; k < m.numOperands(user); ++k) {
        ValueId v = m.operand(user, k);
        if (v < recompute.size() && recompute[v] && cloneOf[v] != kNone) m.setOperand(user, k, cloneOf[v]);
      }
    };
    redirect(op);
    if (m.numRegions(op)) m.walk(op, redirect);
    newOps.push_back(op);
  }
  m.blocks[block].ops = std::move(newOps);

  out.recomputes.assign(m.values.size(), kNone);
  for (ValueId v = 0; v < cloneOf.size(); ++v)
    if (cloneOf[v] != kNone) out.recomputes[cloneOf[v]] = v;
  // Barrier results stand for their operands.
  for (OpId op : barriers)
    for (uint32_t r = 0; r < m.numResults(op); ++r) out.recomputes[m.result(op, r)] = m.operand(op, r);
  return true;
}

}  // namespace autopart
