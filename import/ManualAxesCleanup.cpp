#include "import/ManualAxesCleanup.h"

#include <algorithm>
#include <string>

#include "ir/MeshLookup.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

std::vector<TensorSharding> shardingList(const Module &m, OpId op, std::string_view name) {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::ShardingPerValue) return {};
  return m.attrs.get(a).shardings;
}

// The (pre, size) pieces of `axis` (size `n`) that no dimension or
// unreduced axis of `s` uses, merged into maximal runs.
std::vector<AxisRef> unusedPieces(const TensorSharding &s, const std::string &axis, int64_t n) {
  std::vector<std::pair<int64_t, int64_t>> used;  // [begin, end) on the multiplicative scale
  auto note = [&](const AxisRef &a) {
    if (a.name != axis) return;
    if (a.isSubAxis()) used.push_back({a.preSize, a.preSize * a.subSize});
    else used.push_back({1, n});
  };
  for (const DimSharding &d : s.dims)
    for (const AxisRef &a : d.axes) note(a);
  for (const AxisRef &a : s.unreduced) note(a);
  std::sort(used.begin(), used.end());
  std::vector<AxisRef> gaps;
  int64_t cur = 1;
  auto gap = [&](int64_t begin, int64_t end) {
    if (begin == 1 && end == n) gaps.push_back({axis});
    else gaps.push_back({axis, begin, end / begin});
  };
  for (auto [begin, end] : used) {
    if (begin > cur) gap(cur, begin);
    cur = std::max(cur, end);
  }
  if (cur < n) gap(cur, n);
  return gaps;
}

// Orders axes as the mesh declares them, sub-axes of one axis by position.
void sortAxes(std::vector<AxisRef> &axes, const Mesh &mesh) {
  std::stable_sort(axes.begin(), axes.end(), [&](const AxisRef &a, const AxisRef &b) {
    int ia = mesh.axisIndex(a.name), ib = mesh.axisIndex(b.name);
    if (ia != ib) return ia < ib;
    return a.preSize < b.preSize;
  });
}

class Cleanup {
public:
  Cleanup(Module &m, Diagnostics &diags) : m_(m), diags_(diags) {}

  bool run() {
    bool ok = true;
    if (m_.top != kNone)
      m_.walk(m_.top, [&](OpId op) {
        if (m_.isa(op, "sdy.manual_computation")) ok = visit(op) && ok;
      });
    return ok;
  }

private:
  Module &m_;
  Diagnostics &diags_;

  bool visit(OpId op) {
    std::vector<TensorSharding> in = shardingList(m_, op, "in_shardings");
    std::vector<TensorSharding> out = shardingList(m_, op, "out_shardings");
    std::vector<std::string> manual;
    if (AttrId a = m_.attr(op, "manual_axes"); a != kNoAttr)
      for (AttrId e : m_.attrs.get(a).elems) manual.emplace_back(m_.attrs.stringValue(e));
    if (in.empty() && out.empty()) {
      BlockId body = m_.regions[m_.region(op, 0)].blocks.empty() ? kNone : m_.regions[m_.region(op, 0)].blocks.front();
      if (!manual.empty() && body != kNone && m_.blocks[body].ops.size() > 1) {
        diags_.error(m_, op,
                     "'sdy.manual_computation' op has manual_axes when there are no in/out shardings and the body "
                     "is not empty");
        return false;
      }
      return true;
    }
    // The mesh every sharding not on the empty mesh shares.
    const TensorSharding *common = nullptr;
    const Mesh *mesh = nullptr;
    for (const std::vector<TensorSharding> *list : {&in, &out})
      for (const TensorSharding &s : *list) {
        const Mesh *sm = shardingMesh(m_, s);
        if (!common && sm && !sm->axes.empty()) {
          common = &s;
          mesh = sm;
        }
      }
    if (!mesh) return true;
    std::string meshName = common->meshName;
    std::optional<Mesh> inlineMesh = common->inlineMesh;
    const Mesh commonMesh = *mesh;

    std::vector<std::string> sorted = manual;
    std::stable_sort(sorted.begin(), sorted.end(), [&](const std::string &a, const std::string &b) {
      return commonMesh.axisIndex(a) < commonMesh.axisIndex(b);
    });
    if (sorted != manual) {
      std::vector<AttrId> names;
      for (const std::string &a : sorted) names.push_back(m_.attrs.string(a));
      m_.setAttr(op, "manual_axes", m_.attrs.array(names));
    }

    auto fix = [&](std::vector<TensorSharding> &list, auto typeOf) {
      bool changed = false;
      for (size_t i = 0; i < list.size(); ++i) {
        if (!m_.types.isTensor(typeOf(i))) continue;
        TensorSharding &s = list[i];
        std::vector<AxisRef> replicated;
        for (const AxisRef &a : s.replicated)
          if (std::find(sorted.begin(), sorted.end(), a.name) == sorted.end()) replicated.push_back(a);
        for (const std::string &axis : sorted) {
          std::vector<AxisRef> gaps = unusedPieces(s, axis, commonMesh.axisSize(axis));
          replicated.insert(replicated.end(), gaps.begin(), gaps.end());
        }
        sortAxes(replicated, commonMesh);
        if (replicated == s.replicated) continue;
        // A rewritten sharding names the computation's common mesh (an
        // empty or inlined copy of it included).
        s.meshName = meshName;
        s.inlineMesh = inlineMesh;
        s.replicated = std::move(replicated);
        changed = true;
      }
      return changed;
    };
    if (fix(in, [&](size_t i) { return m_.type(m_.operand(op, uint32_t(i))); }))
      m_.setAttr(op, "in_shardings", m_.attrs.shardingPerValue(std::move(in)));
    if (fix(out, [&](size_t i) { return m_.type(m_.result(op, uint32_t(i))); }))
      m_.setAttr(op, "out_shardings", m_.attrs.shardingPerValue(std::move(out)));
    return true;
  }
};

PassRegistration reg("sdy-manual-axes-cleanup",
                     "Replicate the unused manual axes of manual computation shardings and sort the manual axes",
                     [](Module &m, const PassOptions &, Diagnostics &diags) { return cleanUpManualAxes(m, diags); });

}  // namespace

bool cleanUpManualAxes(Module &m, Diagnostics &diags) { return Cleanup(m, diags).run(); }

}  // namespace autopart
