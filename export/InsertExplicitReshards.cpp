#include "export/InsertExplicitReshards.h"

#include <algorithm>

#include "export/DotResultReshard.h"
#include "export/FuncShardings.h"
#include "export/SingleDeviceReshards.h"
#include "export/UnreducedCollectives.h"
#include "ir/Pass.h"
#include "ir/PassOptionCatalog.h"
#include "ir/ValueSharding.h"
#include "propagation/DataFlowEdges.h"
#include "rules/OpShardingRuleRegistry.h"
#include "sim/ReshardPlan.h"

namespace autopart {

namespace {

bool isTerminator(const Module &m, OpId op) {
  std::string_view n = m.opName(op);
  return n == "func.return" || n == "stablehlo.return" || n == "sdy.return";
}

// Where a new op goes: before `before` in `block` (at its end for kNone).
struct InsertPoint {
  BlockId block;
  OpId before;
};

class Inserter {
public:
  Inserter(Module &m, bool fullVersion, bool avoidNamed)
      : m_(m), map_(ShardingMap::fromModule(m)), fullVersion_(fullVersion), avoidNamed_(avoidNamed) {
    // Computations read with their in/out shardings; a propagation barrier
    // passes its operand through unchanged, so an unannotated one reads as
    // its operand's sharding.
    for (OpId func : m_.functions())
      m_.walk(func, [&](OpId op) {
        readComputation(op);
        if (m_.opName(op) != "sdy.propagation_barrier" || m_.numOperands(op) != 1 || m_.numResults(op) != 1) return;
        const TensorSharding *in = map_.get(m_.operand(op, 0));
        if (in && !map_.get(m_.result(op))) map_.set(m_.result(op), *in);
      });
  }

  void run() {
    for (OpId func : m_.functions()) {
      for (OpId op : postOrder(func)) processOp(func, op);
      processReturn(func);
    }
  }

private:
  // The simulator's map leaves computations unsharded; here their results
  // carry their out_shardings and their body arguments their in_shardings
  // (a manual computation's in local form, without its manual axes).
  void readComputation(OpId op) {
    bool manual = m_.opName(op) == "sdy.manual_computation";
    if (!manual && m_.opName(op) != "sdy.named_computation") return;
    for (uint32_t r = 0; r < m_.numResults(op); ++r)
      if (const TensorSharding *s = resultSharding(m_, op, r)) map_.set(m_.result(op, r), *s);
    AttrId in = m_.attr(op, "in_shardings");
    if (in == kNoAttr || m_.attrs.kind(in) != AttrKind::ShardingPerValue || m_.numRegions(op) == 0) return;
    const Region &body = m_.regions[m_.region(op, 0)];
    if (body.blocks.empty()) return;
    const std::vector<ValueId> &args = m_.blocks[body.blocks[0]].args;
    const std::vector<TensorSharding> &list = m_.attrs.get(in).shardings;
    std::vector<std::string> axes = manual ? manualAxesOf(m_, op) : std::vector<std::string>{};
    for (size_t i = 0; i < args.size() && i < list.size(); ++i)
      map_.set(args[i], manual ? toLocal(list[i], axes) : list[i]);
  }

  // A manual computation's body sees neither the manual axes' sharding nor
  // their partial sums: each device holds its own.
  static TensorSharding toLocal(const TensorSharding &global, const std::vector<std::string> &manual) {
    TensorSharding local = ManualAxesView::of(global, manual).toLocal(global);
    std::erase_if(local.unreduced, [&](const AxisRef &a) {
      return std::find(manual.begin(), manual.end(), a.name) != manual.end();
    });
    if (local.unreduced.empty()) local.unreducedKind.clear();
    return local;
  }

  OpId newOp(std::string_view name, ValueId input, OpId near, std::vector<NamedAttr> attrs) {
    OpId op = m_.createOp(name, {input}, {m_.type(input)}, attrs);
    m_.ops[op].srcOffset = m_.ops[near].srcOffset;
    m_.ops[op].loc = m_.ops[near].loc;
    return op;
  }

