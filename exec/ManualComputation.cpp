// `sdy.manual_computation` in a single program. Its body is the program of
// one device over the manual axes: the executor slices each operand by its
// in_sharding, runs the body once per device of the mesh (each in its own
// thread and Interpreter, partition_id = the device id, collectives meeting
// at a CollectiveHub as in interpreter.run_parallel), and puts the result
// pieces together by the out_shardings:
//
//   sdy.mesh @mesh = <["x"=2]>
//   %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>]
//        out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
//     %s = "stablehlo.all_reduce"(%l) ... replica_groups = dense<[[0, 1]]> ...
//     sdy.return %s : tensor<2xf32>
//   } : (tensor<4xf32>) -> tensor<2xf32>
//   %a = [1, 2, 3, 4] -> device 0 gets [1, 2], device 1 [3, 4]; %r = [4, 6]
//
// Every device of the mesh runs the body, also along free (non-manual) axes,
// where it gets the same pieces: collectives written with global device ids
// then find all their members. A result dimension not split over an axis is
// taken from the devices at coordinate 0 of that axis.
#include <thread>

#include "exec/Collectives.h"
#include "exec/Interpreter.h"
#include "exec/Strided.h"
#include "ir/MeshLookup.h"
#include "ir/ValueSharding.h"

namespace autopart::exec {
namespace {

struct Grid {
  const Mesh *mesh = nullptr;
  std::vector<std::string> manual;

