// Rules of gather and scatter, which share their structure:
//  - batch dimensions of the indices pass to the slices (and to the input
//    for explicit batching dims); in a scatter an implicit batch dimension
//    (indices and updates only) is a reduction: updates from several devices
//    are combined into one result;
//  - an offset (window) dimension passes between input and slices when
//    unsliced. When sliced, a gather window of size 1 lets each device gather
//    from its shard and sum (reduction on the input, need-replication on the
//    slice); a wider window needs the whole dimension (need-replication, and
//    blocked for propagation); a scatter needs both sides replicated;
//  - a collapsed (inserted) dimension belongs to the input alone: a gather
//    can still reduce over it (replication if its size is 1, nothing to
//    shard), a scatter passes it between input and result;
//  - the index vector dimension of the indices needs replication.
//
//   gather(tensor<8x16>, tensor<4x1>) offset_dims=[1] collapsed=[0]
//       start_index_map=[0] index_vector_dim=1 -> tensor<4x16>
//   ->  ([k, j], [i, l])->([i, j]) {i=4, j=16, k=8, l=1} reduction={k}
//       need_replication={l}
#include <functional>
#include <set>

#include "rules/RuleFamilies.h"

namespace autopart::rules {

namespace {

using AddFn = std::function<void(int64_t inputDim, int64_t indicesDim, int64_t slicesDim,
                                 int64_t size, FactorKind kind, bool blocked)>;

bool contains(const std::vector<int64_t> &v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// `implicitBatchKind`: the kind of a batch factor the input lacks (scatter:
// reduction, or need-replication when its combiner cannot be all-reduced).
bool addGatherScatterFactors(bool isScatter, FactorKind implicitBatchKind,
                             const std::vector<int64_t> &input, const std::vector<int64_t> &slices,
                             const std::vector<int64_t> &indices, int64_t indexVectorDim,
                             const std::vector<int64_t> &offsetDims,
                             const std::vector<int64_t> &collapsedDims,
                             const std::vector<int64_t> &inputBatchingDims,
                             const std::vector<int64_t> &indicesBatchingDims, const AddFn &add) {
  const FactorKind pass = FactorKind::PassThrough, nr = FactorKind::NeedReplication;
  int64_t indicesRank = int64_t(indices.size());
  int64_t inputDim = 0, batchPos = 0;
  for (int64_t s = 0; s < int64_t(slices.size()); ++s) {
    if (contains(offsetDims, s)) {
      while (contains(collapsedDims, inputDim) || contains(inputBatchingDims, inputDim)) ++inputDim;
      if (inputDim >= int64_t(input.size())) return false;
      int64_t inSize = input[size_t(inputDim)], sliceSize = slices[size_t(s)];
      if (inSize == sliceSize) {
        add(inputDim, kNullDim, s, inSize, pass, false);
      } else if (isScatter) {
        add(inputDim, kNullDim, kNullDim, inSize, nr, false);
        add(kNullDim, kNullDim, s, sliceSize, nr, false);
      } else if (sliceSize == 1) {
        add(inputDim, kNullDim, kNullDim, inSize, FactorKind::Reduction, false);
        add(kNullDim, kNullDim, s, sliceSize, nr, false);
      } else {
        add(inputDim, kNullDim, s, inSize, nr, true);
      }
      ++inputDim;
    } else {
      int64_t indicesDim = batchPos < indexVectorDim ? batchPos : batchPos + 1;
      if (indicesDim >= indicesRank) return false;
      auto it = std::find(indicesBatchingDims.begin(), indicesBatchingDims.end(), indicesDim);
      bool explicitBatch = it != indicesBatchingDims.end();
      int64_t inputBatch =
          explicitBatch ? inputBatchingDims[size_t(it - indicesBatchingDims.begin())] : kNullDim;
      add(inputBatch, indicesDim, s, slices[size_t(s)],
          isScatter && !explicitBatch ? implicitBatchKind : pass, false);
      ++batchPos;
    }
  }
  for (int64_t c : collapsedDims) {
    if (c < 0 || c >= int64_t(input.size())) return false;
    int64_t size = input[size_t(c)];
    add(c, kNullDim, kNullDim, size,
        isScatter ? pass : (size == 1 ? nr : FactorKind::Reduction), false);
  }
  if (indexVectorDim >= 0 && indexVectorDim < indicesRank)
    add(kNullDim, indexVectorDim, kNullDim, indices[size_t(indexVectorDim)], nr, false);
  return true;
}

// Whether a scatter's update computation combines old and new values with
// one commutative, associative op (the same for every input), so partial
// results from devices holding different updates can be all-reduced.
bool hasAllReducibleCombiner(const Module &m, OpId op) {
  if (m.numRegions(op) != 1) return false;
  RegionId r = m.region(op, 0);
  if (m.regions[r].blocks.size() != 1) return false;
  const Block &body = m.blocks[m.regions[r].blocks[0]];
  if (body.ops.empty()) return false;
  OpId ret = body.ops.back();
  static const std::set<std::string_view> kCombiners = {
      "stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum",
      "stablehlo.and", "stablehlo.or", "stablehlo.xor"};
  std::string_view kind;
  for (ValueId v : m.operands(ret)) {
    OpId def = m.definingOp(v);
    if (def == kNone || !kCombiners.count(m.opName(def))) return false;
    if (kind.empty()) kind = m.opName(def);
    if (m.opName(def) != kind) return false;
    for (ValueId a : m.operands(def))
      if (!m.values[a].isBlockArg) return false;
  }
  return !kind.empty();
}

std::vector<int64_t> field(const Module &m, AttrId dn, const char *key) {
  AttrId a = m.attrs.field(dn, key);
  return a == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(a);
}

int64_t fieldInt(const Module &m, AttrId dn, const char *key, int64_t dflt) {
  AttrId a = m.attrs.field(dn, key);
  return a == kNoAttr ? dflt : m.attrs.get(a).intValue;
}

}  // namespace

std::optional<OpShardingRule> gatherRule(const Module &m, OpId op) {
  AttrId dn = m.attr(op, "dimension_numbers");
  if (dn == kNoAttr || m.attrs.kind(dn) != AttrKind::DialectStruct) return std::nullopt;
  std::vector<int64_t> input = shapeOf(m, m.operand(op, 0)), slices = shapeOf(m, m.result(op));
  std::vector<int64_t> indices = shapeOf(m, m.operand(op, 1));
  int64_t indicesRank = int64_t(indices.size());
  RuleBuilder b(m, op);
  bool ok = addGatherScatterFactors(
      false, FactorKind::PassThrough, input, slices, indices,
      fieldInt(m, dn, "index_vector_dim", indicesRank), field(m, dn, "offset_dims"),
      field(m, dn, "collapsed_slice_dims"), field(m, dn, "operand_batching_dims"),
      field(m, dn, "start_indices_batching_dims"),
      [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim, int64_t size, FactorKind kind,
          bool blocked) { b.addFactor({inputDim, indicesDim}, {slicesDim}, size, kind, blocked); });
  if (!ok) return std::nullopt;
  return b.build();
}

std::optional<OpShardingRule> scatterRule(const Module &m, OpId op) {
  AttrId dn = m.attr(op, "scatter_dimension_numbers");
  if (dn == kNoAttr || m.attrs.kind(dn) != AttrKind::DialectStruct) return std::nullopt;
  size_t numInputs = (m.numOperands(op) - 1) / 2;
  if (numInputs == 0) return std::nullopt;
  std::vector<int64_t> input = shapeOf(m, m.operand(op, 0));
  std::vector<int64_t> slices = shapeOf(m, m.operand(op, uint32_t(numInputs + 1)));
  std::vector<int64_t> indices = shapeOf(m, m.operand(op, uint32_t(numInputs)));
  int64_t indicesRank = int64_t(indices.size());
  FactorKind implicitBatch =
      hasAllReducibleCombiner(m, op) ? FactorKind::Reduction : FactorKind::NeedReplication;
  RuleBuilder b(m, op);
  bool ok = addGatherScatterFactors(
      true, implicitBatch, input, slices, indices,
      fieldInt(m, dn, "index_vector_dim", indicesRank), field(m, dn, "update_window_dims"),
      field(m, dn, "inserted_window_dims"), field(m, dn, "input_batching_dims"),
      field(m, dn, "scatter_indices_batching_dims"),
      [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim, int64_t size, FactorKind kind,
          bool blocked) {
        std::vector<int64_t> operandDims(numInputs, inputDim);
        operandDims.push_back(indicesDim);
        operandDims.insert(operandDims.end(), numInputs, slicesDim);
        b.addFactor(operandDims, std::vector<int64_t>(numInputs, inputDim), size, kind, blocked);
      });
  if (!ok) return std::nullopt;
  return b.build();
}

}  // namespace autopart::rules
