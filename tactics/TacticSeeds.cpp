#include "tactics/TacticSeeds.h"

#include <fnmatch.h>

#include "analysis/ArgumentRoles.h"

namespace autopart {

namespace {

bool axisUsed(const TensorSharding *s, const std::string &axis) {
  if (!s) return false;
  for (const AxisRef &a : s->allAxes())
    if (a.name == axis) return true;
  return false;
}

bool dimSharded(const TensorSharding *s, int64_t dim) {
  return s && size_t(dim) < s->dims.size() && !s->dims[size_t(dim)].axes.empty();
}

// `params['layer_0']['w1']` is matched as `params/layer_0/w1` too, so globs
// can use the path form the tactics file documents.
std::string pathForm(const std::string &name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '[' || c == ']' || c == '\'' || c == '"') {
      if (c == '[' && !out.empty() && out.back() != '/') out += '/';
      continue;
    }
    if (c == '.') c = '/';
    out += c;
  }
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

bool globMatches(const std::string &glob, const std::string &name) {
  return fnmatch(glob.c_str(), name.c_str(), 0) == 0 ||
         fnmatch(glob.c_str(), pathForm(name).c_str(), 0) == 0;
}

// Names that Megatron shards: see the header.
std::vector<bool> hiddenNames(const Module &m, OpId func, const NamedDimensions &nd,
                              const std::vector<ArgumentInfo> &infos) {
  FuncView f{m, func};
  std::span<const ValueId> args = f.args();
  std::vector<int> params(nd.names.size(), 0);
  std::vector<bool> touchesData(nd.names.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    int64_t rank = m.types.isTensor(m.type(args[i])) ? m.types.rank(m.type(args[i])) : 0;
    for (int64_t d = 0; d < rank; ++d) {
      NameId32 n = nd.nameOf(args[i], uint32_t(d));
      if (n == kNoDimName) continue;
      if (infos[i].role == ArgRole::Data)
        touchesData[n] = true;
      else
        ++params[n];
    }
  }
  std::vector<bool> hidden(nd.names.size(), false);
  for (size_t n = 0; n < nd.names.size(); ++n)
    hidden[n] = params[n] >= 2 && nd.names[n].isReduction() && !touchesData[n];
  return hidden;
}

}  // namespace