  InsertPoint before(OpId op) const { return {m_.ops[op].parent, op}; }

  // Right after the definition of `v`: the start of its block for a block
  // argument. Ops placed here one after another keep their order, and each
  // later call puts its ops before the earlier ones, as Shardy's rewriter
  // does.
  InsertPoint afterValue(ValueId v) const {
    if (OpId def = m_.definingOp(v); def != kNone) return {m_.ops[def].parent, m_.nextInBlock(def)};
    BlockId block = m_.values[v].owner;
    const std::vector<OpId> &ops = m_.blocks[block].ops;
    return {block, ops.empty() ? kNone : ops.front()};
  }

  ValueId place(InsertPoint at, OpId created, const TensorSharding &s) {
    m_.insertOp(at.block, created, at.before);
    map_.set(m_.result(created), s);
    return m_.result(created);
  }

  ValueId reshardAt(InsertPoint at, OpId near, ValueId v, const TensorSharding &target) {
    OpId r = newOp("sdy.reshard", v, near, {{m_.names.get("sharding"), m_.attrs.sharding(target)}});
    return place(at, r, target);
  }

  ValueId reshardBefore(OpId user, ValueId v, const TensorSharding &target) {
    return reshardAt(before(user), user, v, target);
  }

  OpId allReduceOp(ValueId v, OpId near, const AxisList &axes, const std::string &kind, const TensorSharding &out) {
    std::string text = (kind.empty() ? "" : kind + " ") + axisListStr(axes);
    return newOp("sdy.all_reduce", v, near,
                 {{m_.names.get("out_sharding"), m_.attrs.sharding(out)},
                  {m_.names.get("reduction_axes"), m_.attrs.opaque(text)}});
  }

  // Inserts `created` right after `after` and makes every other use of `v`
  // read it. Ops made for several results follow each other in result order
  // (Shardy builds them all at one insertion point).
  void insertAfterAndReplace(OpId func, OpId after, OpId created, ValueId v) {
    m_.insertOp(m_.ops[after].parent, created, m_.nextInBlock(after));
    m_.replaceAllUsesWith(v, m_.result(created), func);
    m_.setOperand(created, 0, v);
  }

  void setResultShardings(OpId op, const std::vector<TensorSharding> &all) {
    m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue(all));
  }

  // Places the steps that make `v` (sharded `source`) keep `target`'s
  // unreduced axes; returns the last value, or `v` when none is needed.
  ValueId toUnreduced(ValueId v, const TensorSharding &source, const TensorSharding &target, InsertPoint at,
                      OpId near) {
    const Mesh *mesh = map_.mesh(source);
    if (!mesh) return v;
    std::optional<ToUnreducedSteps> steps = planToUnreduced(source, target, *mesh);
    if (!steps) return v;
    if (steps->reshard) v = reshardAt(at, near, v, *steps->reshard);
    if (!steps->replicatedToUnreduced.empty()) {
      OpId r2u = newOp("sdy.replicated_to_unreduced", v, near,
                       {{m_.names.get("axes"), m_.attrs.opaque(axisListStr(steps->replicatedToUnreduced))},
                        {m_.names.get("out_sharding"), m_.attrs.sharding(steps->afterReplicated)}});
      v = place(at, r2u, steps->afterReplicated);
    }
    if (steps->anySharded) {
      std::string axes = "[";
      for (size_t d = 0; d < steps->shardedToUnreduced.size(); ++d)
        axes += (d ? ", " : "") + axisListStr(steps->shardedToUnreduced[d]);
      axes += "]";
      OpId s2u = newOp("sdy.sharded_to_unreduced", v, near,
                       {{m_.names.get("axes"), m_.attrs.opaque(axes)},
                        {m_.names.get("out_sharding"), m_.attrs.sharding(target)}});
      v = place(at, s2u, target);
    }
    return v;
  }

