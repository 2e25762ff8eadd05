#include "xla/ManualAllReduce.h"

#include "ir/CollectiveAxes.h"
#include "ir/DeviceGroups.h"

namespace autopart {

namespace {

std::string_view combiner(const std::string &reduction) {
  if (reduction == "max") return "stablehlo.maximum";
  if (reduction == "min") return "stablehlo.minimum";
  return "stablehlo.add";
}

}  // namespace

OpId buildManualAllReduce(Module &m, OpId allReduce, const TensorSharding &in, const Mesh &mesh,
                          Diagnostics &diags) {
  AttrId axesAttr = m.attr(allReduce, "reduction_axes");
  AttrId out = m.attr(allReduce, "out_sharding");
  std::optional<CollectiveAxes> axes;
  if (axesAttr != kNoAttr && m.attrs.kind(axesAttr) == AttrKind::Opaque)
    axes = parseCollectiveAxes(m.attrs.get(axesAttr).text);
  if (!axes || !axes->isFlat() || out == kNoAttr || m.attrs.kind(out) != AttrKind::Sharding) {
    diags.error(m, allReduce, "sdy.all_reduce without a list of reduction axes and an out sharding");
    return kNone;
  }
  ValueId operand = m.operand(allReduce, 0);
  TypeId global = m.type(operand);
  if (!m.types.isTensor(global)) {
    diags.error(m, allReduce, "sdy.all_reduce of a value that is no tensor");
    return kNone;
  }
  const std::vector<int64_t> &shape = m.types.shape(global);
  for (size_t d = 0; d < in.dims.size() && d < shape.size(); ++d) {
    int64_t shards = 1;
    for (const AxisRef &a : in.dims[d].axes) shards *= a.size(mesh);
    if (shape[d] % shards != 0) {
      diags.error(m, allReduce,
                  "sdy.all_reduce of unreduced axes on a dimension of size " + std::to_string(shape[d]) +
                      " that " + std::to_string(shards) + " shards do not divide");
      return kNone;
    }
  }
  TypeId element = m.types.elementType(global);
  TypeId local = m.types.tensor(in.localShape(shape, mesh), element);

  std::vector<AttrId> manual;
  for (const MeshAxis &a : mesh.axes) manual.push_back(m.attrs.string(a.name));
  OpId mc = m.createOp("sdy.manual_computation", {operand}, {m.type(m.result(allReduce))},
                       {{m.names.get("in_shardings"), m.attrs.shardingPerValue({in})},
                        {m.names.get("out_shardings"), m.attrs.shardingPerValue({*m.attrs.get(out).sharding})},
                        {m.names.get("manual_axes"), m.attrs.array(manual)}},
                       1);
  m.ops[mc].loc = m.ops[allReduce].loc;
  m.ops[mc].srcOffset = m.ops[allReduce].srcOffset;
  BlockId body = m.createBlock(m.region(mc, 0));
  ValueId arg = m.addBlockArg(body, local);

  std::vector<std::vector<int64_t>> groups = deviceGroups(mesh, axes->axes);
  // A device-to-device channel (type 1), as XLA numbers them: after the last.
  AttrId channel = m.attrs.dialectStruct(
      "stablehlo.channel_handle", {{m.names.get("handle"), m.attrs.integer(lastChannelHandle(m) + 1)},
                                   {m.names.get("type"), m.attrs.integer(1)}});
  OpId reduce = m.createOp("stablehlo.all_reduce", {arg}, {local},
                           {{m.names.get("channel_handle"), channel},
                            {m.names.get("replica_groups"), deviceGroupsAttr(m, groups)},
                            {m.names.get("use_global_device_ids"), m.attrs.unit()}},
                           1);
  m.insertOp(body, reduce);
  TypeId scalar = m.types.tensor({}, element);
  BlockId combine = m.createBlock(m.region(reduce, 0));
  ValueId lhs = m.addBlockArg(combine, scalar), rhs = m.addBlockArg(combine, scalar);
  OpId op = m.createOp(combiner(axes->reduction), {lhs, rhs}, {scalar});
  m.insertOp(combine, op);
  m.insertOp(combine, m.createOp("stablehlo.return", {m.result(op)}, {}));
  m.insertOp(body, m.createOp("sdy.return", {m.result(reduce)}, {}));

  m.insertOp(m.ops[allReduce].parent, mc, allReduce);
  m.replaceAllUsesWith(m.result(allReduce), m.result(mc), m.enclosingFunc(allReduce));
  m.eraseOp(allReduce);
  return mc;
}

}  // namespace autopart
