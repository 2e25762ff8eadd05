#include "exec/Collectives.h"

#include <algorithm>
#include <thread>

#include "exec/Reduce.h"
#include "exec/Strided.h"

namespace autopart::exec {

std::vector<std::vector<TensorPtr>> CollectiveHub::exchange(const std::string &key, const std::vector<int64_t> &group,
                                                            int64_t me, std::vector<TensorPtr> mine) {
  std::unique_lock<std::mutex> lock(mu_);
  Slot &slot = slots_[key];
  slot.got[me] = std::move(mine);
  cv_.notify_all();
  cv_.wait(lock, [&] { return aborted_ || slot.got.size() == group.size(); });
  if (aborted_) throw std::runtime_error("another process failed");
  std::vector<std::vector<TensorPtr>> out;
  for (int64_t d : group) out.push_back(slot.got.at(d));
  if (++slot.readers == group.size()) slots_.erase(key);
  return out;
}

void CollectiveHub::send(int64_t channel, std::vector<TensorPtr> values) {
  std::lock_guard<std::mutex> lock(mu_);
  channels_[channel].push_back(std::move(values));
  cv_.notify_all();
}

std::vector<TensorPtr> CollectiveHub::recv(int64_t channel) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return aborted_ || !channels_[channel].empty(); });
  if (aborted_) throw std::runtime_error("another process failed");
  std::vector<std::vector<TensorPtr>> &q = channels_[channel];
  std::vector<TensorPtr> v = std::move(q.front());
  q.erase(q.begin());
  return v;
}

bool CollectiveHub::poll(int64_t channel, std::vector<TensorPtr> &out) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::vector<TensorPtr>> &q = channels_[channel];
  if (q.empty()) return false;
  out = std::move(q.front());
  q.erase(q.begin());
  return true;
}

void CollectiveHub::abort() {
  std::lock_guard<std::mutex> lock(mu_);
  aborted_ = true;
  cv_.notify_all();
}

