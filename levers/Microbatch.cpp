#include "levers/Microbatch.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "analysis/NamedDimensions.h"
#include "levers/StepStructure.h"

namespace autopart {

namespace {

// Every value `op` defines: results, and inside its regions block arguments
// and results.
template <typename Fn> void forEachDefined(const Module &m, OpId op, Fn fn) {
  for (uint32_t r = 0; r < m.numResults(op); ++r) fn(m.result(op, r));
  for (uint32_t i = 0; i < m.numRegions(op); ++i)
    for (BlockId b : m.regions[m.region(op, i)].blocks) {
      for (ValueId a : m.blocks[b].args) fn(a);
      for (OpId inner : m.blocks[b].ops) forEachDefined(m, inner, fn);
    }
}

bool regionOnlyAdds(const Module &m, OpId op, uint32_t region) {
  for (BlockId b : m.regions[m.region(op, region)].blocks)
    for (OpId o : m.blocks[b].ops)
      if (!m.isa(o, "stablehlo.add") && !m.isa(o, "stablehlo.return")) return false;
  return true;
}

bool isSplatConstant(const Module &m, OpId op, bool zeroOnly) {
  if (!m.isa(op, "stablehlo.constant")) return false;
  AttrId a = m.attr(op, "value");
  if (!m.attrs.isSplat(a)) return false;
  if (!zeroOnly) return true;
  std::string body(m.attrs.get(a).body);
  char *end = nullptr;
  double d = std::strtod(body.c_str(), &end);
  return end && *end == '\0' && d == 0.0;
}

bool isZeroTensor(const Module &m, ValueId v) {
  OpId def = m.definingOp(v);
  if (def == kNone) return false;
  if (m.isa(def, "stablehlo.broadcast_in_dim")) return isZeroTensor(m, m.operand(def, 0));
  return isSplatConstant(m, def, /*zeroOnly=*/true);
}

}  // namespace

ValueId batchArgument(const Module &m, OpId func) {
  ValueId batchArg = kNone;
  for (ValueId a : dataArguments(m, func)) {
    TypeId t = m.type(a);
    if (!m.types.isTensor(t) || m.types.rank(t) == 0) continue;
    if (batchArg == kNone || m.types.rank(t) > m.types.rank(m.type(batchArg)) ||
        (m.types.rank(t) == m.types.rank(m.type(batchArg)) && m.types.byteSize(t) > m.types.byteSize(m.type(batchArg))))
      batchArg = a;
  }
  return batchArg;
}

bool microbatch(Module &m, OpId func, int64_t k, MicrobatchResult &out, Diagnostics &diags) {
  out = MicrobatchResult{};
  out.count = k;
  if (k < 1) {
    diags.error("microbatch count must be at least 1, got " + std::to_string(k));
    return false;
  }
  if (k == 1) return true;
  FuncView f{m, func};
  BlockId blk = f.entry();
  OpId ret = f.returnOp();
  if (blk == kNone || ret == kNone) {
    diags.error(m, func, "microbatching needs a function with a body");
    return false;
  }

  ValueId batchArg = batchArgument(m, func);
  if (batchArg == kNone) {
    diags.error(m, func, "microbatching needs a data argument with a batch dimension");
    return false;
  }
  NamedDimensions names = analyzeNamedDimensions(m);
  const NameId32 batch = names.nameOf(batchArg, 0);
  const int64_t B = m.types.shape(m.type(batchArg))[0];
  if (batch == kNoDimName) {
    diags.error(m, func, "microbatching: the batch dimension (size " + std::to_string(B) + ") is not shardable");
    return false;
  }
  if (B % k != 0) {
    diags.error(m, func, "microbatching: a batch of " + std::to_string(B) + " does not split into " +
                             std::to_string(k) + " microbatches");
    return false;
  }
  out.batch = B;
  out.microbatch = B / k;
  // Other data arguments share the batch when their dimension 0 has its
  // name, or has its size and a name no parameter shares (labels the step
  // does not link to the inputs by a shared factor), as the dp tactic takes
  // them.
  std::vector<char> isBatchName(names.names.size(), 0);
  isBatchName[batch] = 1;
  {
    std::vector<char> paramName(names.names.size(), 0);
    std::vector<ValueId> data = dataArguments(m, func);
    for (ValueId a : FuncView{m, func}.args()) {
      if (std::find(data.begin(), data.end(), a) != data.end()) continue;
      for (int64_t d = 0; d < m.types.rank(m.type(a)); ++d)
        if (NameId32 n = names.nameOf(a, uint32_t(d)); n != kNoDimName) paramName[n] = 1;
    }
    for (ValueId a : data) {
      TypeId t = m.type(a);
      if (!m.types.isTensor(t) || m.types.rank(t) == 0 || m.types.shape(t)[0] != B) continue;
      NameId32 n = names.nameOf(a, 0);
      if (n != kNoDimName && !paramName[n]) isBatchName[n] = 1;
    }
  }
  auto batchDims = [&](ValueId v) {
    std::vector<uint32_t> dims;
    TypeId t = m.type(v);
    if (!m.types.isTensor(t)) return dims;
    for (int64_t d = 0; d < m.types.rank(t); ++d)
      if (NameId32 n = names.nameOf(v, uint32_t(d)); n != kNoDimName && isBatchName[n]) dims.push_back(uint32_t(d));
    return dims;
  };
  auto isBatch = [&](ValueId v) { return !batchDims(v).empty(); };

  const std::vector<OpId> ops = m.blocks[blk].ops;
  std::vector<char> inBody(m.ops.size(), 0), hoisted(m.ops.size(), 0);
  std::vector<char> afterSum(m.values.size(), 0);  // reads a sum over the batch
  std::vector<ValueId> sums;
  auto fail = [&](OpId op, const std::string &why) {
    diags.error(m, op, "microbatching: " + why);
    return false;
  };
  for (OpId op : ops) {
    if (op == ret) continue;
    bool batchIn = false, batchOut = false, readsSum = false;
    forEachRead(m, op, [&](ValueId v) {
      batchIn = batchIn || isBatch(v);
      readsSum = readsSum || afterSum[v];
    });
    for (uint32_t r = 0; r < m.numResults(op); ++r) batchOut = batchOut || isBatch(m.result(op, r));
    if (!batchIn && !batchOut) {
      if (readsSum)
        for (uint32_t r = 0; r < m.numResults(op); ++r) afterSum[m.result(op, r)] = 1;
      continue;
    }
    if (readsSum)
      return fail(op, std::string(m.opName(op)) +
                          " mixes the examples (it reads a sum over the batch before every microbatch has added to it)");
    if (!batchIn) {
      // Creates a per-example value from nothing per-example. Broadcasts,
      // splats and iotas are recreated at the microbatch's shape: an iota
      // along the batch then numbers the microbatch's own rows, as it does
      // when JAX traces the step for a microbatch (take_along_axis indexes
      // the logits' rows with one). Anything else (random bits) is computed
      // whole before the loop and sliced, so it keeps its values.
      bool fresh = m.isa(op, "stablehlo.broadcast_in_dim") || isSplatConstant(m, op, false) ||
                   m.isa(op, "stablehlo.iota");
      if (!fresh) {
        hoisted[op] = 1;
        continue;
      }
    }
    inBody[op] = 1;
    for (uint32_t r = 0; r < m.numResults(op); ++r) {
      ValueId v = m.result(op, r);
      if (batchDims(v).size() > 1)
        return fail(op, "a value with the batch on two dimensions is not supported");
      if (isBatch(v)) continue;
      // The batch disappears here: only a sum over it accumulates.
      bool sum = m.isa(op, "stablehlo.dot_general") || m.isa(op, "stablehlo.convolution") ||
                 m.isa(op, "stablehlo.dot") ||
                 (m.isa(op, "stablehlo.reduce") && m.numResults(op) == 1 && regionOnlyAdds(m, op, 0)) ||
                 (m.isa(op, "stablehlo.scatter") && m.numResults(op) == 1 && regionOnlyAdds(m, op, 0) &&
                  isZeroTensor(m, m.operand(op, 0)));
      if (!sum)
        return fail(op, std::string(m.opName(op)) + " reduces the batch without summing it; accumulating "
                                                     "microbatches would change its result");
      sums.push_back(v);
      afterSum[v] = 1;
    }
  }
  for (ValueId v : m.operands(ret))
    if (isBatch(v)) return fail(ret, "the step returns a per-example value");
  for (NameId32 n = 0; n < names.names.size(); ++n) {
    if (!isBatchName[n]) continue;
    for (OpId op : names.names[n].replicatedAt)
      if (op < inBody.size() && inBody[op])
        return fail(op, std::string(m.opName(op)) + " needs the batch dimension whole (it indexes, slices, pads, "
                                                     "sorts or concatenates along it)");
  }
  if (sums.empty()) return fail(ret, "nothing in the step sums over the batch");

  // Per-example values the body reads from outside: sliced per microbatch.
  std::vector<ValueId> outside;
  std::vector<char> seen(m.values.size(), 0);
  for (OpId op : ops) {
    if (!inBody[op]) continue;
    forEachRead(m, op, [&](ValueId v) {
      if (seen[v] || !isBatch(v)) return;
      OpId d = m.definingOp(v);
      bool defInBody = d != kNone && d < inBody.size() && inBody[d];
      if (defInBody) return;
      OpId top = d;
      while (top != kNone && m.ops[top].parent != blk) top = m.parentOp(top);
      if (top != kNone && top < inBody.size() && inBody[top]) return;  // defined inside a body op's region
      seen[v] = 1;
      outside.push_back(v);
    });
  }
  for (ValueId v : outside) {
    std::vector<uint32_t> dims = batchDims(v);
    if (dims.size() != 1 || m.types.shape(m.type(v))[dims[0]] != B) {
      OpId d = m.definingOp(v);
      return fail(d != kNone ? d : func, "a per-example input whose batch dimension is merged with another "
                                         "dimension cannot be split into microbatches");
    }
  }

  // Shrink the body's per-example dimensions.
  auto shrunk = [&](ValueId v) -> TypeId {
    TypeId t = m.type(v);
    std::vector<int64_t> shape = m.types.shape(t);
    for (uint32_t d : batchDims(v)) shape[d] /= k;
    return m.types.tensor(shape, m.types.elementType(t));
  };
  for (OpId op : ops) {
    if (!inBody[op]) continue;
    ++out.bodyOps;
    bool ok = true;
    forEachDefined(m, op, [&](ValueId v) {
      for (uint32_t d : batchDims(v))
        if (m.types.shape(m.type(v))[d] % k) ok = false;
    });
    if (!ok) return fail(op, "a per-example dimension does not divide into " + std::to_string(k) + " microbatches");
    forEachDefined(m, op, [&](ValueId v) {
      if (isBatch(v)) m.setType(v, shrunk(v));
    });
    if (m.isa(op, "stablehlo.constant")) {
      // A splat keeps its value at the new shape.
      // (the prefix is a view kept by the attribute: only a literal outlives
      // this scope, and isSplatConstant admitted `dense` splats only).
      std::string body(m.attrs.get(m.attr(op, "value")).body);
      m.setAttr(op, "value", m.attrs.denseElementsOwned("dense", body, m.type(m.result(op))));
    }
    if (m.isa(op, "stablehlo.dynamic_slice")) {
      std::vector<int64_t> sizes = m.types.shape(m.type(m.result(op)));
      m.setAttr(op, "slice_sizes", m.attrs.denseArray(m.types.scalar("i64"), sizes));
    }
  }

  // Build: pre-loop ops, the reshapes of sliced inputs, the loop, the rest.
  TypeId i32 = m.types.scalar("i32");
  TypeId counterType = m.types.tensor({}, i32);
  auto constant = [&](TypeId type, const std::string &body, BlockId into, std::vector<OpId> &list) {
    OpId c = m.createOp("stablehlo.constant", {}, {type},
                        {{m.names.get("value"), m.attrs.denseElementsOwned("dense", body, type)}});
    m.ops[c].srcOffset = m.ops[ret].srcOffset;
    m.ops[c].parent = into;
    list.push_back(c);
    return m.result(c);
  };
  auto newOp = [&](std::string_view name, const std::vector<ValueId> &operands, const std::vector<TypeId> &types,
                   const std::vector<NamedAttr> &attrs, BlockId into, std::vector<OpId> &list) {
    OpId o = m.createOp(name, operands, types, attrs);
    m.ops[o].srcOffset = m.ops[ret].srcOffset;
    m.ops[o].parent = into;
    list.push_back(o);
    return o;
  };
  // Before the loop only what the body reads (so that, say, the optimizer's
  // decay of its moments does not hold a buffer through every microbatch).
  std::vector<char> needed(m.ops.size(), 0);
  {
    std::vector<OpId> work;
    auto need = [&](ValueId v) {
      OpId d = m.definingOp(v);
      while (d != kNone && m.ops[d].parent != blk) d = m.parentOp(d);
      if (d == kNone || d >= needed.size() || inBody[d] || needed[d]) return;
      needed[d] = 1;
      work.push_back(d);
    };
    for (OpId op : ops)
      if (inBody[op]) forEachRead(m, op, need);
    while (!work.empty()) {
      OpId op = work.back();
      work.pop_back();
      forEachRead(m, op, need);
    }
  }
  std::vector<OpId> entryOps, afterOps;
  for (OpId op : ops) {
    if (op == ret || inBody[op]) continue;
    (needed[op] ? entryOps : afterOps).push_back(op);
  }
  std::vector<ValueId> split(outside.size());
  for (size_t i = 0; i < outside.size(); ++i) {
    ValueId v = outside[i];
    uint32_t d = batchDims(v)[0];
    std::vector<int64_t> shape = m.types.shape(m.type(v));
    shape[d] = B / k;
    shape.insert(shape.begin() + d + 1, k);
    split[i] = m.result(newOp("stablehlo.reshape", {v}, {m.types.tensor(shape, m.types.elementType(m.type(v)))}, {},
                              blk, entryOps));
  }
  std::vector<ValueId> inits = {constant(counterType, "0", blk, entryOps)};
  std::vector<TypeId> carried = {counterType};
  for (ValueId s : sums) {
    TypeId t = m.type(s);
    inits.push_back(constant(t, m.types.isFloatElement(t) ? "0.000000e+00" : "0", blk, entryOps));
    carried.push_back(t);
  }
  OpId loop = m.createOp("stablehlo.while", inits, carried);
  m.ops[loop].srcOffset = m.ops[ret].srcOffset;
  m.ops[loop].parent = blk;
  RegionId condRegion = m.createRegion(), bodyRegion = m.createRegion();
  m.attachRegions(loop, {condRegion, bodyRegion});
  BlockId condBlock = m.createBlock(condRegion), body = m.createBlock(bodyRegion);
  std::vector<ValueId> condArgs, bodyArgs;
  for (TypeId t : carried) {
    condArgs.push_back(m.addBlockArg(condBlock, t));
    bodyArgs.push_back(m.addBlockArg(body, t));
  }
  std::vector<OpId> condOps, bodyOps;
  ValueId limit = constant(counterType, std::to_string(k), condBlock, condOps);
  TypeId i1 = m.types.tensor({}, m.types.scalar("i1"));
  OpId cmp = newOp("stablehlo.compare", {condArgs[0], limit}, {i1},
                   {{m.names.get("comparison_direction"), m.attrs.opaque("#stablehlo<comparison_direction LT>")},
                    {m.names.get("compare_type"), m.attrs.opaque("#stablehlo<comparison_type SIGNED>")}},
                   condBlock, condOps);
  newOp("stablehlo.return", {m.result(cmp)}, {}, {}, condBlock, condOps);
  m.blocks[condBlock].ops = condOps;

  ValueId zero = constant(counterType, "0", body, bodyOps);
  ValueId one = constant(counterType, "1", body, bodyOps);
  std::vector<ValueId> slices(outside.size());
  for (size_t i = 0; i < outside.size(); ++i) {
    ValueId v = outside[i];
    uint32_t d = batchDims(v)[0];
    std::vector<int64_t> sizes = m.types.shape(m.type(split[i]));
    sizes[d + 1] = 1;
    std::vector<ValueId> operands = {split[i]};
    for (size_t j = 0; j < sizes.size(); ++j) operands.push_back(j == d + 1 ? bodyArgs[0] : zero);
    TypeId elem = m.types.elementType(m.type(v));
    OpId ds = newOp("stablehlo.dynamic_slice", operands, {m.types.tensor(sizes, elem)},
                    {{m.names.get("slice_sizes"), m.attrs.denseArray(m.types.scalar("i64"), sizes)}}, body, bodyOps);
    std::vector<int64_t> shape = m.types.shape(m.type(v));
    shape[d] = B / k;
    slices[i] = m.result(newOp("stablehlo.reshape", {m.result(ds)}, {m.types.tensor(shape, elem)}, {}, body, bodyOps));
  }
  std::vector<uint32_t> outsideIndex(seen.size(), kNone);
  for (size_t i = 0; i < outside.size(); ++i) outsideIndex[outside[i]] = uint32_t(i);
  auto redirectSlices = [&](OpId user) {
    for (uint32_t j = 0; j < m.numOperands(user); ++j) {
      ValueId v = m.operand(user, j);
      if (v >= seen.size() || !seen[v]) continue;
      m.setOperand(user, j, slices[outsideIndex[v]]);
    }
  };
  for (OpId op : ops) {
    if (!inBody[op]) continue;
    redirectSlices(op);
    if (m.numRegions(op)) m.walk(op, redirectSlices);
    m.ops[op].parent = body;
    bodyOps.push_back(op);
  }
  std::vector<ValueId> yielded = {m.result(newOp("stablehlo.add", {bodyArgs[0], one}, {counterType}, {}, body, bodyOps))};
  for (size_t j = 0; j < sums.size(); ++j)
    yielded.push_back(
        m.result(newOp("stablehlo.add", {bodyArgs[j + 1], sums[j]}, {m.type(sums[j])}, {}, body, bodyOps)));
  newOp("stablehlo.return", yielded, {}, {}, body, bodyOps);
  m.blocks[body].ops = bodyOps;

  // After the loop the sums are the loop's results.
  std::vector<uint32_t> sumIndex(m.values.size(), kNone);
  for (size_t j = 0; j < sums.size(); ++j) sumIndex[sums[j]] = uint32_t(j);
  auto redirectSums = [&](OpId user) {
    for (uint32_t j = 0; j < m.numOperands(user); ++j) {
      ValueId v = m.operand(user, j);
      if (sumIndex[v] != kNone) m.setOperand(user, j, m.result(loop, sumIndex[v] + 1));
    }
  };
  afterOps.push_back(ret);
  for (OpId op : afterOps) {
    redirectSums(op);
    if (m.numRegions(op)) m.walk(op, redirectSums);
  }
  entryOps.push_back(loop);
  entryOps.insert(entryOps.end(), afterOps.begin(), afterOps.end());
  m.blocks[blk].ops = entryOps;
  out.loop = loop;
  out.body = body;
  out.accumulators = int(sums.size());
  return true;
}

}  // namespace autopart
