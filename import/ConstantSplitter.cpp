#include "import/ConstantSplitter.h"

#include <unordered_map>
#include <unordered_set>

#include <algorithm>
#include <memory>
#include <optional>

#include "canonicalize/Rewriter.h"
#include "import/CallGraph.h"
#include "import/FuncClone.h"
#include "ir/Pass.h"
#include "rules/OpInfo.h"

namespace autopart {

namespace {

using canonicalize::Rewriter;

bool isScalarValue(const Module &m, ValueId v) {
  TypeId t = m.type(v);
  return m.types.isTensor(t) && m.types.rank(t) == 0;
}

// An ordered set of ops: insertion order matters for the final erasure.
struct OpSet {
  std::vector<OpId> order;
  std::unordered_set<OpId> members;
  void insert(OpId op) {
    if (members.insert(op).second) order.push_back(op);
  }
  bool contains(OpId op) const { return members.count(op) != 0; }
};

class Splitter {
public:
  explicit Splitter(Module &m) : m_(m), cloner_(m) {}

  size_t run() {
    // Callees first, so a copied callee is already split.
    rw_.emplace(m_);
    for (OpId func : callGraphPostOrder(m_)) splitFunction(func);
    return copies_;
  }

private:
  Module &m_;
  FunctionCloner cloner_;
  std::optional<Rewriter> rw_;
  std::vector<OpSet> scopes_;  // constant ops, one set per named computation
  OpSet scalarExpansions_;
  std::unordered_map<OpId, bool> constantBodies_;  // per function
  std::vector<OpId> checking_;                     // functions being checked (cycles)
  size_t copies_ = 0;

  void splitFunction(OpId func) {
    renameConstants(func);
    scopes_.clear();
    scopes_.emplace_back();
    scalarExpansions_ = OpSet();
    for (uint32_t r = 0; r < m_.numRegions(func); ++r)
      for (BlockId b : std::vector<BlockId>(m_.regions[m_.region(func, r)].blocks)) visitBlock(b);
    eraseUnused(scalarExpansions_.order, false);
    eraseUnused(scopes_.back().order, true);
  }

  // stablehlo.constant -> sdy.constant, keeping its attributes.
  void renameConstants(OpId func) {
    NameId sdyConstant = m_.names.get("sdy.constant");
    m_.walk(func, [&](OpId op) {
      if (m_.isa(op, "stablehlo.constant")) m_.ops[op].name = sdyConstant;
    });
  }

  void visitBlock(BlockId b) {
    std::vector<OpId> ops = m_.blocks[b].ops;  // copies go before originals, unvisited
    for (OpId op : ops) visitOp(op);
  }

  void visitRegions(OpId op) {
    for (uint32_t r = 0; r < m_.numRegions(op); ++r)
      for (BlockId b : std::vector<BlockId>(m_.regions[m_.region(op, r)].blocks)) visitBlock(b);
  }

  void visitOp(OpId op) {
    if (m_.isa(op, "sdy.named_computation")) {
      // The body is a scope of its own: its constants are split among its
      // users and the originals left unused are erased when it ends.
      scopes_.emplace_back();
      visitRegions(op);
      eraseUnused(scopes_.back().order, true);
      scopes_.pop_back();
      processOp(op);
      return;
    }
    processOp(op);
    visitRegions(op);
  }

  bool isConstantPreserving(OpId op) const {
    if (m_.numRegions(op) != 0 || m_.numResults(op) == 0) return false;
    if (m_.isa(op, "stablehlo.broadcast_in_dim") || m_.isa(op, "stablehlo.reshape") ||
        m_.isa(op, "stablehlo.slice"))
      return true;
    return opInfo(m_, op).category == OpCategory::Elementwise;
  }

  // A named computation or call whose body only computes constants from
  // its arguments is a constant expression when its operands are.
  bool isConstantExpression(OpId op) {
    if (m_.isa(op, "sdy.constant") || m_.isa(op, "stablehlo.iota")) return true;
    if (m_.isa(op, "sdy.named_computation")) {
      if (!regionIsConstantLike(m_.region(op, 0))) return false;
    } else if (m_.isa(op, "func.call")) {
      OpId callee = m_.lookupFunc(m_.attr(op, "callee"));
      if (callee == kNone || !functionIsConstantLike(callee)) return false;
    } else if (!isConstantPreserving(op)) {
      return false;
    }
    for (ValueId v : m_.operands(op)) {
      OpId def = m_.definingOp(v);
      if (def == kNone || !scopes_.back().contains(def)) return false;
    }
    return true;
  }

  // Every op of the region computes a constant when the region's arguments
  // are constants.
  bool regionIsConstantLike(RegionId region) {
    for (BlockId b : m_.regions[region].blocks)
      for (OpId op : m_.blocks[b].ops) {
        if (m_.isa(op, "sdy.return") || m_.isa(op, "func.return") || m_.isa(op, "sdy.sharding_group") ||
            m_.isa(op, "sdy.constant") || m_.isa(op, "stablehlo.constant") || m_.isa(op, "stablehlo.iota") ||
            isConstantPreserving(op))
          continue;
        if (m_.isa(op, "sdy.named_computation") && regionIsConstantLike(m_.region(op, 0))) continue;
        if (m_.isa(op, "func.call")) {
          OpId callee = m_.lookupFunc(m_.attr(op, "callee"));
          if (callee != kNone && functionIsConstantLike(callee)) continue;
        }
        return false;
      }
    return true;
  }