namespace {

enum class Mode { CrossReplica, CrossPartition, CrossReplicaAndPartition, Flattened };

int64_t channelId(Interpreter &I, OpId op) {
  AttrId ch = I.m.attr(op, "channel_handle");
  AttrId h = I.m.attrs.field(ch, "handle");
  return h == kNoAttr ? 0 : I.m.attrs.get(h).intValue;
}

// Rows of a 2-D integer attribute, -1 entries (padding) dropped.
std::vector<std::vector<int64_t>> rows(Interpreter &I, OpId op, std::string_view name) {
  AttrId a = I.m.attr(op, name);
  std::vector<std::vector<int64_t>> out;
  if (a == kNoAttr) return out;
  std::vector<int64_t> flat = I.ints(op, name);
  const std::vector<int64_t> &shape = I.m.types.shape(I.m.attrs.get(a).type);
  int64_t width = shape.size() == 2 ? shape[1] : int64_t(flat.size());
  for (size_t i = 0; width > 0 && i < flat.size(); i += size_t(width)) {
    std::vector<int64_t> row;
    for (int64_t j = 0; j < width; ++j)
      if (flat[i + size_t(j)] >= 0) row.push_back(flat[i + size_t(j)]);
    out.push_back(row);
  }
  return out;
}

std::vector<std::vector<int64_t>> processGroups(Interpreter &I, const std::vector<std::vector<int64_t>> &groupsIn, Mode mode) {
  int64_t R = I.numReplicas, P = I.numPartitions;
  std::vector<std::vector<int64_t>> groups = groupsIn, out;
  // The spec's constraints: ids unique and below the replica, partition or
  // device count. A group naming a process that does not exist would wait
  // for it forever.
  int64_t limit = mode == Mode::CrossPartition ? P : mode == Mode::Flattened ? R * P : R;
  std::vector<bool> seen(size_t(std::max<int64_t>(limit, 0)), false);
  for (const std::vector<int64_t> &g : groups)
    for (int64_t id : g) {
      if (id < 0 || id >= limit) throw std::runtime_error("replica_groups id " + std::to_string(id) + " is not below " + std::to_string(limit));
      if (seen[size_t(id)]) throw std::runtime_error("replica_groups id " + std::to_string(id) + " repeats");
      seen[size_t(id)] = true;
    }
  if (groups.empty()) {
    std::vector<int64_t> all;
    for (int64_t i = 0; i < (mode == Mode::CrossPartition ? P : R); ++i) all.push_back(i);
    groups.push_back(all);
  }
  switch (mode) {
    case Mode::CrossReplica:
    case Mode::CrossPartition: {
      // The groups list replicas (partitions), repeated for each partition
      // (replica) in turn.
      bool overReplicas = mode == Mode::CrossReplica;
      for (int64_t other = 0; other < (overReplicas ? P : R); ++other)
        for (auto &g : groups) {
          std::vector<int64_t> d;
          for (int64_t i : g) d.push_back(overReplicas ? i * P + other : other * P + i);
          out.push_back(d);
        }
      break;
    }
    case Mode::CrossReplicaAndPartition:
      for (auto &g : groups) {
        std::vector<int64_t> d;
        for (int64_t p = 0; p < P; ++p)
          for (int64_t r : g) d.push_back(r * P + p);
        out.push_back(d);
      }
      break;
    case Mode::Flattened:
      out = groups;
      break;
  }
  return out;
}

int64_t me(Interpreter &I) { return I.replicaId * I.numPartitions + I.partitionId; }

std::vector<int64_t> myGroup(Interpreter &I, const std::vector<std::vector<int64_t>> &groups) {
  for (auto &g : groups)
    if (std::count(g.begin(), g.end(), me(I))) return g;
  return {};
}

// all_reduce / all_gather / reduce_scatter: the spec's mode selection.
std::vector<int64_t> reductionGroup(Interpreter &I, OpId op) {
  int64_t ch = channelId(I, op);
  bool global = I.m.hasAttr(op, "use_global_device_ids");
  Mode mode = ch <= 0 ? Mode::CrossReplica : global ? Mode::Flattened : Mode::CrossReplicaAndPartition;
  return myGroup(I, processGroups(I, rows(I, op, "replica_groups"), mode));
}

std::vector<std::vector<TensorPtr>> meet(Interpreter &I, OpId op, const std::vector<int64_t> &group,
                                         std::vector<TensorPtr> mine) {
  if (I.invocations.size() <= op) I.invocations.resize(I.m.ops.size(), 0);
  uint32_t n = I.invocations[op]++;
  if (group.size() <= 1) return {mine};
  if (!I.hub) I.fail(op, "collective across several processes outside interpreter.run_parallel");
  std::string key = std::to_string(op) + "/" + std::to_string(n) + "/" + std::to_string(group[0]);
  return I.hub->exchange(key, group, me(I), std::move(mine));
}

int64_t indexIn(const std::vector<int64_t> &group, int64_t d) {
  return std::find(group.begin(), group.end(), d) - group.begin();
}

TensorPtr combine(Interpreter &I, OpId op, const std::vector<TensorPtr> &parts) {
  RegionId body = I.m.region(op, 0);
  BinaryKind kind = binaryKind(I.simpleBinaryRegion(body));
  TensorPtr acc = std::make_shared<Tensor>(*parts[0]);
  int64_t n = acc->numElements();
  for (size_t j = 1; j < parts.size(); ++j) {
    if (fastReducible(kind, acc->dtype)) {
      visitStorage(acc->dtype.storage, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T *a = acc->data<T>();
        const T *b = parts[j]->data<T>();
        for (int64_t i = 0; i < n; ++i) a[i] = applyBinary(kind, a[i], b[i], acc->dtype.isBool());
      });
    } else {
      for (int64_t i = 0; i < n; ++i)
        storeScalar(*acc, i, *I.runRegion(body, {scalarOf(*acc, i), scalarOf(*parts[j], i)}).at(0));
    }
  }
  normalize(*acc);
  return acc;
}

