#include "export/InsertExplicitReshards.h"

#include <algorithm>

#include "ir/Pass.h"
#include "rules/OpShardingRuleRegistry.h"
#include "sim/ReshardPlan.h"

namespace autopart {

namespace {

bool isTerminator(const Module &m, OpId op) {
  std::string_view n = m.opName(op);
  return n == "func.return" || n == "stablehlo.return" || n == "sdy.return";
}

OpId nextInBlock(const Module &m, OpId op) {
  const std::vector<OpId> &ops = m.blocks[m.ops[op].parent].ops;
  auto it = std::find(ops.begin(), ops.end(), op);
  return it == ops.end() || it + 1 == ops.end() ? kNone : *(it + 1);
}

class Inserter {
public:
  explicit Inserter(Module &m) : m_(m), map_(ShardingMap::fromModule(m)) {}

  void run() {
    for (OpId func : m_.functions()) {
      std::vector<OpId> ops;
      m_.walk(func, [&](OpId op) { ops.push_back(op); });
      for (OpId op : ops) processOp(func, op);
      processReturn(func);
    }
  }

private:
  OpId newOp(std::string_view name, ValueId input, OpId near, std::vector<NamedAttr> attrs) {
    OpId op = m_.createOp(name, {input}, {m_.type(input)}, attrs);
    m_.ops[op].srcOffset = m_.ops[near].srcOffset;
    m_.ops[op].loc = m_.ops[near].loc;
    return op;
  }

  ValueId reshardBefore(OpId user, ValueId v, const TensorSharding &target) {
    OpId r = newOp("sdy.reshard", v, user, {{m_.names.get("sharding"), m_.attrs.sharding(target)}});
    m_.insertOp(m_.ops[user].parent, r, user);
    map_.set(m_.result(r), target);
    return m_.result(r);
  }

  // Inserts `created` right after `after` and makes every other use of `v`
  // read it. Ops made for several results follow each other in result order
  // (Shardy builds them all at one insertion point).
  void insertAfterAndReplace(OpId func, OpId after, OpId created, ValueId v) {
    m_.insertOp(m_.ops[after].parent, created, nextInBlock(m_, after));
    m_.replaceAllUsesWith(v, m_.result(created), func);
    m_.setOperand(created, 0, v);
  }

  void setResultShardings(OpId op, const std::vector<TensorSharding> &all) {
    m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue(all));
  }

  void processOp(OpId func, OpId op) {
    if (isTerminator(m_, op)) return;
    std::optional<OpShardingRule> rule = getOpShardingRule(m_, op);
    if (!rule || rule->isCustom) return;
    OpReshardPlan plan = planOp(m_, op, *rule, map_);
    if (!plan.applies) return;

    for (uint32_t i = 0; i < plan.operandTargets.size(); ++i)
      if (plan.operandTargets[i]) m_.setOperand(op, i, reshardBefore(op, m_.operand(op, i), *plan.operandTargets[i]));

    uint32_t numResults = m_.numResults(op);
    auto orClosed = [&](ValueId v) {
      const TensorSharding *s = map_.get(v);
      return s ? *s : TensorSharding::closed(plan.meshName, size_t(std::max<int64_t>(0, m_.types.rank(m_.type(v)))));
    };
    bool anyResultChanged = false;
    for (const auto &s : plan.resultShardings) anyResultChanged |= s.has_value();
    if (anyResultChanged) {
      std::vector<TensorSharding> now;
      OpId after = op;
      // As in Shardy, giving one result of an op without shardings its
      // sharding gives every other result an open replicated one: later
      // results without a sharding are resharded back to that.
      bool setEarlier = false;
      for (uint32_t r = 0; r < numResults; ++r) {
        ValueId v = m_.result(op, r);
        const TensorSharding *own = map_.get(v);
        size_t rank = size_t(std::max<int64_t>(0, m_.types.rank(m_.type(v))));
        TensorSharding annotated = own || !setEarlier ? orClosed(v) : TensorSharding::open(plan.meshName, rank);
        if (!plan.resultShardings[r]) {
          now.push_back(own ? *own : TensorSharding::open(plan.meshName, rank));
          continue;
        }
        setEarlier = true;
        now.push_back(*plan.resultShardings[r]);
        OpId back = newOp("sdy.reshard", v, op, {{m_.names.get("sharding"), m_.attrs.sharding(annotated)}});
        insertAfterAndReplace(func, after, back, v);
        after = back;
        map_.set(m_.result(back), annotated);
      }
      setResultShardings(op, now);
      for (uint32_t r = 0; r < numResults; ++r) map_.set(m_.result(op, r), now[r]);
    }

    if (plan.allReduceAxes.empty()) return;
    std::string axes = axisListStr(plan.allReduceAxes);
    OpId after = op;
    for (uint32_t r = 0; r < numResults; ++r) {
      ValueId v = m_.result(op, r);
      TensorSharding s = orClosed(v);
      OpId ar = newOp("sdy.all_reduce", v, op,
                      {{m_.names.get("out_sharding"), m_.attrs.sharding(s)},
                       {m_.names.get("reduction_axes"), m_.attrs.opaque(axes)}});
      insertAfterAndReplace(func, after, ar, v);
      after = ar;
      map_.set(m_.result(ar), s);
    }
  }