  // An `sdy.reshard` to a sharding with more unreduced axes is spelled with
  // the unreduced collectives (and a plain reshard for the rest).
  bool convertReshardToUnreduced(OpId func, OpId op) {
    if (m_.opName(op) != "sdy.reshard" || m_.numOperands(op) != 1) return false;
    const TensorSharding *source = map_.get(m_.operand(op, 0));
    const TensorSharding *target = map_.get(m_.result(op));
    if (!source || !target || target->unreduced.empty()) return false;
    const Mesh *mesh = map_.mesh(*source);
    if (!mesh || subtractAxes(target->unreduced, source->unreduced, *mesh).empty()) return false;
    // Copies: placing ops grows the map, which may move what it points to.
    TensorSharding from = *source, to = *target;
    ValueId v = toUnreduced(m_.operand(op, 0), from, to, before(op), op);
    m_.replaceAllUsesWith(m_.result(op), v, func);
    m_.eraseOp(op);
    return true;
  }

  // Operand `i` of `user` holds partial sums over axes its reader does not
  // keep unreduced (`targetUnreduced`): an all-reduce over them at `at`
  // makes the operand read the sums. Returns the operand's sharding after.
  const TensorSharding *reduceUnreducedOperand(OpId user, uint32_t i, const AxisList &targetUnreduced,
                                               InsertPoint at) {
    ValueId v = m_.operand(user, i);
    const TensorSharding *source = map_.get(v);
    if (!source || source->unreduced.empty()) return source;
    const Mesh *mesh = map_.mesh(*source);
    if (!mesh) return source;
    AxisList axes = subtractAxes(source->unreduced, targetUnreduced, *mesh);
    if (axes.empty()) return source;
    // What stays unreduced is what both keep: the reader may itself make
    // other axes unreduced (a reduction), which this all-reduce must not.
    TensorSharding out = *source;
    out.unreduced = subtractAxes(source->unreduced, axes, *mesh);
    if (out.unreduced.empty()) out.unreducedKind.clear();
    // Reducing exactly what a replicated_to_unreduced made unreduced gives
    // back its input: read that instead of a new all-reduce.
    if (OpId def = m_.definingOp(v); def != kNone && m_.opName(def) == "sdy.replicated_to_unreduced") {
      const TensorSharding *in = map_.get(m_.operand(def, 0));
      if (in && *in == out) {
        m_.setOperand(user, i, m_.operand(def, 0));
        return in;
      }
    }
    OpId ar = allReduceOp(v, user, axes, source->unreducedKind, out);
    m_.setOperand(user, i, place(at, ar, out));
    return map_.get(m_.operand(user, i));
  }

  // Brings operand `i` of `user` to `target` (null: fully replicated):
  // partial sums the target does not keep are reduced, and with a full
  // reshard (`reshard`) any other difference becomes an `sdy.reshard`.
  void toTargetSharding(OpId user, uint32_t i, const TensorSharding *target, bool afterOperand, bool reshard) {
    auto at = [&] { return afterOperand ? afterValue(m_.operand(user, i)) : before(user); };
    AxisList targetUnreduced = target ? target->unreduced : AxisList{};
    InsertPoint first = at();
    const TensorSharding *source = reduceUnreducedOperand(user, i, targetUnreduced, first);
    if (target && source) {
      TensorSharding from = *source, to = *target;
      ValueId v = toUnreduced(m_.operand(user, i), from, to, at(), user);
      m_.setOperand(user, i, v);
      source = map_.get(v);
    }
    if (!reshard || (!target && !source)) return;
    const Mesh *mesh = map_.mesh(target ? *target : *source);
    if (!mesh) return;
    if (equivalentShardings(source, target, *mesh) && !onOtherDevices(source, target)) return;
    if (!source) {
      // An unannotated value counts as replicated, whatever partial sums
      // the target would keep (Shardy leaves such a value alone).
      TensorSharding noPartial = *target;
      noPartial.unreduced.clear();
      if (equivalentShardings(nullptr, &noPartial, *mesh)) return;
    }
    TensorSharding t = target ? *target : TensorSharding::closed(source->meshName, source->rank());
    if (!target) t.inlineMesh = source->inlineMesh;
    // The reshard follows the all-reduce just placed, if any.
    InsertPoint next = afterOperand ? afterValue(m_.operand(user, i)) : before(user);
    m_.setOperand(user, i, reshardAt(next, user, m_.operand(user, i), t));
  }