TensorPtr sliceAlong(const Tensor &t, int64_t dim, int64_t start, int64_t size) {
  std::vector<int64_t> shape = t.shape, ts = stridesOf(t.shape);
  shape[dim] = size;
  TensorPtr r = makeTensor(t.dtype, shape);
  stridedCopy(r->bytes.data(), shape, t.bytes.data(), start * ts[dim], ts, storageSize(t.dtype.storage));
  return r;
}

void concatInto(Tensor &r, int64_t dim, const std::vector<TensorPtr> &parts) {
  std::vector<int64_t> rs = stridesOf(r.shape);
  size_t w = storageSize(r.dtype.storage);
  int64_t at = 0;
  for (const TensorPtr &p : parts) {
    stridedCopy(r.bytes.data() + at * rs[dim] * int64_t(w), p->shape, rs, p->bytes.data(), 0, stridesOf(p->shape), w);
    at += p->shape[dim];
  }
}

std::vector<TensorPtr> allOperands(Interpreter &I, OpId op) {
  std::vector<TensorPtr> v;
  for (uint32_t i = 0; i < I.m.numOperands(op); ++i) v.push_back(I.operand(op, i));
  return v;
}

void allReduceOp(Interpreter &I, OpId op) {
  auto all = meet(I, op, reductionGroup(I, op), allOperands(I, op));
  for (uint32_t j = 0; j < I.m.numResults(op); ++j) {
    std::vector<TensorPtr> parts;
    for (auto &c : all) parts.push_back(c.at(j));
    I.setResult(op, j, combine(I, op, parts));
  }
}

void allGatherOp(Interpreter &I, OpId op) {
  int64_t dim = I.intAttr(op, "all_gather_dim");
  std::vector<int64_t> group = reductionGroup(I, op);
  for (uint32_t j = 0; j < I.m.numResults(op); ++j) {
    std::vector<int64_t> want = I.in(op, j).shape;
    if (dim < 0 || dim >= int64_t(want.size()) ||
        (want[size_t(dim)] *= std::max<int64_t>(1, int64_t(group.size())), want != I.m.types.shape(I.resultType(op, j))))
      I.fail(op, "all_gather_dim and the group do not fit the operand and result shapes");
  }
  auto all = meet(I, op, group, allOperands(I, op));
  for (uint32_t j = 0; j < I.m.numResults(op); ++j) {
    std::vector<TensorPtr> parts;
    for (auto &c : all) parts.push_back(c.at(j));
    TensorPtr r = I.newResult(op, j);
    concatInto(*r, dim, parts);
    I.setResult(op, j, r);
  }
}

void reduceScatterOp(Interpreter &I, OpId op) {
  int64_t dim = I.intAttr(op, "scatter_dimension");
  std::vector<int64_t> group = reductionGroup(I, op);
  std::vector<int64_t> want = I.in(op, 0).shape;
  if (dim < 0 || dim >= int64_t(want.size()) || want[size_t(dim)] % std::max<int64_t>(1, int64_t(group.size())) ||
      (want[size_t(dim)] /= std::max<int64_t>(1, int64_t(group.size())), want != I.m.types.shape(I.resultType(op))))
    I.fail(op, "scatter_dimension and the group do not fit the operand and result shapes");
  auto all = meet(I, op, group, allOperands(I, op));
  std::vector<TensorPtr> parts;
  for (auto &c : all) parts.push_back(c.at(0));
  TensorPtr sum = combine(I, op, parts);
  int64_t size = I.m.types.shape(I.resultType(op))[size_t(dim)];
  int64_t idx = group.empty() ? 0 : indexIn(group, me(I));
  I.setResult(op, 0, sliceAlong(*sum, dim, idx * size, size));
}

