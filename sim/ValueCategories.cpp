#include "sim/ValueCategories.h"

#include <set>

#include "analysis/CarriedState.h"

namespace autopart {

namespace {

// What a value derives from, as bits.
enum : uint8_t { kFromParameter = 1, kFromOptimizer = 2, kFromData = 4 };

const std::vector<ValueId> &blockArgs(const Module &m, OpId op, uint32_t r) {
  return m.blocks[m.regions[m.region(op, r)].blocks.front()].args;
}

// A while whose carried positions line up: operand k, block argument k of
// both regions, body return operand k and result k.
bool isStructuredWhile(const Module &m, OpId op) {
  if (!m.isa(op, "stablehlo.while") || m.numRegions(op) != 2) return false;
  uint32_t n = m.numOperands(op);
  if (m.numResults(op) != n) return false;
  for (uint32_t r = 0; r < 2; ++r)
    if (m.regions[m.region(op, r)].blocks.size() != 1 || blockArgs(m, op, r).size() != n) return false;
  const std::vector<OpId> &body = m.blocks[m.regions[m.region(op, 1)].blocks.front()].ops;
  return !body.empty() && m.numOperands(body.back()) == n;
}

OpId bodyReturn(const Module &m, OpId whileOp) {
  return m.blocks[m.regions[m.region(whileOp, 1)].blocks.front()].ops.back();
}

// Forward, in program order: what each value derives from.
class Origins {
public:
  Origins(const Module &m, std::vector<uint8_t> &bits) : m_(m), bits_(bits) {}

  // Returns the union of what the operands of the block's ops (nested ones
  // included) derive from.
  uint8_t block(BlockId b) {
    uint8_t seen = 0;
    for (OpId op : m_.blocks[b].ops) seen |= visit(op);
    return seen;
  }

private:
  uint8_t visit(OpId op) {
    uint8_t in = 0;
    for (ValueId v : m_.operands(op)) in |= bits_[v];
    if (m_.numRegions(op) == 0) {
      setResults(op, in);
      return in;
    }
    if (isStructuredWhile(m_, op)) return loop(op, in);
    uint8_t seen = in;
    for (uint32_t r = 0; r < m_.numRegions(op); ++r)
      for (BlockId b : m_.regions[m_.region(op, r)].blocks) {
        for (ValueId a : m_.blocks[b].args) bits_[a] = in;
        seen |= block(b);
      }
    setResults(op, seen);
    return seen;
  }

  uint8_t loop(OpId op, uint8_t in) {
    uint32_t n = m_.numOperands(op);
    std::vector<uint8_t> carry(n);
    for (uint32_t k = 0; k < n; ++k) carry[k] = bits_[m_.operand(op, k)];
    uint8_t seen = in;
    OpId ret = bodyReturn(m_, op);
    for (bool changed = true; changed;) {
      for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t k = 0; k < n; ++k) bits_[blockArgs(m_, op, r)[k]] = carry[k];
      for (uint32_t r = 0; r < 2; ++r) seen |= block(m_.regions[m_.region(op, r)].blocks.front());
      changed = false;
      for (uint32_t k = 0; k < n; ++k) {
        uint8_t next = carry[k] | bits_[m_.operand(ret, k)];
        changed |= next != carry[k];
        carry[k] = next;
      }
    }
    for (uint32_t k = 0; k < n; ++k) bits_[m_.result(op, k)] = carry[k];
    return seen;
  }

  void setResults(OpId op, uint8_t bits) {
    for (uint32_t r = 0; r < m_.numResults(op); ++r) bits_[m_.result(op, r)] = bits;
  }

  const Module &m_;
  std::vector<uint8_t> &bits_;
};

// Backward, in reverse program order: which values reach a marked one.
class Reaches {
public:
  Reaches(const Module &m, std::vector<bool> &reach) : m_(m), reach_(reach) {}

  void block(BlockId b) {
    const std::vector<OpId> &ops = m_.blocks[b].ops;
    for (size_t i = ops.size(); i-- > 0;) visit(ops[i]);
  }

private:
  void visit(OpId op) {
    if (isStructuredWhile(m_, op)) return loop(op);
    bool any = false;
    for (uint32_t r = 0; r < m_.numResults(op); ++r) any = any || reach_[m_.result(op, r)];
    if (!any) return;
    for (ValueId v : m_.operands(op)) reach_[v] = true;
    // What the regions yield becomes the results (case, reduce).
    for (uint32_t r = 0; r < m_.numRegions(op); ++r)
      for (BlockId b : m_.regions[m_.region(op, r)].blocks) {
        const std::vector<OpId> &ops = m_.blocks[b].ops;
        if (ops.empty()) continue;
        for (ValueId v : m_.operands(ops.back())) reach_[v] = true;
        block(b);
      }
  }