TacticSeeds seedTactic(const Module &m, OpId func, const Tactic &tactic, const Mesh &mesh,
                       const std::function<const TensorSharding *(ValueId)> &current,
                       const NamedDimensions *names) {
  TacticSeeds out;
  if (tactic.axes.empty()) return out;
  const std::string &axis = tactic.axes[0];
  int64_t axisSize = mesh.axisSize(axis);
  FuncView f{m, func};
  std::span<const ValueId> args = f.args();
  std::vector<ArgumentInfo> infos = classifyArguments(m, func);
  std::vector<bool> hidden;
  if (tactic.kind == TacticKind::Megatron) {
    if (!names) {
      out.notes.push_back("megatron needs the named-dimension analysis");
      return out;
    }
    hidden = hiddenNames(m, func, *names, infos);
  }
  auto trySeed = [&](size_t i, int64_t dim) {
    ValueId v = args[i];
    const std::vector<int64_t> &shape = m.types.shape(m.type(v));
    const TensorSharding *s = current(v);
    const std::string &name = infos[i].name;
    if (dim < 0 || size_t(dim) >= shape.size()) {
      out.notes.push_back(name + ": has no dimension " + std::to_string(dim));
      return;
    }
    if (axisUsed(s, axis)) {
      out.notes.push_back(name + ": axis '" + axis + "' already shards it");
      return;
    }
    if (shape[size_t(dim)] % axisSize != 0) {
      out.notes.push_back(name + ": dimension " + std::to_string(dim) + " (" +
                          std::to_string(shape[size_t(dim)]) + ") is not divisible by '" + axis +
                          "'=" + std::to_string(axisSize));
      return;
    }
    out.seeds.push_back({v, i, dim, axis});
  };
  // Batch parallelism shards the batch *name*: dimension 0 of the data
  // argument of highest rank (the inputs: images, token ids; most bytes on
  // ties). Other "data" arguments join when their dimension 0 carries the
  // same name (labels, masks), or has the batch's size and a name no
  // parameter shares (an input the step does not link to the batch, e.g.
  // an unused one). So a bias the role heuristic could not tell from data
  // is not split along its features, and a batch of 1 (no name: size-1
  // dimensions are not named) shards nothing.
  NameId32 batchName = kNoDimName;
  int64_t batchSize = 0;
  std::vector<bool> isParamArg(m.values.size(), false);
  if (tactic.kind == TacticKind::BatchParallel && names) {
    for (size_t i = 0; i < args.size(); ++i) isParamArg[args[i]] = infos[i].role != ArgRole::Data;
    int bestRank = 0;
    int64_t bestBytes = -1;
    size_t best = args.size();
    for (size_t i = 0; i < args.size(); ++i) {
      TypeId t = m.type(args[i]);
      if (infos[i].role != ArgRole::Data || !m.types.isTensor(t) || m.types.rank(t) == 0) continue;
      int rank = int(m.types.rank(t));
      if (rank > bestRank || (rank == bestRank && infos[i].bytes > bestBytes)) {
        bestRank = rank;
        bestBytes = infos[i].bytes;
        best = i;
      }
    }
    if (best == args.size()) {
      out.notes.push_back("no data argument to take the batch dimension from");
      return out;
    }
    batchName = names->nameOf(args[best], 0);
    batchSize = m.types.shape(m.type(args[best]))[0];
    if (batchName == kNoDimName) {
      out.notes.push_back(infos[best].name + ": batch dimension of size " +
                          std::to_string(m.types.shape(m.type(args[best]))[0]) + ", nothing to shard");
      return out;
    }
  }
  auto sameBatch = [&](ValueId v) {
    NameId32 n = names->nameOf(v, 0);
    if (n == batchName) return true;
    if (n == kNoDimName || m.types.shape(m.type(v))[0] != batchSize) return false;
    for (const DimRef &r : names->names[n].members)
      if (isParamArg[r.value]) return false;
    return true;
  };
  size_t notBatch = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    TypeId t = m.type(args[i]);
    if (!m.types.isTensor(t) || m.types.rank(t) == 0) continue;
    const std::vector<int64_t> &shape = m.types.shape(t);
    switch (tactic.kind) {
    case TacticKind::BatchParallel:
      if (infos[i].role != ArgRole::Data) break;
      if (batchName != kNoDimName && !sameBatch(args[i])) {
        ++notBatch;
        break;
      }
      trySeed(i, 0);
      break;
    case TacticKind::Fsdp: {
      if (infos[i].role == ArgRole::Data) break;
      const TensorSharding *s = current(args[i]);
      int64_t best = -1;
      for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] % axisSize == 0 && !dimSharded(s, int64_t(d)) &&
            (best < 0 || shape[d] > shape[size_t(best)]))
          best = int64_t(d);
      if (best < 0) {
        out.notes.push_back(infos[i].name + ": no free dimension divisible by '" + axis + "'=" +
                            std::to_string(axisSize) + "; kept replicated on it");
        break;
      }
      trySeed(i, best);
      break;
    }
    case TacticKind::Manual:
      for (const auto &[glob, dim] : tactic.inputs)
        if (globMatches(glob, infos[i].name)) {
          trySeed(i, dim);
          break;
        }
      break;
    case TacticKind::Megatron:
      // One hidden dimension per parameter: a square weight used both ways
      // carries the hidden name twice (a conflict), and only one can shard.
      for (size_t d = 0; d < shape.size(); ++d) {
        NameId32 n = names->nameOf(args[i], uint32_t(d));
        if (n != kNoDimName && hidden[n]) {
          trySeed(i, int64_t(d));
          break;
        }
      }
      break;
    case TacticKind::Auto:
      break;
    }
  }
  if (notBatch)
    out.notes.push_back(std::to_string(notBatch) +
                        " data argument(s) whose dimension 0 is not the batch left alone");
  return out;
}

}  // namespace autopart
