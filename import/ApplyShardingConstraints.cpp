#include "import/ApplyShardingConstraints.h"

#include "canonicalize/Rewriter.h"
#include "import/EdgeLookup.h"
#include "ir/Pass.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

using canonicalize::Rewriter;

bool isFullyClosed(const TensorSharding &s) {
  for (const DimSharding &d : s.dims)
    if (!d.closed) return false;
  return true;
}

const TensorSharding *attrSharding(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) return nullptr;
  return m.attrs.get(a).sharding.get();
}

const TensorSharding *inSharding(const Module &m, OpId manual, uint32_t i) {
  AttrId a = m.attr(manual, "in_shardings");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return nullptr;
  const std::vector<TensorSharding> &all = m.attrs.get(a).shardings;
  return i < all.size() ? &all[i] : nullptr;
}

class Applier {
public:
  explicit Applier(Module &m) : m_(m), rw_(m) {}

  void run() {
    std::vector<OpId> order;
    collectPostOrder(m_.top, order);
    for (OpId op : order) {
      if (rw_.isErased(op)) continue;
      if (m_.isa(op, "sdy.sharding_constraint")) visitConstraint(op);
      else if (m_.isa(op, "sdy.manual_computation")) visitManual(op);
    }
  }

private:
  Module &m_;
  Rewriter rw_;

  void collectPostOrder(OpId op, std::vector<OpId> &out) {
    for (uint32_t r = 0; r < m_.numRegions(op); ++r)
      for (BlockId b : m_.regions[m_.region(op, r)].blocks)
        for (OpId inner : m_.blocks[b].ops) collectPostOrder(inner, out);
    out.push_back(op);
  }

  const TensorSharding *currentSharding(ValueId v) {
    if (OpId edge = dataFlowEdgeOf(m_, rw_, v); edge != kNone) return attrSharding(m_, edge, "sharding");
    return valueSharding(m_, v);
  }

  bool isShardable(ValueId v) {
    if (!m_.values[v].isBlockArg) return true;
    if (dataFlowEdgeOf(m_, rw_, v) != kNone) return true;
    BlockId b = m_.values[v].owner;
    OpId parent = m_.regions[m_.blocks[b].parent].parent;
    return m_.isa(parent, "func.func");
  }

  bool usedByConstraintWithDifferentSharding(ValueId v, const TensorSharding &s) {
    for (OpId user : rw_.users(v)) {
      if (m_.isa(user, "sdy.sharding_constraint")) {
        const TensorSharding *other = attrSharding(m_, user, "sharding");
        if (!other || !(*other == s)) return true;
      } else if (m_.isa(user, "sdy.manual_computation")) {
        for (uint32_t i = 0; i < m_.numOperands(user); ++i) {
          if (m_.operand(user, i) != v) continue;
          const TensorSharding *other = inSharding(m_, user, i);
          if (!other || !(*other == s)) return true;
        }
      }
    }
    return false;
  }

  bool usedByConstraint(ValueId v, OpId excluded) {
    for (OpId user : rw_.users(v))
      if (user != excluded && (m_.isa(user, "sdy.sharding_constraint") || m_.isa(user, "sdy.manual_computation")))
        return true;
    return false;
  }

  bool shouldApply(ValueId input, const TensorSharding &s) {
    if (!isShardable(input) || currentSharding(input)) return false;
    if (!isFullyClosed(s)) return false;
    return !usedByConstraintWithDifferentSharding(input, s);
  }