  void processReturn(OpId func) {
    FuncView f{m_, func};
    OpId ret = f.returnOp();
    if (ret == kNone) return;
    for (uint32_t i = 0; i < m_.numOperands(ret); ++i) {
      ValueId v = m_.operand(ret, i);
      AttrId a = f.resultAttr(i, "sdy.sharding");
      const TensorSharding *target =
          a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
      const TensorSharding *source = map_.get(v);
      if (!target && !source) continue;
      const Mesh *mesh = map_.mesh(target ? *target : *source);
      if (!mesh || equivalentShardings(source, target, *mesh)) continue;
      TensorSharding t = target ? *target : TensorSharding::closed(source->meshName, source->rank());
      if (!target) t.inlineMesh = source->inlineMesh;
      m_.setOperand(ret, i, reshardBefore(ret, v, t));
    }
  }

  Module &m_;
  ShardingMap map_;
};

// A maximal (single-device) sharding says where an op runs, not how a value
// is split; on a function boundary or split across an op's results it has no
// reshard that could honour it, so Shardy refuses the program.
bool checkSingleDeviceShardings(const Module &m, const ShardingMap &map, Diagnostics &diags) {
  auto isMaximal = [&](const TensorSharding *s) {
    const Mesh *mesh = s ? map.mesh(*s) : nullptr;
    return mesh && mesh->isMaximal();
  };
  size_t before = diags.errorCount();
  for (OpId func : m.functions()) {
    FuncView f{m, func};
    if (f.entry() == kNone) continue;
    for (size_t i = 0; i < f.args().size(); ++i)
      if (isMaximal(map.get(f.args()[i])))
        diags.error(m, func, "function argument " + std::to_string(i) +
                                 " cannot have a single-device (maximal) sharding attribute");
    OpId ret = f.returnOp();
    for (size_t i = 0; ret != kNone && i < f.numResults(); ++i) {
      AttrId a = f.resultAttr(i, "sdy.sharding");
      if (a != kNoAttr && m.attrs.kind(a) == AttrKind::Sharding &&
          isMaximal(m.attrs.get(a).sharding.get()))
        diags.error(m, func, "function result " + std::to_string(i) +
                                 " cannot have a single-device (maximal) sharding attribute");
    }
    m.walk(func, [&](OpId op) {
      std::optional<int64_t> device;
      for (uint32_t r = 0; r < m.numResults(op); ++r) {
        const TensorSharding *s = map.get(m.result(op, r));
        if (!isMaximal(s)) continue;
        int64_t id = map.mesh(*s)->deviceIds[0];
        if (device && *device != id) {
          diags.error(m, op, "has conflicting single-device result shardings");
          return;
        }
        device = id;
      }
    });
  }
  return diags.errorCount() == before;
}

bool runPass(Module &m, const PassOptions &, Diagnostics &diags) {
  if (!checkSingleDeviceShardings(m, ShardingMap::fromModule(m), diags)) return false;
  insertExplicitReshards(m);
  return true;
}

PassRegistration reg("sdy-insert-explicit-reshards",
                     "Insert sdy.reshard / sdy.all_reduce where operand and result shardings "
                     "disagree with an op's sharding rule",
                     runPass);

}  // namespace

void insertExplicitReshards(Module &m) { Inserter(m).run(); }

}  // namespace autopart
