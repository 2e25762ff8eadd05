#include "export/HaloExchange.h"

#include <algorithm>
#include <regex>

#include "export/ZeroConstant.h"

namespace autopart {

namespace {

std::vector<int64_t> coordinates(int64_t index, const Mesh &mesh) {
  std::vector<int64_t> coords(mesh.axes.size());
  for (size_t j = mesh.axes.size(); j-- > 0;) {
    coords[j] = index % mesh.axes[j].size;
    index /= mesh.axes[j].size;
  }
  return coords;
}

int64_t linearIndex(const std::vector<int64_t> &coords, const Mesh &mesh) {
  int64_t index = 0;
  for (size_t j = 0; j < mesh.axes.size(); ++j) index = index * mesh.axes[j].size + coords[j];
  return index;
}

int64_t deviceAt(const Mesh &mesh, int64_t index) {
  return mesh.deviceIds.empty() ? index : mesh.deviceIds[size_t(index)];
}

// Where the devices of sub-axis `a` sit within its mesh axis: its size and
// the stride between its coordinates.
struct SubAxisPlace {
  int axis;
  int64_t size, stride;
};

SubAxisPlace placeOf(const AxisRef &a, const Mesh &mesh) {
  int axis = mesh.axisIndex(a.name);
  int64_t full = mesh.axes[size_t(axis)].size;
  int64_t size = a.size(mesh), pre = a.isSubAxis() ? a.preSize : 1;
  return {axis, size, full / (pre * size)};
}

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

TypeId i64Type(Module &m) { return m.types.scalar("i64"); }

AttrId i64Array(Module &m, const std::vector<int64_t> &v) { return m.attrs.denseArray(i64Type(m), v); }

}  // namespace

OpId OpPlacer::create(std::string_view name, const std::vector<ValueId> &operands, const std::vector<TypeId> &types,
                      const std::vector<NamedAttr> &attrs, const TensorSharding *sharding, uint32_t numRegions) {
  OpId op = m.createOp(name, operands, types, attrs, numRegions);
  m.ops[op].srcOffset = m.ops[near].srcOffset;
  m.ops[op].loc = m.ops[near].loc;
  m.insertOp(block, op, before);
  if (sharding) {
    m.setAttr(op, "sdy.sharding", m.attrs.shardingPerValue(std::vector<TensorSharding>(types.size(), *sharding)));
    for (uint32_t r = 0; r < m.numResults(op); ++r) map.set(m.result(op, r), *sharding);
  }
  return op;
}

ChannelIds ChannelIds::forModule(const Module &m, bool crossPartition) {
  ChannelIds ids;
  ids.crossPartition = crossPartition;
  if (m.top == kNone) return ids;
  static const std::regex handle(R"(handle\s*=\s*(-?\d+))");
  int64_t largest = 0;
  m.walk(m.top, [&](OpId op) {
    AttrId a = m.attr(op, "channel_handle");
    if (a == kNoAttr) return;
    std::string text = m.attrs.str(a);
    std::smatch match;
    if (std::regex_search(text, match, handle)) largest = std::max<int64_t>(largest, std::stoll(match[1].str()));
  });
  ids.next = largest + 1;
  return ids;
}

std::vector<int64_t> shiftPairs(const Mesh &mesh, const std::vector<AxisRef> &dimAxes, int64_t offset) {
  std::vector<int64_t> pairs;
  int64_t total = mesh.numDevices();
  for (int64_t i = 0; i < total; ++i) {
    std::vector<int64_t> coords = coordinates(i, mesh), next = coords;
    int64_t carry = offset;
    for (size_t k = dimAxes.size(); k-- > 0 && carry != 0;) {
      SubAxisPlace p = placeOf(dimAxes[k], mesh);
      int64_t sub = (coords[size_t(p.axis)] / p.stride) % p.size;
      int64_t moved = sub + carry;
      carry = floorDiv(moved, p.size);
      int64_t wrapped = moved - carry * p.size;
      next[size_t(p.axis)] += (wrapped - sub) * p.stride;
    }
    if (carry != 0) continue;
    pairs.push_back(deviceAt(mesh, i));
    pairs.push_back(deviceAt(mesh, linearIndex(next, mesh)));
  }
  return pairs;
}

Mesh reversedMesh(const Mesh &mesh, const std::vector<AxisRef> &axesToReverse) {
  Mesh out = mesh;
  int64_t total = mesh.numDevices();
  out.deviceIds.assign(size_t(total), 0);
  for (int64_t i = 0; i < total; ++i) {
    std::vector<int64_t> coords = coordinates(i, mesh), flipped = coords;
    for (const AxisRef &a : axesToReverse) {
      SubAxisPlace p = placeOf(a, mesh);
      int64_t sub = (coords[size_t(p.axis)] / p.stride) % p.size;
      flipped[size_t(p.axis)] += (p.size - 1 - 2 * sub) * p.stride;
    }
    out.deviceIds[size_t(i)] = deviceAt(mesh, linearIndex(flipped, mesh));
  }
  return out;
}

ValueId collectivePermute(OpPlacer &at, ChannelIds &channels, ValueId input, const std::vector<int64_t> &pairs,
                          const TensorSharding *sharding) {
  Module &m = at.m;
  std::string body = "[";
  for (size_t k = 0; k < pairs.size(); k += 2)
    body += (k ? ", [" : "[") + std::to_string(pairs[k]) + ", " + std::to_string(pairs[k + 1]) + "]";
  body += "]";
  TypeId pairType = m.types.tensor({int64_t(pairs.size() / 2), 2}, i64Type(m));
  std::vector<NamedAttr> attrs;
  if (channels.crossPartition)
    attrs.push_back({m.names.get("channel_handle"),
                     m.attrs.opaque("#stablehlo.channel_handle<handle = " + std::to_string(channels.next++) +
                                    ", type = 1>")});
  attrs.push_back({m.names.get("source_target_pairs"), m.attrs.denseElementsOwned("dense", body, pairType)});
  return at.value("stablehlo.collective_permute", {input}, m.type(input), attrs, sharding);
}

TensorSharding withoutAxes(TensorSharding s, const std::set<std::string> &manual) {
  for (DimSharding &d : s.dims)
    std::erase_if(d.axes, [&](const AxisRef &a) { return manual.count(a.name) != 0; });
  return s;
}

namespace {

// One step of `haloRightShift` inside the manual computation: the local
// shard takes the last `shift % size` elements of the shard `shift / size + 1`
// devices to its left, then the first ones of the shard `shift / size` to its
// left (itself when 0).
ValueId rightShift(OpPlacer &at, ChannelIds &channels, ValueId input, int64_t dim, int64_t shift,
                   const TensorSharding &sharding, const Mesh &mesh, const std::set<std::string> &manual) {
  Module &m = at.m;
  TypeId type = m.type(input);
  std::vector<int64_t> shape = m.types.shape(type);
  TypeId element = m.types.elementType(type);
  int64_t size = shape[size_t(dim)];
  TensorSharding local = withoutAxes(sharding, manual);
  std::vector<AxisRef> dimAxes;
  for (const AxisRef &a : sharding.dims[size_t(dim)].axes)
    if (manual.count(a.name)) dimAxes.push_back(a);

  auto permute = [&](int64_t offset) -> ValueId {
    if (offset == 0) return input;
    std::vector<int64_t> pairs = shiftPairs(mesh, dimAxes, offset);
    if (pairs.empty()) {
      TypeId scalar = m.types.tensor({}, element);
      ValueId zero = at.value("stablehlo.constant", {}, scalar,
                              {{m.names.get("value"),
                                m.attrs.denseElementsOwned("dense", zeroLiteral(m.types, scalar).value_or("0"), scalar)}});
      return at.value("stablehlo.broadcast_in_dim", {zero}, type,
                      {{m.names.get("broadcast_dimensions"), i64Array(m, {})}}, &local);
    }
    return collectivePermute(at, channels, input, pairs, &local);
  };
  auto slice = [&](ValueId v, int64_t begin, int64_t end) {
    std::vector<int64_t> starts(shape.size(), 0), limits = shape, strides(shape.size(), 1);
    starts[size_t(dim)] = begin;
    limits[size_t(dim)] = end;
    std::vector<int64_t> out = shape;
    out[size_t(dim)] = end - begin;
    return at.value("stablehlo.slice", {v}, m.types.tensor(out, element),
                    {{m.names.get("start_indices"), i64Array(m, starts)},
                     {m.names.get("limit_indices"), i64Array(m, limits)},
                     {m.names.get("strides"), i64Array(m, strides)}},
                    &local);
  };

  int64_t hops = shift / size, fraction = shift % size;
  ValueId head = permute(hops);
  ValueId tail = permute(hops + 1);
  ValueId tailPart = slice(tail, size - fraction, size);
  ValueId headPart = slice(head, 0, size - fraction);
  return at.value("stablehlo.concatenate", {tailPart, headPart}, type,
                  {{m.names.get("dimension"), m.attrs.integer(dim, i64Type(m))}}, &local);
}

}  // namespace

ValueId haloRightShift(OpPlacer &at, ChannelIds &channels, ValueId input, const TensorSharding &sharding,
                       const Mesh &mesh, const std::set<std::string> &manual, const std::vector<int64_t> &dims,
                       const std::vector<int64_t> &shifts) {
  Module &m = at.m;
  TypeId type = m.type(input);
  std::vector<int64_t> localShape = m.types.shape(type);
  for (size_t d = 0; d < localShape.size() && d < sharding.dims.size(); ++d)
    for (const AxisRef &a : sharding.dims[d].axes)
      if (manual.count(a.name)) localShape[d] /= a.size(mesh);

  std::vector<AttrId> axisNames;
  for (const MeshAxis &a : mesh.axes)
    if (manual.count(a.name)) axisNames.push_back(m.attrs.string(a.name));
  OpId mc = at.create("sdy.manual_computation", {input}, {type},
                      {{m.names.get("in_shardings"), m.attrs.shardingPerValue({sharding})},
                       {m.names.get("out_shardings"), m.attrs.shardingPerValue({sharding})},
                       {m.names.get("manual_axes"), m.attrs.array(axisNames)}},
                      nullptr, 1);
  RegionId region = m.createRegion();
  BlockId body = m.createBlock(region);
  ValueId local = m.addBlockArg(body, m.types.tensor(localShape, m.types.elementType(type)));
  m.attachRegions(mc, {region});

  OpPlacer inside{m, at.map, at.near, body, kNone};
  for (size_t k = 0; k < dims.size(); ++k)
    local = rightShift(inside, channels, local, dims[k], shifts[k], sharding, mesh, manual);
  inside.create("sdy.return", {local}, {});
  return m.result(mc);
}

}  // namespace autopart