  void loop(OpId op) {
    uint32_t n = m_.numOperands(op);
    std::vector<bool> carry(n);
    bool any = false;
    for (uint32_t k = 0; k < n; ++k) {
      carry[k] = reach_[m_.result(op, k)];
      any = any || carry[k];
    }
    if (!any) return;
    OpId ret = bodyReturn(m_, op);
    BlockId body = m_.regions[m_.region(op, 1)].blocks.front();
    const std::vector<ValueId> &args = blockArgs(m_, op, 1);
    for (bool changed = true; changed;) {
      for (uint32_t k = 0; k < n; ++k)
        if (carry[k]) reach_[m_.operand(ret, k)] = true;
      block(body);
      changed = false;
      for (uint32_t k = 0; k < n; ++k)
        if (reach_[args[k]] && !carry[k]) carry[k] = changed = true;
    }
    for (uint32_t k = 0; k < n; ++k)
      if (carry[k]) reach_[m_.operand(op, k)] = true;
  }

  const Module &m_;
  std::vector<bool> &reach_;
};

MemoryCategory roleCategory(ArgRole role) {
  switch (role) {
  case ArgRole::Parameter: return MemoryCategory::Parameters;
  case ArgRole::OptimizerState: return MemoryCategory::OptimizerState;
  case ArgRole::Data: return MemoryCategory::Inputs;
  }
  return MemoryCategory::Other;
}

}  // namespace

const char *memoryCategoryName(MemoryCategory c) {
  static const char *const names[] = {"parameters", "optimizer state", "gradients", "activations",
                                      "inputs",     "collective buffers", "other"};
  return names[size_t(c)];
}

const char *memoryCategoryKey(MemoryCategory c) {
  static const char *const keys[] = {"parameters", "optimizer_state", "gradients", "activations",
                                     "inputs",     "collective_buffers", "other"};
  return keys[size_t(c)];
}

std::vector<MemoryCategory> valueCategories(const Module &m, OpId func) {
  if (func == kNone) return std::vector<MemoryCategory>(m.values.size(), MemoryCategory::Other);
  return valueCategories(m, func, classifyArguments(m, func));
}

std::vector<MemoryCategory> valueCategories(const Module &m, OpId func, const std::vector<ArgumentInfo> &roles) {
  std::vector<MemoryCategory> out(m.values.size(), MemoryCategory::Other);
  if (func == kNone) return out;
  FuncView f{m, func};
  std::span<const ValueId> args = f.args();
  std::vector<int64_t> carried = carriedArguments(m, func);
  std::vector<bool> isCarried(args.size(), false);
  for (int64_t a : carried)
    if (a >= 0 && size_t(a) < args.size()) isCarried[size_t(a)] = true;

  // Arguments seed what values derive from; parameter shapes for gradients.
  std::vector<uint8_t> bits(m.values.size(), 0);
  std::set<std::vector<int64_t>> parameterShapes;
  for (size_t i = 0; i < args.size() && i < roles.size(); ++i) {
    switch (roles[i].role) {
    case ArgRole::Parameter:
      bits[args[i]] = kFromParameter;
      parameterShapes.insert(m.types.shape(m.type(args[i])));
      break;
    case ArgRole::OptimizerState: bits[args[i]] = kFromOptimizer; break;
    case ArgRole::Data: bits[args[i]] = isCarried[i] ? 0 : kFromData; break;
    }
  }
  Origins(m, bits).block(f.entry());

  // Values reaching a result that carries state to the next step.
  std::vector<bool> reach(m.values.size(), false);
  OpId ret = f.returnOp();
  if (ret != kNone)
    for (size_t k = 0; k < carried.size() && k < m.numOperands(ret); ++k)
      if (carried[k] >= 0) reach[m.operand(ret, uint32_t(k))] = true;
  Reaches(m, reach).block(f.entry());

  m.walk(func, [&](OpId op) {
    for (uint32_t r = 0; r < m.numResults(op); ++r) {
      ValueId v = m.result(op, r);
      if (bits[v] & kFromData)
        out[v] = reach[v] && parameterShapes.count(m.types.shape(m.type(v))) ? MemoryCategory::Gradients
                                                                                : MemoryCategory::Activations;
      else if (bits[v] & kFromOptimizer)
        out[v] = MemoryCategory::OptimizerState;
      else if (bits[v] & kFromParameter)
        out[v] = MemoryCategory::Parameters;
    }
  });
  // Arguments by role; a returned update is the state it carries.
  for (size_t i = 0; i < args.size() && i < roles.size(); ++i) out[args[i]] = roleCategory(roles[i].role);
  if (ret != kNone)
    for (size_t k = 0; k < carried.size() && k < m.numOperands(ret); ++k) {
      int64_t a = carried[k];
      ValueId v = m.operand(ret, uint32_t(k));
      if (a >= 0 && size_t(a) < roles.size() && m.definingOp(v) != kNone &&
          roles[size_t(a)].role != ArgRole::Data)
        out[v] = roleCategory(roles[size_t(a)].role);
    }
  return out;
}

}  // namespace autopart