  // Two shardings that split alike but over meshes with other axes or
  // another device order put the pieces on other devices.
  bool onOtherDevices(const TensorSharding *a, const TensorSharding *b) const {
    if (!a || !b || a->isFullyReplicated() || b->isFullyReplicated()) return false;
    const Mesh *ma = map_.mesh(*a), *mb = map_.mesh(*b);
    return ma && mb && *ma != *mb;
  }

  // Shardy reshards every operand of a call to its callee's argument
  // sharding, also in the minimal version: otherwise the export would need a
  // copy of the callee per differing call site.
  void processCall(OpId call) {
    OpId callee = m_.lookupFunc(m_.attr(call, "callee"));
    if (callee == kNone || FuncView{m_, callee}.entry() == kNone) return;
    std::optional<std::vector<TensorSharding>> targets = funcArgShardings(m_, callee);
    uint32_t n = m_.numOperands(call);
    if (targets && targets->size() != n) return;
    if (!targets) {
      // The callee has no argument shardings: replicate the operands on
      // their common (non-maximal) mesh, if they have one.
      std::vector<const TensorSharding *> operands;
      for (ValueId v : m_.operands(call)) operands.push_back(map_.get(v));
      std::string meshName;
      if (!commonMesh(operands, map_, &meshName)) return;
      const TensorSharding *like = nullptr;
      for (const TensorSharding *s : operands)
        if (s && s->meshName == meshName) like = s;
      targets.emplace();
      for (ValueId v : m_.operands(call)) {
        TypeId t = m_.type(v);
        TensorSharding closed = TensorSharding::closed(meshName, m_.types.isTensor(t) ? size_t(m_.types.rank(t)) : 0);
        if (like) closed.inlineMesh = like->inlineMesh;
        targets->push_back(std::move(closed));
      }
    }
    for (uint32_t i = 0; i < n; ++i) toTargetSharding(call, i, &(*targets)[i], /*afterOperand=*/true, /*reshard=*/true);
  }

  // Partial sums an operand carries over axes the op's results do not keep
  // unreduced are reduced before the op (every result keeps the same
  // unreduced axes, so the first one speaks for all).
  void reduceUnreducedOperands(OpId op) {
    // Collectives that reduce or create partial sums say themselves which
    // axes they reduce; reducing before them would reduce twice.
    static constexpr std::string_view kOwnReduction[] = {"sdy.all_reduce", "sdy.reduce_scatter",
                                                         "sdy.replicated_to_unreduced", "sdy.sharded_to_unreduced"};
    if (std::find(std::begin(kOwnReduction), std::end(kOwnReduction), m_.opName(op)) != std::end(kOwnReduction))
      return;
    if (m_.numResults(op) == 0) return;
    const TensorSharding *first = map_.get(m_.result(op, 0));
    AxisList targetUnreduced = first ? first->unreduced : AxisList{};
    for (uint32_t i = 0; i < m_.numOperands(op); ++i) reduceUnreducedOperand(op, i, targetUnreduced, before(op));
  }

