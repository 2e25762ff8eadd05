// Rules of gather and scatter, which share their structure: offset (window)
// dimensions pass between input and slices when unsliced, batch dimensions
// of the indices pass to the slices (and to the input for explicit batching
// dims), collapsed dimensions belong to the input alone.
//
//   gather(tensor<8x16>, tensor<4x1>) offset_dims=[1] collapsed=[0]
//       -> tensor<4x16>
//   ->  ([k, j], [i, l])->([i, j]) {i=4, j=16, k=8, l=1}
#include <functional>

#include "rules/RuleFamilies.h"

namespace autopart::rules {

namespace {

using AddFn = std::function<void(int64_t inputDim, int64_t indicesDim, int64_t slicesDim, int64_t size)>;

bool contains(const std::vector<int64_t> &v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool addGatherScatterFactors(const std::vector<int64_t> &input, const std::vector<int64_t> &slices,
                             int64_t indicesRank, int64_t indexVectorDim,
                             const std::vector<int64_t> &offsetDims,
                             const std::vector<int64_t> &collapsedDims,
                             const std::vector<int64_t> &inputBatchingDims,
                             const std::vector<int64_t> &indicesBatchingDims, const AddFn &add) {
  int64_t inputDim = 0, batchPos = 0;
  for (int64_t s = 0; s < int64_t(slices.size()); ++s) {
    if (contains(offsetDims, s)) {
      while (contains(collapsedDims, inputDim) || contains(inputBatchingDims, inputDim)) ++inputDim;
      if (inputDim >= int64_t(input.size())) return false;
      int64_t inSize = input[size_t(inputDim)];
      if (inSize == slices[size_t(s)]) {
        add(inputDim, kNullDim, s, inSize);
      } else {
        add(inputDim, kNullDim, kNullDim, inSize);
        add(kNullDim, kNullDim, s, slices[size_t(s)]);
      }
      ++inputDim;
    } else {
      int64_t indicesDim = batchPos < indexVectorDim ? batchPos : batchPos + 1;
      if (indicesDim >= indicesRank) return false;
      auto it = std::find(indicesBatchingDims.begin(), indicesBatchingDims.end(), indicesDim);
      int64_t inputBatch = it == indicesBatchingDims.end()
                               ? kNullDim
                               : inputBatchingDims[size_t(it - indicesBatchingDims.begin())];
      add(inputBatch, indicesDim, s, slices[size_t(s)]);
      ++batchPos;
    }
  }
  for (int64_t c : collapsedDims) {
    if (c < 0 || c >= int64_t(input.size())) return false;
    add(c, kNullDim, kNullDim, input[size_t(c)]);
  }
  return true;
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
  int64_t indicesRank = int64_t(shapeOf(m, m.operand(op, 1)).size());
  RuleBuilder b(m, op);
  bool ok = addGatherScatterFactors(
      input, slices, indicesRank, fieldInt(m, dn, "index_vector_dim", indicesRank),
      field(m, dn, "offset_dims"), field(m, dn, "collapsed_slice_dims"),
      field(m, dn, "operand_batching_dims"), field(m, dn, "start_indices_batching_dims"),
      [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim, int64_t size) {
        b.addFactor({inputDim, indicesDim}, {slicesDim}, size);
      });
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
  int64_t indicesRank = int64_t(shapeOf(m, m.operand(op, uint32_t(numInputs))).size());
  RuleBuilder b(m, op);
  bool ok = addGatherScatterFactors(
      input, slices, indicesRank, fieldInt(m, dn, "index_vector_dim", indicesRank),
      field(m, dn, "update_window_dims"), field(m, dn, "inserted_window_dims"),
      field(m, dn, "input_batching_dims"), field(m, dn, "scatter_indices_batching_dims"),
      [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim, int64_t size) {
        // Only in indices and updates: scattered elements are summed.
        bool reduction = inputDim == kNullDim && indicesDim != kNullDim && slicesDim != kNullDim;
        std::vector<int64_t> operandDims(numInputs, inputDim);
        operandDims.push_back(indicesDim);
        operandDims.insert(operandDims.end(), numInputs, slicesDim);
        b.addFactor(operandDims, std::vector<int64_t>(numInputs, inputDim), size,
                    reduction ? FactorKind::Reduction : FactorKind::PassThrough);
      });
  if (!ok) return std::nullopt;
  return b.build();
}

}  // namespace autopart::rules