Mode replicaOrPartition(Interpreter &I, OpId op) {
  return channelId(I, op) <= 0 ? Mode::CrossReplica : Mode::CrossPartition;
}

void allToAllOp(Interpreter &I, OpId op) {
  int64_t splitDim = I.intAttr(op, "split_dimension"), concatDim = I.intAttr(op, "concat_dimension"),
          count = I.intAttr(op, "split_count");
  std::vector<int64_t> group = myGroup(I, processGroups(I, rows(I, op, "replica_groups"), replicaOrPartition(I, op)));
  for (uint32_t j = 0; j < I.m.numResults(op); ++j) {
    const Tensor &x = I.in(op, j);
    std::vector<int64_t> want = x.shape;
    bool fits = count > 0 && splitDim >= 0 && splitDim < x.rank() && concatDim >= 0 && concatDim < x.rank() &&
                x.shape[size_t(splitDim)] % count == 0 && (group.empty() || int64_t(group.size()) == count);
    if (fits) want[size_t(splitDim)] /= count, want[size_t(concatDim)] *= count;
    if (!fits || want != I.m.types.shape(I.resultType(op, j)))
      I.fail(op, "split/concat dimensions, split_count and the group do not fit the operand and result shapes");
  }
  auto all = meet(I, op, group, allOperands(I, op));
  int64_t idx = group.empty() ? 0 : indexIn(group, me(I));
  for (uint32_t j = 0; j < I.m.numResults(op); ++j) {
    std::vector<TensorPtr> parts;
    for (auto &c : all) {
      const Tensor &x = *c.at(j);
      int64_t size = x.shape[splitDim] / count;
      parts.push_back(sliceAlong(x, splitDim, idx * size, size));
    }
    TensorPtr r = I.newResult(op, j);
    concatInto(*r, concatDim, parts);
    I.setResult(op, j, r);
  }
}

void collectivePermuteOp(Interpreter &I, OpId op) {
  Mode mode = replicaOrPartition(I, op);
  // Every process of my partition (cross replica) or replica exchanges.
  std::vector<int64_t> group;
  int64_t self = mode == Mode::CrossReplica ? I.replicaId : I.partitionId;
  for (int64_t i = 0; i < (mode == Mode::CrossReplica ? I.numReplicas : I.numPartitions); ++i)
    group.push_back(mode == Mode::CrossReplica ? i * I.numPartitions + I.partitionId : I.replicaId * I.numPartitions + i);
  auto all = meet(I, op, group, {I.operand(op, 0)});
  TensorPtr r = I.newResult(op);
  for (auto &pair : rows(I, op, "source_target_pairs"))
    if (pair.size() == 2 && pair[1] == self && size_t(pair[0]) < all.size()) r = all[size_t(pair[0])].at(0);
  I.setResult(op, 0, r);
}

// With has_dynamic_root the last operand holds, per data operand, the index
// in the process group of the process whose value everyone receives.
void collectiveBroadcastOp(Interpreter &I, OpId op) {
  std::vector<int64_t> group = myGroup(I, processGroups(I, rows(I, op, "replica_groups"), replicaOrPartition(I, op)));
  uint32_t n = I.m.numResults(op);
  if (group.empty()) {
    if (I.invocations.size() <= op) I.invocations.resize(I.m.ops.size(), 0);
    ++I.invocations[op];
    for (uint32_t j = 0; j < n; ++j) I.setResult(op, j, I.newResult(op, j));
    return;
  }
  std::vector<int64_t> roots(n, 0);
  if (I.m.hasAttr(op, "has_dynamic_root")) {
    std::vector<int64_t> r = tensorInts(I.in(op, n));
    for (uint32_t j = 0; j < n; ++j) roots[j] = r.size() == n ? r[j] : r.at(0);
  }
  std::vector<TensorPtr> mine;
  for (uint32_t j = 0; j < n; ++j) mine.push_back(I.operand(op, j));
  auto all = meet(I, op, group, mine);
  for (uint32_t j = 0; j < n; ++j) {
    if (roots[j] < 0 || size_t(roots[j]) >= all.size()) I.fail(op, "dynamic root outside the process group");
    I.setResult(op, j, all[size_t(roots[j])].at(j));
  }
}

