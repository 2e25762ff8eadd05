#include "export/PaddingBuilder.h"

#include <algorithm>

#include "asm/StablehloSyntaxHelpers.h"

namespace autopart {

namespace {

// `dense<...>` body spelling of `kind` for a scalar element type, as MLIR
// prints it.
std::string scalarSpelling(const Module &m, TypeId element, PaddingKind kind) {
  const TypeStorage &t = m.types.get(element);
  bool one = kind == PaddingKind::One;
  switch (t.scalarClass) {
  case ScalarClass::Float:
    return one ? "1.000000e+00" : "0.000000e+00";
  case ScalarClass::Complex:
    return one ? "(1.000000e+00,0.000000e+00)" : "(0.000000e+00,0.000000e+00)";
  case ScalarClass::Index:
    return one ? "1" : "0";
  case ScalarClass::Int:
  case ScalarClass::UInt:
  case ScalarClass::SignlessInt:
    if (t.bits == 1) return one ? "true" : "false";
    return one ? "1" : "0";
  }
  return one ? "1" : "0";
}

}  // namespace

void PaddingBuilder::reset(OpId anchor) {
  anchor_ = anchor;
  after_ = false;
  before_.clear();
  afterOps_.clear();
}

void PaddingBuilder::place(OpId op) {
  m_.ops[op].srcOffset = m_.ops[anchor_].srcOffset;
  m_.ops[op].loc = m_.ops[anchor_].loc;
  (after_ ? afterOps_ : before_).push_back(op);
}

ValueId PaddingBuilder::add(OpId op, const TensorSharding *sharding) {
  if (sharding) m_.setAttr(op, "sdy.sharding", m_.attrs.shardingPerValue({*sharding}));
  place(op);
  return m_.result(op);
}

ValueId PaddingBuilder::constant(TypeId element, PaddingKind kind) {
  return constant(element, scalarSpelling(m_, element, kind));
}

ValueId PaddingBuilder::constant(TypeId element, std::string spelling) {
  TypeId type = m_.types.tensor({}, element);
  AttrId value = m_.attrs.denseElementsOwned("dense", std::move(spelling), type);
  return add(m_.createOp("stablehlo.constant", {}, {type}, {{m_.names.get("value"), value}}), nullptr);
}

ValueId PaddingBuilder::padHigh(ValueId input, TypeId target, ValueId padValue,
                                const TensorSharding *sharding) {
  const std::vector<int64_t> &from = m_.types.shape(m_.type(input));
  const std::vector<int64_t> &to = m_.types.shape(target);
  std::vector<int64_t> high(to.size()), zeros(to.size(), 0);
  for (size_t d = 0; d < to.size(); ++d) high[d] = to[d] - from[d];
  return add(m_.createOp("stablehlo.pad", {input, padValue}, {target},
                         {{m_.names.get("edge_padding_low"), i64Array(m_, zeros)},
                          {m_.names.get("edge_padding_high"), i64Array(m_, high)},
                          {m_.names.get("interior_padding"), i64Array(m_, zeros)}}),
             sharding);
}

ValueId PaddingBuilder::sliceTo(ValueId input, TypeId target, const TensorSharding *sharding) {
  const std::vector<int64_t> &to = m_.types.shape(target);
  std::vector<int64_t> zeros(to.size(), 0), ones(to.size(), 1);
  return add(m_.createOp("stablehlo.slice", {input}, {target},
                         {{m_.names.get("start_indices"), i64Array(m_, zeros)},
                          {m_.names.get("limit_indices"), i64Array(m_, to)},
                          {m_.names.get("strides"), i64Array(m_, ones)}}),
             sharding);
}

ValueId PaddingBuilder::maskBeyond(ValueId input, const std::vector<int64_t> &origShape, ValueId padValue,
                                   const std::vector<int64_t> *dims, const TensorSharding *sharding) {
  TypeId type = m_.type(input);
  const std::vector<int64_t> shape = m_.types.shape(type);
  TypeId i32 = m_.types.scalar("i32");
  TypeId indexType = m_.types.tensor(shape, i32);
  TypeId maskType = m_.types.tensor(shape, m_.types.scalar("i1"));
  AttrId noDims = i64Array(m_, {});
  ValueId mask = kNone;
  for (size_t d = 0; d < shape.size() && d < origShape.size(); ++d) {
    if (origShape[d] == shape[d]) continue;
    if (dims && std::find(dims->begin(), dims->end(), int64_t(d)) == dims->end()) continue;
    ValueId iota = add(m_.createOp("stablehlo.iota", {}, {indexType},
                                   {{m_.names.get("iota_dimension"), m_.attrs.integer(int64_t(d), i64Type(m_))}}),
                       sharding);
    TypeId scalarI32 = m_.types.tensor({}, i32);
    AttrId limitValue = m_.attrs.denseElementsOwned("dense", std::to_string(origShape[d]), scalarI32);
    ValueId limit = add(m_.createOp("stablehlo.constant", {}, {scalarI32}, {{m_.names.get("value"), limitValue}}),
                        nullptr);
    ValueId limits = add(m_.createOp("stablehlo.broadcast_in_dim", {limit}, {indexType},
                                     {{m_.names.get("broadcast_dimensions"), noDims}}),
                         sharding);
    ValueId inside = add(m_.createOp("stablehlo.compare", {iota, limits}, {maskType},
                                     {{m_.names.get("comparison_direction"),
                                       enumAttr(m_, "comparison_direction", "LT")}}),
                         sharding);
    mask = mask == kNone ? inside : add(m_.createOp("stablehlo.and", {mask, inside}, {maskType}), sharding);
  }
  if (mask == kNone) return input;
  ValueId fill = add(m_.createOp("stablehlo.broadcast_in_dim", {padValue}, {type},
                                 {{m_.names.get("broadcast_dimensions"), noDims}}),
                     sharding);
  return add(m_.createOp("stablehlo.select", {mask, input, fill}, {type}), sharding);
}

}  // namespace autopart
