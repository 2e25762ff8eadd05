#include "export/HaloWindowExchange.h"

#include <algorithm>

#include "export/ZeroConstant.h"

namespace autopart {

int64_t manualShardCount(const DimSharding &d, const Mesh &mesh, const std::set<std::string> &manual) {
  int64_t n = 1;
  for (const AxisRef &a : d.axes)
    if (manual.count(a.name)) n *= a.size(mesh);
  return n;
}

namespace {

TypeId scalarI64(Module &m) { return m.types.tensor({}, m.types.scalar("i64")); }

AttrId i64Array(Module &m, const std::vector<int64_t> &v) { return m.attrs.denseArray(m.types.scalar("i64"), v); }

ValueId constI64(OpPlacer &at, int64_t v) {
  Module &m = at.m;
  TypeId t = scalarI64(m);
  return at.value("stablehlo.constant", {}, t,
                  {{m.names.get("value"), m.attrs.denseElementsOwned("dense", std::to_string(v), t)}});
}

// The device's shard index along `axes`: its coordinates on them, major
// first, from the (logical or, with explicit device ids, looked-up) device id.
ValueId shardIndex(OpPlacer &at, ValueId deviceId, const Mesh &mesh, const std::vector<AxisRef> &axes) {
  Module &m = at.m;
  auto indexOfLogical = [&](int64_t logical) {
    int64_t index = 0;
    for (const AxisRef &a : axes) {
      int axis = mesh.axisIndex(a.name);
      int64_t suffix = 1;
      for (size_t j = size_t(axis) + 1; j < mesh.axes.size(); ++j) suffix *= mesh.axes[j].size;
      int64_t size = a.size(mesh), pre = a.isSubAxis() ? a.preSize : 1;
      int64_t stride = mesh.axes[size_t(axis)].size / (pre * size);
      index = index * size + (logical / (suffix * stride)) % size;
    }
    return index;
  };
  if (!mesh.deviceIds.empty()) {
    int64_t total = mesh.numDevices();
    std::vector<int64_t> table(size_t(total), 0);
    for (int64_t logical = 0; logical < total; ++logical) {
      int64_t device = mesh.deviceIds[size_t(logical)];
      if (device >= 0 && device < total) table[size_t(device)] = indexOfLogical(logical);
    }
    std::string body = "[";
    for (size_t i = 0; i < table.size(); ++i) body += (i ? ", " : "") + std::to_string(table[i]);
    body += "]";
    TypeId i64 = m.types.scalar("i64");
    TypeId tableType = m.types.tensor({total}, i64);
    ValueId c = at.value("stablehlo.constant", {}, tableType,
                         {{m.names.get("value"), m.attrs.denseElementsOwned("dense", body, tableType)}});
    ValueId one = at.value("stablehlo.dynamic_slice", {c, deviceId}, m.types.tensor({1}, i64),
                           {{m.names.get("slice_sizes"), i64Array(m, {1})}});
    return at.value("stablehlo.reshape", {one}, scalarI64(m));
  }
  ValueId index = kNone;
  int64_t total = mesh.numDevices();
  for (const AxisRef &a : axes) {
    int axis = mesh.axisIndex(a.name);
    int64_t suffix = 1;
    for (size_t j = size_t(axis) + 1; j < mesh.axes.size(); ++j) suffix *= mesh.axes[j].size;
    int64_t size = a.size(mesh), pre = a.isSubAxis() ? a.preSize : 1;
    int64_t divisor = suffix * (mesh.axes[size_t(axis)].size / (pre * size));
    ValueId coord = deviceId;
    if (divisor > 1) coord = at.value("stablehlo.divide", {coord, constI64(at, divisor)}, scalarI64(m));
    if (size < total) coord = at.value("stablehlo.remainder", {coord, constI64(at, size)}, scalarI64(m));
    if (index == kNone) {
      index = coord;
    } else {
      index = at.value("stablehlo.multiply", {index, constI64(at, size)}, scalarI64(m));
      index = at.value("stablehlo.add", {index, coord}, scalarI64(m));
    }
  }
  return index == kNone ? constI64(at, 0) : index;
}

// Gathers the neighbours of one dimension around the local shard, pads the
// buffer and slices out this device's window.
ValueId exchangeDim(OpPlacer &at, ChannelIds &channels, ValueId operand, ValueId padding, const DimExchange &ex,
                    const TensorSharding &in, const Mesh &mesh, const TensorSharding &local, int64_t padLow,
                    int64_t dilation) {
  Module &m = at.m;
  size_t dim = size_t(ex.dim);
  TypeId type = m.type(operand);
  TypeId element = m.types.elementType(type);
  std::vector<int64_t> shape = m.types.shape(type);
  const std::vector<AxisRef> &axes = ex.axes.empty() ? in.dims[dim].axes : ex.axes;

  std::vector<ValueId> segments;
  auto fetch = [&](int64_t offset) {
    std::vector<int64_t> pairs = shiftPairs(mesh, axes, offset);
    segments.push_back(pairs.empty() ? operand : collectivePermute(at, channels, operand, pairs, nullptr));
  };
  for (int64_t off = ex.leftHops; off >= 1; --off) fetch(off);
  segments.push_back(operand);
  for (int64_t off = -1; off >= -ex.rightHops; --off) fetch(off);

  std::vector<int64_t> concatShape = shape;
  concatShape[dim] = shape[dim] * int64_t(segments.size());
  ValueId concat = at.value("stablehlo.concatenate", segments, m.types.tensor(concatShape, element),
                            {{m.names.get("dimension"), m.attrs.integer(ex.dim, m.types.scalar("i64"))}}, &local);

  int64_t edge = ex.footprint * dilation;
  std::vector<int64_t> low(shape.size(), 0), high(shape.size(), 0), interior(shape.size(), 0);
  low[dim] = high[dim] = edge;
  interior[dim] = dilation - 1;
  std::vector<int64_t> bufferShape = concatShape;
  bufferShape[dim] = (concatShape[dim] - 1) * dilation + 1 + 2 * edge;
  ValueId buffer = at.value("stablehlo.pad", {concat, padding}, m.types.tensor(bufferShape, element),
                            {{m.names.get("edge_padding_high"), i64Array(m, high)},
                             {m.names.get("edge_padding_low"), i64Array(m, low)},
                             {m.names.get("interior_padding"), i64Array(m, interior)}},
                            &local);

  ValueId id = at.value(channels.crossPartition ? "stablehlo.partition_id" : "stablehlo.replica_id", {},
                        m.types.tensor({}, m.types.scalar("ui32")));
  id = at.value("stablehlo.convert", {id}, scalarI64(m));
  ValueId index = shardIndex(at, id, mesh, axes);
  int64_t sIn = shape[dim] * dilation;
  ValueId offset, zero;
  if (!ex.offsets.empty()) {
    TypeId i64 = m.types.scalar("i64");
    std::string body = "[";
    for (size_t t = 0; t < ex.offsets.size(); ++t) body += (t ? ", " : "") + std::to_string(ex.offsets[t]);
    body += "]";
    TypeId tableType = m.types.tensor({int64_t(ex.offsets.size())}, i64);
    ValueId table = at.value("stablehlo.constant", {}, tableType,
                             {{m.names.get("value"), m.attrs.denseElementsOwned("dense", body, tableType)}});
    ValueId one = at.value("stablehlo.dynamic_slice", {table, index}, m.types.tensor({1}, i64),
                           {{m.names.get("slice_sizes"), i64Array(m, {1})}});
    offset = at.value("stablehlo.reshape", {one}, scalarI64(m));
    zero = constI64(at, 0);
  } else {
    ValueId diff = constI64(at, ex.sOut - sIn);
    ValueId base = constI64(at, -padLow + ex.leftHops * sIn + ex.footprint * dilation);
    offset = at.value("stablehlo.multiply", {index, diff}, scalarI64(m));
    offset = at.value("stablehlo.add", {offset, base}, scalarI64(m));
    zero = constI64(at, 0);
    offset = at.value("stablehlo.maximum", {offset, zero}, scalarI64(m));
  }

  std::vector<ValueId> operands{buffer};
  for (size_t d = 0; d < shape.size(); ++d) operands.push_back(d == dim ? offset : zero);
  std::vector<int64_t> sizes = bufferShape;
  sizes[dim] = ex.footprint;
  return at.value("stablehlo.dynamic_slice", operands, m.types.tensor(sizes, element),
                  {{m.names.get("slice_sizes"), i64Array(m, sizes)}}, &local);
}

}  // namespace

bool DataExchange::needsComm() const {
  return std::any_of(dims.begin(), dims.end(), [](const DimExchange &d) { return d.needsComm; });
}

bool DataExchange::canUseHalo() const {
  return std::all_of(dims.begin(), dims.end(), [](const DimExchange &d) { return d.canUseHalo; });
}

DimExchange planDimExchange(int64_t count, int64_t sIn, int64_t sOut, int64_t footprint, int64_t padLow,
                            int64_t baseDilation, int64_t inputSize) {
  DimExchange ex;
  ex.sOut = sOut;
  ex.footprint = footprint;
  for (int64_t t = 0; t < count; ++t) {
    // C++ division (towards zero), as Shardy maps the window start back to
    // the undilated input.
    int64_t start = (t * sOut - padLow) / baseDilation;
    int64_t first = std::max<int64_t>(0, start);
    int64_t last = std::min<int64_t>(inputSize - 1, start + footprint - 1);
    if (first > last) {
      ex.needsComm = true;
      continue;
    }
    int64_t source = first / sIn, lastSource = last / sIn;
    if (source != t || lastSource != t) ex.needsComm = true;
    if (source < t) ex.leftHops = std::max(ex.leftHops, t - source);
    if (lastSource > t) ex.rightHops = std::max(ex.rightHops, lastSource - t);
  }
  if (ex.leftHops + ex.rightHops + 1 >= count && (ex.leftHops > 1 || ex.rightHops > 1)) ex.canUseHalo = false;
  return ex;
}

DataExchange planDataExchange(const std::vector<int64_t> &shape, const TensorSharding &sharding, const Mesh &mesh,
                              const std::function<DimExchange(int64_t, int64_t, int64_t)> &plan) {
  DataExchange out;
  out.divisibleShape = shape;
  for (size_t d = 0; d < shape.size() && d < sharding.dims.size(); ++d) {
    int64_t count = sharding.dims[d].shardCount(mesh);
    if (count <= 1) continue;
    for (const AxisRef &a : sharding.dims[d].axes) out.manual.insert(a.name);
    out.divisibleShape[d] = (shape[d] + count - 1) / count * count;
    DimExchange ex = plan(int64_t(d), out.divisibleShape[d] / count, count);
    ex.dim = int64_t(d);
    out.dims.push_back(ex);
  }
  return out;
}

ValueId haloWindowExchange(OpPlacer &at, ChannelIds &channels, ValueId divisibleInput, ValueId padding,
                           TypeId paddedResult, const TensorSharding &in, const TensorSharding &out,
                           const Mesh &mesh, const DataExchange &plan, const std::vector<int64_t> &padLow,
                           const std::vector<int64_t> &baseDilation, const LocalPostProcess &post) {
  Module &m = at.m;
  TypeId element = m.types.elementType(m.type(divisibleInput));
  std::vector<int64_t> localShape = plan.divisibleShape;
  for (size_t d = 0; d < localShape.size(); ++d) localShape[d] /= manualShardCount(in.dims[d], mesh, plan.manual);
  std::vector<int64_t> localResult = m.types.shape(paddedResult);
  for (size_t d = 0; d < localResult.size() && d < out.dims.size(); ++d)
    localResult[d] /= manualShardCount(out.dims[d], mesh, plan.manual);

  std::vector<AttrId> axisNames;
  for (const MeshAxis &a : mesh.axes)
    if (plan.manual.count(a.name)) axisNames.push_back(m.attrs.string(a.name));
  TensorSharding scalar = TensorSharding::open(in.meshName, 0);
  scalar.inlineMesh = in.inlineMesh;
  OpId mc = at.create("sdy.manual_computation", {divisibleInput, padding}, {paddedResult},
                      {{m.names.get("in_shardings"), m.attrs.shardingPerValue({in, scalar})},
                       {m.names.get("out_shardings"), m.attrs.shardingPerValue({out})},
                       {m.names.get("manual_axes"), m.attrs.array(axisNames)}},
                      nullptr, 1);
  RegionId region = m.createRegion();
  BlockId body = m.createBlock(region);
  ValueId local = m.addBlockArg(body, m.types.tensor(localShape, element));
  ValueId localPadding = m.addBlockArg(body, m.type(padding));
  m.attachRegions(mc, {region});

  OpPlacer inside{m, at.map, at.near, body, kNone};
  TensorSharding localSharding = withoutAxes(in, plan.manual);
  for (const DimExchange &ex : plan.dims) {
    if (!ex.needsComm) continue;
    size_t d = size_t(ex.dim);
    local = exchangeDim(inside, channels, local, localPadding, ex, in, mesh, localSharding,
                        d < padLow.size() ? padLow[d] : 0, d < baseDilation.size() ? baseDilation[d] : 1);
  }
  local = post(inside, local, localPadding, localResult);
  inside.create("sdy.return", {local}, {});
  return m.result(mc);
}

ValueId zeroScalar(OpPlacer &at, TypeId element) {
  Module &m = at.m;
  TypeId scalar = m.types.tensor({}, element);
  return at.value("stablehlo.constant", {}, scalar,
                  {{m.names.get("value"),
                    m.attrs.denseElementsOwned("dense", zeroLiteral(m.types, scalar).value_or("0"), scalar)}});
}

ValueId padHighToShape(OpPlacer &at, ValueId v, const std::vector<int64_t> &shape, const TensorSharding &sharding,
                       ValueId padding) {
  Module &m = at.m;
  std::vector<int64_t> have = m.types.shape(m.type(v));
  if (have == shape) return v;
  TypeId element = m.types.elementType(m.type(v));
  if (padding == kNone) padding = zeroScalar(at, element);
  std::vector<int64_t> high(shape.size()), zeros(shape.size(), 0);
  for (size_t d = 0; d < shape.size(); ++d) high[d] = shape[d] - have[d];
  return at.value("stablehlo.pad", {v, padding}, m.types.tensor(shape, element),
                  {{m.names.get("edge_padding_high"), i64Array(m, high)},
                   {m.names.get("edge_padding_low"), i64Array(m, zeros)},
                   {m.names.get("interior_padding"), i64Array(m, zeros)}},
                  &sharding);
}

ValueId sliceHighToShape(OpPlacer &at, ValueId v, const std::vector<int64_t> &shape, const TensorSharding &sharding) {
  Module &m = at.m;
  if (m.types.shape(m.type(v)) == shape) return v;
  std::vector<int64_t> zeros(shape.size(), 0), ones(shape.size(), 1);
  return at.value("stablehlo.slice", {v}, m.types.tensor(shape, m.types.elementType(m.type(v))),
                  {{m.names.get("start_indices"), i64Array(m, zeros)},
                   {m.names.get("limit_indices"), i64Array(m, shape)},
                   {m.names.get("strides"), i64Array(m, ones)}},
                  &sharding);
}

}  // namespace autopart