// collective_reduce: the group's reduction lands on its root process (the
// first, or has_dynamic_root's index per data operand); the others get zeros.
void collectiveReduceOp(Interpreter &I, OpId op) {
  std::vector<int64_t> group = myGroup(I, processGroups(I, rows(I, op, "replica_groups"), replicaOrPartition(I, op)));
  uint32_t n = I.m.numResults(op);
  std::vector<int64_t> roots(n, 0);
  if (I.m.hasAttr(op, "has_dynamic_root")) {
    std::vector<int64_t> r = tensorInts(I.in(op, n));
    for (uint32_t j = 0; j < n; ++j) roots[j] = r.size() == n ? r[j] : r.at(0);
  }
  std::vector<TensorPtr> mine;
  for (uint32_t j = 0; j < n; ++j) mine.push_back(I.operand(op, j));
  auto all = group.empty() ? std::vector<std::vector<TensorPtr>>{} : meet(I, op, group, mine);
  for (uint32_t j = 0; j < n; ++j) {
    if (group.empty() || size_t(roots[j]) >= group.size() || group[size_t(roots[j])] != me(I)) {
      I.setResult(op, j, I.newResult(op, j));
      continue;
    }
    std::vector<TensorPtr> parts;
    for (auto &c : all) parts.push_back(c.at(j));
    I.setResult(op, j, combine(I, op, parts));
  }
}

void sendOp(Interpreter &I, OpId op) {
  if (!I.hub) I.fail(op, "stablehlo.send outside interpreter.run_parallel");
  std::vector<TensorPtr> values;
  for (uint32_t i = 0; i + 1 < I.m.numOperands(op); ++i) values.push_back(I.operand(op, i));
  I.hub->send(channelId(I, op), std::move(values));
  I.setResult(op, 0, makeToken());
}

void recvOp(Interpreter &I, OpId op) {
  if (!I.hub) I.fail(op, "stablehlo.recv outside interpreter.run_parallel");
  std::vector<TensorPtr> values = I.hub->recv(channelId(I, op));
  if (values.size() + 1 != I.m.numResults(op)) I.fail(op, "recv of a different number of values than sent");
  for (uint32_t i = 0; i < values.size(); ++i) I.setResult(op, i, values[i]);
  I.setResult(op, uint32_t(values.size()), makeToken());
}

void infeedOp(Interpreter &I, OpId op) {
  std::vector<TensorPtr> values;
  if (!I.hub || !I.hub->poll(CollectiveHub::kInfeed, values)) I.fail(op, "stablehlo.infeed with an empty infeed queue");
  if (values.size() + 1 != I.m.numResults(op)) I.fail(op, "infeed queue entry has a different number of values");
  for (uint32_t i = 0; i < values.size(); ++i) I.setResult(op, i, values[i]);
  I.setResult(op, uint32_t(values.size()), makeToken());
}

// The values leave the program; nothing here reads them.
void outfeedOp(Interpreter &I, OpId op) { I.setResult(op, 0, makeToken()); }

void idOp(Interpreter &I, OpId op, int64_t v) {
  TensorPtr r = I.newResult(op);
  visitStorage(r->dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsComplex<T>) r->data<T>()[0] = T(v);
  });
  I.setResult(op, 0, r);
}
void replicaIdOp(Interpreter &I, OpId op) { idOp(I, op, I.replicaId); }
void partitionIdOp(Interpreter &I, OpId op) { idOp(I, op, I.partitionId); }