  // Whether `op` gets the full treatment although the pass runs minimal: a
  // ragged dot, and a concatenate whose operands differ from its result
  // (calls are handled apart, always in full).
  bool fullFor(OpId op) const {
    if (fullVersion_) return true;
    if (m_.opName(op) == "mhlo.ragged_dot") return true;
    if (m_.opName(op) != "stablehlo.concatenate" || m_.numResults(op) == 0) return false;
    const TensorSharding *result = map_.get(m_.result(op, 0));
    for (ValueId v : m_.operands(op)) {
      const TensorSharding *s = map_.get(v);
      if ((s == nullptr) != (result == nullptr) || (s && *s != *result)) return true;
    }
    return false;
  }

  // The ops under `root`, each after the ops nested in it (Shardy's walk
  // order: a loop's body before the loop).
  std::vector<OpId> postOrder(OpId root) const {
    std::vector<OpId> out;
    std::vector<std::pair<OpId, bool>> stack;
    auto pushChildren = [&](OpId op) {
      std::vector<OpId> children;
      for (uint32_t r = 0; r < m_.numRegions(op); ++r)
        for (BlockId b : m_.regions[m_.region(op, r)].blocks)
          for (OpId c : m_.blocks[b].ops) children.push_back(c);
      for (size_t k = children.size(); k-- > 0;) stack.push_back({children[k], false});
    };
    pushChildren(root);
    while (!stack.empty()) {
      auto [op, expanded] = stack.back();
      stack.pop_back();
      if (expanded) {
        out.push_back(op);
        continue;
      }
      stack.push_back({op, true});
      pushChildren(op);
    }
    return out;
  }

  OpId terminatorOf(RegionId region) const {
    const Region &r = m_.regions[region];
    if (r.blocks.empty() || m_.blocks[r.blocks[0]].ops.empty()) return kNone;
    OpId last = m_.blocks[r.blocks[0]].ops.back();
    return isTerminator(m_, last) ? last : kNone;
  }

  // Ops whose values flow through unchanged (Shardy's data-flow ops): every
  // source of a flow is brought to the sharding of the value it flows into,
  // right after the source is defined; in the minimal version only partial
  // sums are reduced.
  bool processDataFlow(OpId op) {
    std::string_view name = m_.opName(op);
    bool full = fullVersion_;
    auto flowInto = [&](OpId user, uint32_t i, const TensorSharding *target) {
      if (user != kNone && i < m_.numOperands(user)) toTargetSharding(user, i, target, /*afterOperand=*/true, full);
    };
    auto copy = [](const TensorSharding *s) { return s ? std::optional<TensorSharding>(*s) : std::nullopt; };
    auto ptr = [](const std::optional<TensorSharding> &s) { return s ? &*s : nullptr; };
    // A computation's operands flow into its body's arguments, sharded as
    // its in_shardings say (globally).
    auto operandsIntoInShardings = [&] {
      AttrId in = m_.attr(op, "in_shardings");
      for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
        std::optional<TensorSharding> target;
        if (in != kNoAttr && m_.attrs.kind(in) == AttrKind::ShardingPerValue &&
            i < m_.attrs.get(in).shardings.size())
          target = m_.attrs.get(in).shardings[i];
        flowInto(op, i, ptr(target));
      }
    };
    if (name == "stablehlo.while" || name == "stablehlo.optimization_barrier" || name == "stablehlo.case") {
      for (uint32_t r = 0; r < m_.numResults(op); ++r) {
        std::optional<TensorSharding> target = copy(map_.get(m_.result(op, r)));
        if (name != "stablehlo.case") flowInto(op, r, ptr(target));
        if (name == "stablehlo.while" && m_.numRegions(op) == 2) flowInto(terminatorOf(m_.region(op, 1)), r, ptr(target));
        if (name == "stablehlo.case")
          for (uint32_t k = 0; k < m_.numRegions(op); ++k) flowInto(terminatorOf(m_.region(op, k)), r, ptr(target));
      }
      return true;
    }
    if (name == "sdy.named_computation") {
      // The body's returned values flow into the results (out_shardings),
      // the operands into the body's arguments (in_shardings); with
      // avoid-reshards-on-named-computations the operands stay as they are.
      OpId ret = m_.numRegions(op) ? terminatorOf(m_.region(op, 0)) : kNone;
      for (uint32_t r = 0; r < m_.numResults(op); ++r) flowInto(ret, r, ptr(copy(map_.get(m_.result(op, r)))));
      if (avoidNamed_) return true;
      operandsIntoInShardings();
      return true;
    }
    if (name == "sdy.manual_computation") {
      // Results take the body's returned values in local form (without the
      // manual axes); the body's arguments take the operands globally.
      OpId ret = m_.numRegions(op) ? terminatorOf(m_.region(op, 0)) : kNone;
      std::vector<std::string> manual = manualAxesOf(m_, op);
      for (uint32_t r = 0; r < m_.numResults(op); ++r) {
        std::optional<TensorSharding> target = copy(map_.get(m_.result(op, r)));
        if (target) target = toLocal(*target, manual);
        flowInto(ret, r, ptr(target));
      }
      operandsIntoInShardings();
      return true;
    }
    return false;
  }

