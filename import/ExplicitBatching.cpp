#include "import/ExplicitBatching.h"

#include <algorithm>
#include <optional>

#include "canonicalize/Rewriter.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

// The attribute keys of gather and scatter dimension numbers, in the order
// StableHLO prints them.
struct DimNumberKeys {
  const char *offset, *collapsed, *operandBatching, *indicesBatching, *indexMap;
};
constexpr DimNumberKeys kGatherKeys{"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                    "start_indices_batching_dims", "start_index_map"};
constexpr DimNumberKeys kScatterKeys{"update_window_dims", "inserted_window_dims", "input_batching_dims",
                                     "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"};

class Batcher {
public:
  explicit Batcher(Module &m) : m_(m), rw_(m), i64_(m.types.scalar("i64")) {}

  size_t run() {
    if (m_.top == kNone) return 0;
    std::vector<OpId> ops;
    m_.walk(m_.top, [&](OpId op) {
      if (m_.isa(op, "stablehlo.gather") || m_.isa(op, "stablehlo.scatter")) ops.push_back(op);
    });
    size_t count = 0;
    for (OpId op : ops) count += rewrite(op) ? 1 : 0;
    return count;
  }

private:
  Module &m_;
  canonicalize::Rewriter rw_;  // use lists, for erasing the index math left unused
  TypeId i64_;

  std::vector<int64_t> list(AttrId dn, const char *key) const {
    AttrId a = m_.attrs.field(dn, key);
    return a == kNoAttr ? std::vector<int64_t>{} : m_.attrs.intList(a);
  }

  AttrId intList(const std::vector<int64_t> &v) {
    std::vector<AttrId> elems;
    for (int64_t x : v) elems.push_back(m_.attrs.integer(x));
    return m_.attrs.array(std::move(elems));
  }

  // Follows reshapes, broadcasts, clamps and selects back to their source.
  ValueId unwrap(ValueId v) const {
    for (;;) {
      OpId def = m_.definingOp(v);
      if (def == kNone) break;
      if (m_.isa(def, "stablehlo.reshape") || m_.isa(def, "stablehlo.broadcast_in_dim")) {
        v = m_.operand(def, 0);
      } else if (m_.isa(def, "stablehlo.clamp") && m_.numOperands(def) == 3) {
        v = m_.operand(def, 1);
      } else if (m_.isa(def, "stablehlo.select") && m_.numOperands(def) == 3) {
        OpId onFalse = m_.definingOp(m_.operand(def, 2));
        v = onFalse != kNone && m_.isa(onFalse, "stablehlo.iota") ? m_.operand(def, 2) : m_.operand(def, 1);
      } else {
        break;
      }
    }
    return v;
  }

  bool componentIsIota(ValueId indices, int64_t indexVectorDim, int64_t component) const {
    ValueId v = indices;
    OpId def = m_.definingOp(v);
    if (def != kNone && m_.isa(def, "stablehlo.concatenate")) {
      if (m_.attrs.get(m_.attr(def, "dimension")).intValue != indexVectorDim ||
          component >= int64_t(m_.numOperands(def)))
        return false;
      v = m_.operand(def, uint32_t(component));
    }
    OpId iota = m_.definingOp(unwrap(v));
    return iota != kNone && m_.isa(iota, "stablehlo.iota") &&
           m_.attrs.get(m_.attr(iota, "iota_dimension")).intValue == 0;
  }

  OpId create(OpId before, std::string_view name, const std::vector<ValueId> &operands, TypeId type,
              std::vector<NamedAttr> attrs) {
    return rw_.createBefore(before, name, operands, {type}, attrs);
  }

  // The indices without component `removed` of dimension `dim`, built
  // before `user`.
  ValueId dropComponent(OpId user, ValueId indices, int64_t dim, int64_t removed) {
    TypeId type = m_.type(indices);
    std::vector<int64_t> shape = m_.types.shape(type);
    TypeId element = m_.types.elementType(type);
    int64_t total = shape[dim];
    std::vector<int64_t> reduced = shape;
    reduced[dim] -= 1;
    auto concat = [&](const std::vector<ValueId> &parts) {
      if (parts.size() == 1) return parts.front();
      return m_.result(create(user, "stablehlo.concatenate", parts, m_.types.tensor(reduced, element),
                              {{m_.names.get("dimension"), m_.attrs.integer(dim, i64_)}}));
    };
    OpId def = m_.definingOp(indices);
    if (def != kNone && m_.isa(def, "stablehlo.concatenate") &&
        m_.attrs.get(m_.attr(def, "dimension")).intValue == dim && int64_t(m_.numOperands(def)) == total) {
      std::vector<ValueId> inputs(m_.operands(def).begin(), m_.operands(def).end());
      inputs.erase(inputs.begin() + removed);
      return concat(inputs);
    }
    std::vector<ValueId> parts;
    auto slice = [&](int64_t begin, int64_t end) {
      if (begin >= end) return;
      std::vector<int64_t> start(shape.size(), 0), limit = shape, strides(shape.size(), 1), sliced = shape;
      start[dim] = begin;
      limit[dim] = end;
      sliced[dim] = end - begin;
      parts.push_back(m_.result(create(user, "stablehlo.slice", {indices}, m_.types.tensor(sliced, element),
                                       {{m_.names.get("limit_indices"), m_.attrs.denseArray(i64_, limit)},
                                        {m_.names.get("start_indices"), m_.attrs.denseArray(i64_, start)},
                                        {m_.names.get("strides"), m_.attrs.denseArray(i64_, strides)}})));
    };
    slice(0, removed);
    slice(removed + 1, total);
    return concat(parts);
  }

  bool rewrite(OpId op) {
    bool gather = m_.isa(op, "stablehlo.gather");
    const DimNumberKeys &keys = gather ? kGatherKeys : kScatterKeys;
    const char *attrName = gather ? "dimension_numbers" : "scatter_dimension_numbers";
    AttrId dn = m_.attr(op, attrName);
    if (dn == kNoAttr || m_.attrs.kind(dn) != AttrKind::DialectStruct) return false;
    if (!list(dn, keys.operandBatching).empty()) return false;
    uint32_t indicesOperand = gather ? 1 : (m_.numOperands(op) - 1) / 2;
    if (m_.numOperands(op) < 2) return false;
    ValueId operand = m_.operand(op, 0), indices = m_.operand(op, indicesOperand);
    TypeId operandType = m_.type(operand), indicesType = m_.type(indices);
    if (!m_.types.isTensor(operandType) || !m_.types.isTensor(indicesType)) return false;
    if (m_.types.rank(operandType) == 0 || m_.types.rank(indicesType) == 0) return false;
    AttrId ivdAttr = m_.attrs.field(dn, "index_vector_dim");
    int64_t indexVectorDim = ivdAttr == kNoAttr ? 0 : m_.attrs.get(ivdAttr).intValue;
    const std::vector<int64_t> &indicesShape = m_.types.shape(indicesType);
    if (indexVectorDim >= int64_t(indicesShape.size()) || indicesShape[indexVectorDim] <= 1) return false;
    if (indicesShape[0] != m_.types.shape(operandType)[0]) return false;
    std::vector<int64_t> indexMap = list(dn, keys.indexMap);
    auto it = std::find(indexMap.begin(), indexMap.end(), 0);
    if (it == indexMap.end()) return false;
    int64_t removed = it - indexMap.begin();
    if (!componentIsIota(indices, indexVectorDim, removed)) return false;
    std::vector<int64_t> collapsed = list(dn, keys.collapsed);
    auto cit = std::find(collapsed.begin(), collapsed.end(), 0);
    if (cit == collapsed.end()) return false;
    indexMap.erase(it);
    collapsed.erase(cit);

    ValueId newIndices = dropComponent(op, indices, indexVectorDim, removed);
    std::vector<std::pair<NameId, AttrId>> entries;
    auto add = [&](const char *key, AttrId value) { entries.push_back({m_.names.get(key), value}); };
    if (AttrId offset = m_.attrs.field(dn, keys.offset); offset != kNoAttr) add(keys.offset, offset);
    if (!collapsed.empty()) add(keys.collapsed, intList(collapsed));
    add(keys.operandBatching, intList({0}));
    add(keys.indicesBatching, intList({0}));
    if (!indexMap.empty()) add(keys.indexMap, intList(indexMap));
    if (ivdAttr != kNoAttr) add("index_vector_dim", ivdAttr);
    m_.setAttr(op, attrName, m_.attrs.dialectStruct(m_.attrs.get(dn).dialectName, std::move(entries)));
    rw_.setOperand(op, indicesOperand, newIndices);
    eraseIfDead(m_.definingOp(indices));
    return true;
  }

  // Erases the index computation the rewrite left unused (as MLIR's greedy
  // driver does with trivially dead ops).
  void eraseIfDead(OpId op) {
    if (op == kNone || rw_.isErased(op) || !rw_.resultsUnused(op)) return;
    static const std::vector<std::string_view> kPure = {
        "stablehlo.concatenate", "stablehlo.iota",   "stablehlo.reshape",  "stablehlo.broadcast_in_dim",
        "stablehlo.slice",       "stablehlo.clamp",  "stablehlo.select",   "stablehlo.constant"};
    if (std::find(kPure.begin(), kPure.end(), m_.opName(op)) == kPure.end()) return;
    std::vector<ValueId> inputs(m_.operands(op).begin(), m_.operands(op).end());
    rw_.eraseOp(op);
    for (ValueId v : inputs) eraseIfDead(m_.definingOp(v));
  }
};

PassRegistration reg("sdy-explicit-gather-scatter-batching",
                     "Turn gathers/scatters indexed by an iota on dimension 0 into explicitly batched ones",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       makeGatherScatterBatchingExplicit(m);
                       return true;
                     });

}  // namespace

size_t makeGatherScatterBatchingExplicit(Module &m) { return Batcher(m).run(); }

}  // namespace autopart