void runParallelOp(Interpreter &I, OpId op) {
  AttrId programs = I.m.attr(op, "programs");
  if (programs == kNoAttr) I.fail(op, "run_parallel without programs");
  const std::vector<AttrId> &replicas = I.m.attrs.get(programs).elems;
  int64_t R = int64_t(replicas.size()), P = R ? int64_t(I.m.attrs.get(replicas[0]).elems.size()) : 0;
  struct Proc {
    OpId func;
    std::vector<TensorPtr> args, results;
    std::unique_ptr<Interpreter> in;
    std::string error;
    OpId errorOp = kNone;
  };
  std::vector<Proc> procs(size_t(R * P));
  CollectiveHub hub;
  // `infeed = [@q0, @q1]`: the functions' results, in order, are what the
  // processes' stablehlo.infeed ops read.
  if (AttrId feeds = I.m.attr(op, "infeed"); feeds != kNoAttr)
    for (AttrId f : I.m.attrs.get(feeds).elems) {
      OpId fn = I.m.lookupFunc(f);
      if (fn == kNone) I.fail(op, "run_parallel names an unknown infeed function");
      hub.send(CollectiveHub::kInfeed, I.callFunction(fn, {}));
    }
  uint32_t next = 0;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t p = 0; p < P; ++p) {
      Proc &pr = procs[size_t(r * P + p)];
      pr.func = I.m.lookupFunc(I.m.attrs.get(replicas[size_t(r)]).elems.at(size_t(p)));
      if (pr.func == kNone) I.fail(op, "run_parallel names an unknown function");
      for (size_t a = 0; a < FuncView{I.m, pr.func}.args().size(); ++a) pr.args.push_back(I.operand(op, next++));
      pr.in = std::make_unique<Interpreter>(I.m);
      pr.in->replicaId = r, pr.in->partitionId = p, pr.in->numReplicas = R, pr.in->numPartitions = P;
      pr.in->hub = &hub;
    }
  std::vector<std::thread> threads;
  for (Proc &pr : procs)
    threads.emplace_back([&pr, &hub] {
      try {
        pr.results = pr.in->callFunction(pr.func, pr.args);
      } catch (const ExecError &e) {
        pr.error = e.what();
        pr.errorOp = e.op;
        hub.abort();
      } catch (const std::exception &e) {
        pr.error = e.what();
        hub.abort();
      }
    });
  for (std::thread &t : threads) t.join();
  uint32_t out = 0;
  for (Proc &pr : procs) {
    I.checksPassed += pr.in->checksPassed;
    I.failures.insert(I.failures.end(), pr.in->failures.begin(), pr.in->failures.end());
  }
  for (Proc &pr : procs)
    if (!pr.error.empty() && pr.error != "another process failed")
      throw ExecError(pr.errorOp == kNone ? op : pr.errorOp, pr.error);
  for (Proc &pr : procs)
    for (TensorPtr &t : pr.results) I.setResult(op, out++, t);
}

KernelRegistration regs[] = {
    {{"interpreter.run_parallel"}, runParallelOp},
    {{"stablehlo.all_reduce"}, allReduceOp},
    {{"stablehlo.all_gather"}, allGatherOp},
    {{"stablehlo.reduce_scatter"}, reduceScatterOp},
    {{"stablehlo.all_to_all"}, allToAllOp},
    {{"stablehlo.collective_permute"}, collectivePermuteOp},
    {{"stablehlo.collective_broadcast"}, collectiveBroadcastOp},
    {{"stablehlo.collective_reduce"}, collectiveReduceOp},
    {{"stablehlo.send"}, sendOp},
    {{"stablehlo.infeed"}, infeedOp},
    {{"stablehlo.outfeed"}, outfeedOp},
    {{"stablehlo.recv"}, recvOp},
    {{"stablehlo.replica_id"}, replicaIdOp},
    {{"stablehlo.partition_id"}, partitionIdOp},
};

}  // namespace
}  // namespace autopart::exec