  void processOp(OpId func, OpId op) {
    if (isTerminator(m_, op)) return;
    if (m_.opName(op) == "func.call") {
      processCall(op);
      return;
    }
    if (processDataFlow(op)) return;
    if (convertReshardToUnreduced(func, op)) return;
    if (fullVersion_ && processSingleDevice(func, op)) return;
    reduceUnreducedOperands(op);
    std::optional<OpShardingRule> rule = getOpShardingRule(m_, op);
    if (!rule || rule->isCustom) return;
    if (fullFor(op))
      processOpFully(func, op, *rule);
    else
      processOpMinimally(func, op, *rule);
  }

  // An op with a single-device result runs on that device
  // (export/SingleDeviceReshards.h); the minimal version leaves that to the
  // partitioner.
  bool processSingleDevice(OpId func, OpId op) {
    auto reshard = [&](ValueId v, const TensorSharding &target, BlockId block, OpId before, OpId near) {
      return reshardAt({block, before}, near, v, target);
    };
    return insertSingleDeviceReshards(m_, map_, reshard, func, op);
  }

  // The minimal version leaves conflicts to the partitioner: it only moves a
  // dot's conflict onto its result (export/DotResultReshard.h) and reduces
  // the partial sums of a result that keeps other axes unreduced, as the
  // unreduced axes mark where the user placed the reduction.
  void processOpMinimally(OpId func, OpId op, const OpShardingRule &rule) {
    std::vector<const TensorSharding *> current;
    for (ValueId v : m_.operands(op)) current.push_back(map_.get(v));
    for (uint32_t r = 0; r < m_.numResults(op); ++r) current.push_back(map_.get(m_.result(op, r)));
    std::string meshName;
    const Mesh *mesh = commonMesh(current, map_, &meshName);
    if (!mesh) return;
    std::string_view name = m_.opName(op);
    if (name == "stablehlo.dot" || name == "stablehlo.dot_general") {
      if (std::optional<TensorSharding> s = dotResultSharding(m_, op, rule, map_, meshName, *mesh)) {
        ValueId v = m_.result(op);
        TensorSharding annotated = *map_.get(v);
        OpId back = newOp("sdy.reshard", v, op, {{m_.names.get("sharding"), m_.attrs.sharding(annotated)}});
        insertAfterAndReplace(func, op, back, v);
        map_.set(m_.result(back), annotated);
        setResultShardings(op, {*s});
        map_.set(v, *s);
      }
    }
    allReduceUnreducedResults(func, op, rule, meshName, *mesh);
  }