  void setSharding(ValueId v, const TensorSharding &s) {
    if (m_.values[v].isBlockArg) {
      BlockId b = m_.values[v].owner;
      OpId func = m_.regions[m_.blocks[b].parent].parent;
      MutableFuncView(m_, func).setArgAttr(m_.values[v].index, "sdy.sharding", m_.attrs.sharding(s));
      return;
    }
    OpId op = m_.definingOp(v);
    std::vector<TensorSharding> all;
    if (AttrId a = m_.attr(op, "sdy.sharding"); a != kNoAttr && m_.attrs.kind(a) == AttrKind::ShardingPerValue)
      all = m_.attrs.get(a).shardings;
    if (all.size() != m_.numResults(op)) {
      all.clear();
      for (uint32_t r = 0; r < m_.numResults(op); ++r) {
        TypeId t = m_.type(m_.result(op, r));
        TensorSharding open = TensorSharding::open(s.meshName, m_.types.isTensor(t) ? size_t(m_.types.rank(t)) : 0);
        open.inlineMesh = s.inlineMesh;
        all.push_back(std::move(open));
      }
    }
    all[m_.values[v].index] = s;
    rw_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue(std::move(all)));
  }

  // The op right after the definition of `v` (the block's first op for a
  // block argument).
  OpId positionAfter(ValueId v) {
    if (m_.values[v].isBlockArg) return m_.blocks[m_.values[v].owner].ops.front();
    OpId def = m_.definingOp(v);
    const std::vector<OpId> &ops = m_.blocks[m_.ops[def].parent].ops;
    for (size_t i = 0; i + 1 < ops.size(); ++i)
      if (ops[i] == def) return ops[i + 1];
    return kNone;
  }

  // `makeConstraint` returns a constraint on `input` placed right after it.
  template <typename MakeFn> void applyConstraint(ValueId input, const TensorSharding &s, MakeFn makeConstraint) {
    if (!shouldApply(input, s)) return;
    OpId edge = dataFlowEdgeOf(m_, rw_, input);
    if (edge == kNone) {
      setSharding(input, s);
      return;
    }
    OpId constraint = makeConstraint();
    ValueId result = m_.result(constraint);
    for (OpId user : std::vector<OpId>(rw_.users(input))) {
      if (user == constraint) continue;
      for (uint32_t i = 0; i < m_.numOperands(user); ++i)
        if (m_.operand(user, i) == input) rw_.setOperand(user, i, result);
    }
    // Unreduced axes are not a layout of one value: the whole edge carries
    // them, with its dimensions left open.
    if (!s.unreduced.empty() && !attrSharding(m_, edge, "sharding")) {
      TensorSharding open = TensorSharding::open(s.meshName, s.dims.size());
      open.inlineMesh = s.inlineMesh;
      open.unreduced = s.unreduced;
      open.unreducedKind = s.unreducedKind;
      rw_.setAttr(edge, "sharding", m_.attrs.sharding(std::move(open)));
    }
  }

  // The last constraint of a chain of single-use constraints starting at
  // `head`, or kNone when the chain does not qualify.
  OpId chainTail(OpId head) {
    ValueId input = m_.operand(head, 0);
    OpId def = m_.definingOp(input);
    if (def != kNone && m_.isa(def, "sdy.sharding_constraint")) return kNone;
    if (currentSharding(input) || usedByConstraint(input, head)) return kNone;
    OpId tail = head;
    while (rw_.hasOneUse(m_.result(tail)) && m_.isa(rw_.users(m_.result(tail))[0], "sdy.sharding_constraint"))
      tail = rw_.users(m_.result(tail))[0];
    if (tail == head || usedByConstraint(m_.result(tail), kNone)) return kNone;
    return tail;
  }

  void visitConstraint(OpId op) {
    ValueId input = m_.operand(op, 0);
    if (OpId tail = chainTail(op); tail != kNone) {
      ValueId to = m_.result(tail);
      BlockId block = m_.ops[tail].parent;
      for (OpId user : std::vector<OpId>(rw_.users(input))) {
        if (user == op || m_.isa(user, "func.return") || m_.ops[user].parent != block ||
            !rw_.isBeforeInBlock(tail, user))
          continue;
        for (uint32_t i = 0; i < m_.numOperands(user); ++i)
          if (m_.operand(user, i) == input) rw_.setOperand(user, i, to);
      }
    }
    const TensorSharding *s = attrSharding(m_, op, "sharding");
    if (!s) return;
    TensorSharding sharding = *s;
    applyConstraint(input, sharding, [&] {
      OpId at = positionAfter(input);
      if (at != op) rw_.moveBefore(op, at);
      return op;
    });
  }

  void visitManual(OpId op) {
    for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
      const TensorSharding *s = inSharding(m_, op, i);
      if (!s) continue;
      TensorSharding sharding = *s;
      ValueId operand = m_.operand(op, i);
      applyConstraint(operand, sharding, [&] {
        OpId c = rw_.createBefore(positionAfter(operand), "sdy.sharding_constraint", {operand},
                                  {m_.type(operand)}, {{m_.names.get("sharding"), m_.attrs.sharding(sharding)}});
        m_.ops[c].srcOffset = m_.ops[op].srcOffset;
        m_.ops[c].loc = m_.ops[op].loc;
        return c;
      });
    }
  }
};

PassRegistration reg("sdy-apply-sharding-constraints",
                     "Copy the sharding of constraints that dictate their input's sharding onto the input",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       applyShardingConstraints(m);
                       return true;
                     });

}  // namespace

void applyShardingConstraints(Module &m) { Applier(m).run(); }

}  // namespace autopart
