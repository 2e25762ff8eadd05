#include "tactics/TacticSeeds.h"

#include <fnmatch.h>

#include "tactics/TacticRegistry.h"

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

// Manual tactics: each argument whose name matches a glob, on the glob's
// dimension (the first matching glob wins).
void seedManual(const SeedContext &ctx, TacticSeeds &out) {
  for (size_t i = 0; i < ctx.args.size(); ++i) {
    if (!ctx.shardable(i)) continue;
    for (const auto &[glob, dim] : ctx.tactic.inputs)
      if (globMatches(glob, ctx.infos[i].name)) {
        ctx.trySeed(i, dim, out);
        break;
      }
  }
}

}  // namespace

bool SeedContext::shardable(size_t i) const {
  TypeId t = m.type(args[i]);
  return m.types.isTensor(t) && m.types.rank(t) > 0;
}

const std::vector<int64_t> &SeedContext::shape(size_t i) const { return m.types.shape(m.type(args[i])); }

void SeedContext::trySeed(size_t i, int64_t dim, TacticSeeds &out) const {
  ValueId v = args[i];
  const std::vector<int64_t> &dims = shape(i);
  const TensorSharding *s = current(v);
  const std::string &name = infos[i].name;
  if (dim < 0 || size_t(dim) >= dims.size()) {
    out.notes.push_back(name + ": has no dimension " + std::to_string(dim));
    return;
  }
  if (axisUsed(s, axis)) {
    out.notes.push_back(name + ": axis '" + axis + "' already shards it");
    return;
  }
  if (dims[size_t(dim)] % axisSize != 0) {
    out.notes.push_back(name + ": dimension " + std::to_string(dim) + " (" + std::to_string(dims[size_t(dim)]) +
                        ") is not divisible by '" + axis + "'=" + std::to_string(axisSize));
    return;
  }
  out.seeds.push_back({v, i, dim, axis});
}

void SeedContext::seedLargestFreeDim(size_t i, TacticSeeds &out) const {
  const std::vector<int64_t> &dims = shape(i);
  const TensorSharding *s = current(args[i]);
  int64_t best = -1;
  for (size_t d = 0; d < dims.size(); ++d)
    if (dims[d] % axisSize == 0 && !dimSharded(s, int64_t(d)) && (best < 0 || dims[d] > dims[size_t(best)]))
      best = int64_t(d);
  if (best < 0) {
    out.notes.push_back(infos[i].name + ": no free dimension divisible by '" + axis + "'=" +
                        std::to_string(axisSize) + "; kept replicated on it");
    return;
  }
  trySeed(i, best, out);
}

TacticSeeds seedTactic(const Module &m, OpId func, const Tactic &tactic, const Mesh &mesh,
                       const CurrentSharding &current, const NamedDimensions *names) {
  TacticSeeds out;
  if (tactic.axes.empty() || tactic.kind == TacticKind::Auto) return out;
  const std::string &axis = tactic.axes[0];
  SeedContext ctx{m,     func, tactic, mesh, current, names, FuncView{m, func}.args(), classifyArguments(m, func),
                  axis, mesh.axisSize(axis)};
  if (tactic.kind == TacticKind::Manual) {
    seedManual(ctx, out);
    return out;
  }
  const TacticInfo *info = findTactic(tactic.name);
  if (!info) {
    out.notes.push_back("no tactic '" + tactic.name + "' is registered (known: " + registeredTacticNames() + ")");
    return out;
  }
  info->seed(ctx, out);
  return out;
}

}  // namespace autopart