  bool functionIsConstantLike(OpId func) {
    if (auto it = constantBodies_.find(func); it != constantBodies_.end()) return it->second;
    if (std::find(checking_.begin(), checking_.end(), func) != checking_.end()) return false;
    if (m_.numRegions(func) == 0 || m_.regions[m_.region(func, 0)].blocks.empty()) return false;
    checking_.push_back(func);
    bool result = regionIsConstantLike(m_.region(func, 0));
    checking_.pop_back();
    constantBodies_[func] = result;
    return result;
  }

  bool isScalarExpansion(OpId op) const {
    return m_.isa(op, "stablehlo.broadcast_in_dim") && m_.numOperands(op) == 1 &&
           isScalarValue(m_, m_.operand(op, 0));
  }

  void processOp(OpId op) {
    if (m_.isa(op, "sdy.sharding_group")) return;
    if (isConstantExpression(op)) {
      scopes_.back().insert(op);
      return;
    }
    if (isScalarExpansion(op)) {
      scalarExpansions_.insert(op);
      return;
    }
    for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
      ValueId v = m_.operand(op, i);
      OpId def = m_.definingOp(v);
      if (def == kNone || !(scopes_.back().contains(def) || scalarExpansions_.contains(def))) continue;
      if (isScalarValue(m_, v)) continue;
      std::unordered_map<ValueId, ValueId> mapping;
      rw_->setOperand(op, i, cloneSubComputation(v, mapping));
    }
  }

  // Copies the ops computing `v` (those not copied yet in this split),
  // each right before its original, and returns the copy of `v`.
  ValueId cloneSubComputation(ValueId v, std::unordered_map<ValueId, ValueId> &mapping) {
    if (isScalarValue(m_, v)) return v;
    if (auto it = mapping.find(v); it != mapping.end()) return it->second;
    OpId op = m_.definingOp(v);
    for (ValueId operand : std::vector<ValueId>(m_.operands(op).begin(), m_.operands(op).end()))
      if (m_.definingOp(operand) != kNone) cloneSubComputation(operand, mapping);
    std::vector<ValueId> operands;
    for (ValueId operand : m_.operands(op)) {
      auto it = mapping.find(operand);
      operands.push_back(it != mapping.end() ? it->second : operand);
    }
    OpId copy;
    if (m_.numRegions(op) != 0) {
      // A named computation: its body is copied whole, then its operands
      // point at the copied constants.
      copy = rw_->cloneAfter(op, op);
      rw_->moveBefore(copy, op);
      rw_->setOperands(copy, operands);
    } else {
      std::vector<TypeId> types;
      for (uint32_t r = 0; r < m_.numResults(op); ++r) types.push_back(m_.type(m_.result(op, r)));
      std::vector<NamedAttr> attrs(m_.attributes(op).begin(), m_.attributes(op).end());
      // A call gets a callee of its own.
      if (m_.isa(op, "func.call"))
        if (OpId callee = m_.lookupFunc(m_.attr(op, "callee")); callee != kNone)
          for (NamedAttr &a : attrs)
            if (m_.names.str(a.name) == "callee") a.value = m_.attrs.symbolRef("@" + cloner_.cloneRecursively(callee));
      copy = rw_->createBefore(op, m_.opName(op), operands, types, attrs);
    }
    ++copies_;
    for (uint32_t r = 0; r < m_.numResults(op); ++r) mapping[m_.result(op, r)] = m_.result(copy, r);
    // The copy stays in the groups of its original.
    for (OpId user : std::vector<OpId>(rw_->users(v)))
      if (m_.isa(user, "sdy.sharding_group")) {
        std::vector<NamedAttr> groupAttrs(m_.attributes(user).begin(), m_.attributes(user).end());
        rw_->createBefore(op, "sdy.sharding_group", {mapping[v]}, {}, groupAttrs);
      }
    return mapping[v];
  }

  // Erases the ops (in reverse order when `reverse`) whose results are read
  // by sharding groups at most, with those groups.
  void eraseUnused(const std::vector<OpId> &ops, bool reverse) {
    for (size_t k = 0; k < ops.size(); ++k) {
      OpId op = ops[reverse ? ops.size() - 1 - k : k];
      if (rw_->isErased(op)) continue;
      bool onlyGroups = true;
      for (uint32_t r = 0; r < m_.numResults(op) && onlyGroups; ++r)
        for (OpId user : rw_->users(m_.result(op, r)))
          if (!m_.isa(user, "sdy.sharding_group")) onlyGroups = false;
      if (!onlyGroups) continue;
      for (uint32_t r = 0; r < m_.numResults(op); ++r)
        for (OpId user : std::vector<OpId>(rw_->users(m_.result(op, r))))
          if (!rw_->isErased(user)) rw_->eraseOp(user);
      rw_->eraseOp(op);
    }
  }
};

PassRegistration reg("sdy-constant-or-scalar-splitter",
                     "Split constant sub-computations and scalar expansions so each has a single user",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       splitConstantsAndScalars(m);
                       return true;
                     });

}  // namespace

size_t splitConstantsAndScalars(Module &m) { return Splitter(m).run(); }

}  // namespace autopart