  void allReduceUnreducedResults(OpId func, OpId op, const OpShardingRule &rule, const std::string &meshName,
                                 const Mesh &mesh) {
    uint32_t numResults = m_.numResults(op);
    if (numResults == 0) return;
    const TensorSharding *first = map_.get(m_.result(op, 0));
    if (!first || first->unreduced.empty()) return;
    AxisList axes;
    for (int32_t f : rule.reductionFactors) {
      // Reduction factors appear in operands only; the first operand that
      // has the factor says how it is sharded.
      for (uint32_t i = 0; i < m_.numOperands(op) && i < rule.operands.size(); ++i) {
        TensorFactorShardings tfs = projectTensor(map_.get(m_.operand(op, i)), rule.operands[i], rule, mesh, true);
        if (!tfs.has(size_t(f))) continue;
        axes.insert(axes.end(), tfs.factors[size_t(f)].axes.begin(), tfs.factors[size_t(f)].axes.end());
        break;
      }
    }
    axes = subtractAxes(axes, first->unreduced, mesh);
    if (axes.empty()) return;
    sortAndMerge(axes, mesh);
    // One all-reduce per result, in result order.
    OpId after = op;
    for (uint32_t r = 0; r < numResults; ++r) {
      ValueId v = m_.result(op, r);
      const TensorSharding *s = map_.get(v);
      TensorSharding out = s ? *s : TensorSharding::closed(meshName, size_t(std::max<int64_t>(0, m_.types.rank(m_.type(v)))));
      OpId ar = allReduceOp(v, op, axes, "", out);
      insertAfterAndReplace(func, after, ar, v);
      map_.set(m_.result(ar), out);
      after = ar;
    }
  }

  void processOpFully(OpId func, OpId op, const OpShardingRule &rule) {
    OpReshardPlan plan = planOp(m_, op, rule, map_);
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
    // One all-reduce per result, in result order, before the results'
    // reshards.
    OpId after = op;
    for (uint32_t r = 0; r < numResults; ++r) {
      ValueId v = m_.result(op, r);
      TensorSharding s = orClosed(v);
      OpId ar = allReduceOp(v, op, plan.allReduceAxes, "", s);
      insertAfterAndReplace(func, after, ar, v);
      map_.set(m_.result(ar), s);
      after = ar;
    }
  }

  // Returned values are brought to the function's result shardings: partial
  // sums the result does not keep are always reduced; other differences
  // become reshards only in the full version.
  void processReturn(OpId func) {
    FuncView f{m_, func};
    OpId ret = f.returnOp();
    if (ret == kNone) return;
    for (uint32_t i = 0; i < m_.numOperands(ret); ++i) {
      AttrId a = f.resultAttr(i, "sdy.sharding");
      const TensorSharding *target =
          a != kNoAttr && m_.attrs.kind(a) == AttrKind::Sharding ? m_.attrs.get(a).sharding.get() : nullptr;
      toTargetSharding(ret, i, target, /*afterOperand=*/false, /*reshard=*/fullVersion_);
    }
  }

  Module &m_;
  ShardingMap map_;
  bool fullVersion_;
  bool avoidNamed_;
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

bool runPass(Module &m, const PassOptions &o, Diagnostics &diags) {
  if (!checkSingleDeviceShardings(m, ShardingMap::fromModule(m), diags)) return false;
  insertExplicitReshards(m, o.getBool("enable-full-version", true),
                         o.getBool("avoid-reshards-on-named-computations", false));
  return true;
}

PassRegistration reg("sdy-insert-explicit-reshards",
                     "Insert sdy.reshard / sdy.all_reduce where operand and result shardings "
                     "disagree with an op's sharding rule",
                     runPass,
                     {{"enable-full-version", "bool",
                       "reshard every operand and result to the op's common sharding; false: Shardy's minimal "
                       "version, only where needed (default true)"},
                      sharedPassOption("avoid-reshards-on-named-computations")});

}  // namespace

void insertExplicitReshards(Module &m, bool fullVersion, bool avoidReshardsOnNamedComputations) {
  Inserter(m, fullVersion, avoidReshardsOnNamedComputations).run();
}

}  // namespace autopart