  bool isManual(const std::string &axis) const {
    for (const std::string &a : manual)
      if (a == axis) return true;
    return false;
  }
  // Row-major coordinates of the device at position `pos`.
  std::vector<int64_t> coords(int64_t pos) const {
    std::vector<int64_t> c(mesh->axes.size());
    for (size_t i = c.size(); i-- > 0;) {
      c[i] = pos % mesh->axes[i].size;
      pos /= mesh->axes[i].size;
    }
    return c;
  }
  int64_t deviceId(int64_t pos) const { return mesh->deviceIds.empty() ? pos : mesh->deviceIds[size_t(pos)]; }
  // The coordinate of a device along an axis or sub-axis ("x":(pre)size).
  int64_t coordOf(const std::vector<int64_t> &c, const AxisRef &a) const {
    int ai = mesh->axisIndex(a.name);
    int64_t v = c[size_t(ai)];
    if (!a.isSubAxis()) return v;
    int64_t minor = mesh->axes[size_t(ai)].size / (a.preSize * a.subSize);
    return (v / minor) % a.subSize;
  }
};

// Per dimension: which piece the device holds and how many pieces there are,
// counting the manual axes only (a free axis does not split the body's view).
struct Piece {
  std::vector<int64_t> index, count;
};

Piece pieceOf(const Grid &g, const TensorSharding &s, const std::vector<int64_t> &c) {
  Piece p{std::vector<int64_t>(s.dims.size(), 0), std::vector<int64_t>(s.dims.size(), 1)};
  for (size_t d = 0; d < s.dims.size(); ++d)
    for (const AxisRef &a : s.dims[d].axes) {
      if (!g.isManual(a.name)) continue;
      int64_t n = a.size(*g.mesh);
      p.index[d] = p.index[d] * n + g.coordOf(c, a);
      p.count[d] *= n;
    }
  return p;
}

// Whether the device holds the copy of its piece that is read back: its
// coordinate along every axis (or the part of an axis) the sharding does not
// split the tensor over is 0.
bool isWriter(const Grid &g, const TensorSharding &s, const std::vector<int64_t> &c) {
  for (size_t i = 0; i < g.mesh->axes.size(); ++i) {
    const MeshAxis &axis = g.mesh->axes[i];
    int64_t rest = c[i];
    if (g.isManual(axis.name))
      for (const DimSharding &d : s.dims)
        for (const AxisRef &a : d.axes) {
          if (a.name != axis.name) continue;
          if (!a.isSubAxis()) rest = 0;
          else {
            int64_t minor = axis.size / (a.preSize * a.subSize);
            rest -= ((c[i] / minor) % a.subSize) * minor;
          }
        }
    if (rest != 0) return false;
  }
  return true;
}

void checkPieces(Interpreter &I, OpId op, const char *what, uint32_t i, const std::vector<int64_t> &global,
                 const std::vector<int64_t> &local, const Piece &p) {
  if (global.size() != local.size() || global.size() != p.count.size())
    I.fail(op, std::string(what) + " #" + std::to_string(i) + ": sharding rank does not match the tensor");
  for (size_t d = 0; d < global.size(); ++d)
    if (local[d] * p.count[d] != global[d])
      I.fail(op, std::string(what) + " #" + std::to_string(i) + ": dimension " + std::to_string(d) + " of size " +
                     std::to_string(global[d]) + " is not " + std::to_string(p.count[d]) + " pieces of " +
                     std::to_string(local[d]));
}

TensorPtr slicePiece(const Tensor &t, const std::vector<int64_t> &local, const Piece &p) {
  std::vector<int64_t> st = stridesOf(t.shape);
  int64_t offset = 0;
  for (size_t d = 0; d < local.size(); ++d) offset += p.index[d] * local[d] * st[d];
  TensorPtr r = makeUninitialized(t.dtype, local);
  stridedCopy(r->bytes.data(), local, t.bytes.data(), offset, st, storageSize(t.dtype.storage));
  return r;
}

void placePiece(Tensor &out, const Tensor &piece, const Piece &p) {
  std::vector<int64_t> st = stridesOf(out.shape);
  int64_t offset = 0;
  for (size_t d = 0; d < piece.shape.size(); ++d) offset += p.index[d] * piece.shape[d] * st[d];
  size_t w = storageSize(out.dtype.storage);
  stridedCopy(out.bytes.data() + offset * int64_t(w), piece.shape, st, piece.bytes.data(), 0, stridesOf(piece.shape), w);
}

const TensorSharding *nthSharding(Interpreter &I, OpId op, std::string_view list, uint32_t i) {
  AttrId a = I.m.attr(op, list);
  if (a == kNoAttr || I.m.attrs.kind(a) != AttrKind::ShardingPerValue || i >= I.m.attrs.get(a).shardings.size())
    I.fail(op, "sdy.manual_computation without " + std::string(list) + " entry #" + std::to_string(i));
  return &I.m.attrs.get(a).shardings[i];
}

void manualComputationOp(Interpreter &I, OpId op) {
  if (I.hub || I.numPartitions * I.numReplicas != 1)
    I.fail(op, "sdy.manual_computation inside per-device execution is not supported");
  const Module &m = I.m;
  uint32_t nIn = m.numOperands(op), nOut = m.numResults(op);
  Grid g;
  g.manual = manualAxesOf(m, op);
  std::vector<const TensorSharding *> ins, outs;
  for (uint32_t i = 0; i < nIn; ++i) ins.push_back(nthSharding(I, op, "in_shardings", i));
  for (uint32_t i = 0; i < nOut; ++i) outs.push_back(nthSharding(I, op, "out_shardings", i));
  for (const TensorSharding *s : ins.empty() ? outs : ins) {
    g.mesh = shardingMesh(m, *s);
    break;
  }
  if (!g.mesh) I.fail(op, "sdy.manual_computation: no mesh found for its shardings");
  for (const TensorSharding *s : ins)
    if (const Mesh *o = shardingMesh(m, *s); !o || !(*o == *g.mesh))
      I.fail(op, "sdy.manual_computation over several meshes is not supported");
  for (const std::string &a : g.manual)
    if (g.mesh->axisIndex(a) < 0) I.fail(op, "manual axis '" + a + "' is not in the mesh");
  RegionId body = m.region(op, 0);
  const Region &reg = m.regions[body];
  if (reg.blocks.size() != 1 || m.blocks[reg.blocks[0]].args.size() != nIn)
    I.fail(op, "sdy.manual_computation body must have one block with an argument per operand");
  const std::vector<ValueId> &bodyArgs = m.blocks[reg.blocks[0]].args;

  int64_t n = g.mesh->numDevices();
  struct Device {
    std::vector<int64_t> coords;
    std::vector<TensorPtr> args, results;
    std::unique_ptr<Interpreter> in;
    std::string error;
    OpId errorOp = kNone;
  };
  std::vector<Device> devs(static_cast<size_t>(n));
  CollectiveHub hub;
  for (int64_t pos = 0; pos < n; ++pos) {
    Device &d = devs[size_t(pos)];
    d.coords = g.coords(pos);
    for (uint32_t i = 0; i < nIn; ++i) {
      const Tensor &t = I.in(op, i);
      std::vector<int64_t> local = m.types.shape(m.type(bodyArgs[i]));
      Piece p = pieceOf(g, *ins[i], d.coords);
      checkPieces(I, op, "operand", i, t.shape, local, p);
      d.args.push_back(slicePiece(t, local, p));
    }
    d.in = std::make_unique<Interpreter>(m);
    d.in->partitionId = g.deviceId(pos);
    d.in->numPartitions = n;
    d.in->hub = &hub;
    d.in->seed = I.seed;
    d.in->probes = I.probes;
  }
  std::vector<std::thread> threads;
  for (Device &d : devs)
    threads.emplace_back([&d, &hub, body] {
      try {
        d.results = d.in->runRegion(body, d.args);
      } catch (const ExecError &e) {
        d.error = e.what();
        d.errorOp = e.op;
        hub.abort();
      } catch (const std::exception &e) {
        d.error = e.what();
        hub.abort();
      }
    });
  for (std::thread &t : threads) t.join();
  for (Device &d : devs) {
    I.checksPassed += d.in->checksPassed;
    I.failures.insert(I.failures.end(), d.in->failures.begin(), d.in->failures.end());
  }
  for (Device &d : devs)
    if (!d.error.empty() && d.error != "another process failed")
      throw ExecError(d.errorOp == kNone ? op : d.errorOp, d.error);
  for (uint32_t i = 0; i < nOut; ++i) {
    TensorPtr r = I.newUninitializedResult(op, i);
    for (Device &d : devs) {
      if (d.results.size() != nOut) I.fail(op, "sdy.manual_computation body returned the wrong number of values");
      if (!isWriter(g, *outs[i], d.coords)) continue;
      Piece p = pieceOf(g, *outs[i], d.coords);
      checkPieces(I, op, "result", i, r->shape, d.results[i]->shape, p);
      placePiece(*r, *d.results[i], p);
    }
    I.setResult(op, i, r);
  }
}

KernelRegistration reg({"sdy.manual_computation"}, manualComputationOp);

}  // namespace
}  // namespace autopart::exec
