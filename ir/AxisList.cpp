#include "ir/AxisList.h"

#include <algorithm>
#include <tuple>

namespace autopart {

AxisRef makeAxis(const std::string &name, int64_t pre, int64_t size, const Mesh &mesh) {
  AxisRef a;
  a.name = name;
  if (pre == 1 && size == mesh.axisSize(name)) return a;
  a.preSize = pre;
  a.subSize = size;
  return a;
}

int64_t axisEnd(const AxisRef &a, const Mesh &mesh) {
  return a.isSubAxis() ? a.preSize * a.subSize : mesh.axisSize(a.name);
}

bool axisPrefixOf(const AxisRef &a, const AxisRef &b, const Mesh &mesh) {
  return a.name == b.name && axisStart(a) == axisStart(b) && axisEnd(a, mesh) <= axisEnd(b, mesh);
}

bool axisContains(const AxisRef &a, const AxisRef &b, const Mesh &mesh) {
  return a.name == b.name && axisStart(a) <= axisStart(b) && axisEnd(b, mesh) <= axisEnd(a, mesh);
}

bool canCoexist(const AxisRef &a, const AxisRef &b, const Mesh &mesh) {
  if (a.name != b.name) return true;
  int64_t points[4] = {axisStart(a), axisEnd(a, mesh), axisStart(b), axisEnd(b, mesh)};
  std::sort(points, points + 4);
  for (int i = 0; i + 1 < 4; ++i)
    if (points[i] == 0 || points[i + 1] % points[i] != 0) return false;
  return true;
}

std::optional<AxisRef> prefixWithoutOverlap(const AxisRef &a, const AxisList &others,
                                            const Mesh &mesh) {
  AxisRef result = a;
  for (const AxisRef &o : others) {
    if (!canCoexist(result, o, mesh)) return std::nullopt;
    if (!result.overlaps(o, mesh)) continue;
    // Only the part of `result` before `o` starts is free; when `o` starts at
    // or before `result`, nothing major is left.
    if (axisStart(o) <= axisStart(result)) return std::nullopt;
    result = makeAxis(result.name, axisStart(result), axisStart(o) / axisStart(result), mesh);
  }
  return result;
}

void appendOrMerge(AxisList &list, const AxisRef &a, const Mesh &mesh) {
  if (!list.empty()) {
    AxisRef &last = list.back();
    if (last.name == a.name && last.isSubAxis() && a.isSubAxis() &&
        axisEnd(last, mesh) == axisStart(a)) {
      last = makeAxis(a.name, axisStart(last), axisEnd(a, mesh) / axisStart(last), mesh);
      return;
    }
  }
  list.push_back(a);
}

int64_t axesSize(const AxisList &axes, const Mesh &mesh) {
  int64_t n = 1;
  for (const AxisRef &a : axes) n *= a.size(mesh);
  return n;
}

bool overlapsAny(const AxisRef &a, const AxisList &list, const Mesh &mesh) {
  for (const AxisRef &b : list)
    if (a.overlaps(b, mesh)) return true;
  return false;
}

bool axisListsOverlap(const AxisList &a, const AxisList &b, const Mesh &mesh) {
  for (const AxisRef &x : a)
    if (overlapsAny(x, b, mesh)) return true;
  return false;
}

// `a` covers the major part of `b`: same axis, same start, smaller size.
static bool isMajorPartOf(const AxisRef &a, const AxisRef &b, const Mesh &mesh) {
  if (a.name != b.name || axisStart(a) != axisStart(b)) return false;
  int64_t sa = a.size(mesh), sb = b.size(mesh);
  return sa <= sb && sb % sa == 0;
}

bool isStrictPrefix(const AxisList &a, const AxisList &b, const Mesh &mesh) {
  if (a.size() > b.size()) return false;
  if (a.empty()) return !b.empty();
  for (size_t i = 0; i + 1 < a.size(); ++i)
    if (!(a[i] == b[i])) return false;
  const AxisRef &last = a.back(), &other = b[a.size() - 1];
  if (last == other) return a.size() < b.size();
  return isMajorPartOf(last, other, mesh);
}

AxisList mergeAdjacent(const AxisList &axes, const Mesh &mesh) {
  AxisList out;
  for (const AxisRef &a : axes) {
    if (!out.empty()) {
      AxisRef &prev = out.back();
      int64_t prevEnd = axisStart(prev) * prev.size(mesh);
      if (prev.name == a.name && prevEnd == axisStart(a)) {
        prev = makeAxis(a.name, axisStart(prev), prev.size(mesh) * a.size(mesh), mesh);
        continue;
      }
    }
    out.push_back(a);
  }
  return out;
}

bool truncateWithoutOverlap(AxisList &a, const AxisList &b, const Mesh &mesh) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (!overlapsAny(a[i], b, mesh)) continue;
    // The major part of a[i] up to the first overlapping device range stays.
    int64_t lo = axisStart(a[i]), hi = lo * a[i].size(mesh);
    int64_t cut = hi;
    for (const AxisRef &x : b)
      if (x.name == a[i].name && a[i].overlaps(x, mesh)) cut = std::min(cut, std::max(lo, axisStart(x)));
    std::string name = a[i].name;
    a.resize(i);
    if (cut > lo) a.push_back(makeAxis(name, lo, cut / lo, mesh));
    return true;
  }
  return false;
}

AxisList axisSetDiff(const AxisList &a, const AxisList &b, const Mesh &mesh) {
  AxisList out;
  for (const AxisRef &x : a)
    if (!overlapsAny(x, b, mesh)) out.push_back(x);
  return out;
}

AxisList subtractAxes(const AxisList &a, const AxisList &b, const Mesh &mesh) {
  AxisList out;
  for (const AxisRef &x : a) {
    // Pieces of x still uncovered, as [start, end) ranges of its axis.
    std::vector<std::pair<int64_t, int64_t>> pieces = {{axisStart(x), axisEnd(x, mesh)}};
    for (const AxisRef &y : b) {
      if (y.name != x.name) continue;
      int64_t ys = axisStart(y), ye = axisEnd(y, mesh);
      std::vector<std::pair<int64_t, int64_t>> next;
      for (auto [s, e] : pieces) {
        if (ye <= s || e <= ys) {
          next.push_back({s, e});
          continue;
        }
        if (s < ys) next.push_back({s, ys});
        if (ye < e) next.push_back({ye, e});
      }
      pieces = std::move(next);
    }
    for (auto [s, e] : pieces) out.push_back(makeAxis(x.name, s, e / s, mesh));
  }
  return out;
}

// The mesh's order of axes: by axis index, then by start (then by size,
// which only orders refs that overlap, as no valid list has).
static bool meshOrderLess(const AxisRef &x, const AxisRef &y, const Mesh &mesh) {
  return std::tuple(mesh.axisIndex(x.name), axisStart(x), x.size(mesh)) <
         std::tuple(mesh.axisIndex(y.name), axisStart(y), y.size(mesh));
}

void sortByMesh(AxisList &axes, const Mesh &mesh) {
  std::stable_sort(axes.begin(), axes.end(),
                   [&](const AxisRef &x, const AxisRef &y) { return meshOrderLess(x, y, mesh); });
}

bool isSortedByMesh(const AxisList &axes, const Mesh &mesh) {
  return std::is_sorted(axes.begin(), axes.end(),
                        [&](const AxisRef &x, const AxisRef &y) { return meshOrderLess(x, y, mesh); });
}

void sortAndMerge(AxisList &axes, const Mesh &mesh) {
  sortByMesh(axes, mesh);
  axes = mergeAdjacent(axes, mesh);
}

bool axisListLess(const AxisList &a, const AxisList &b, const Mesh &mesh) {
  if (isStrictPrefix(a, b, mesh)) return true;
  if (isStrictPrefix(b, a, mesh)) return false;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    int ia = mesh.axisIndex(a[i].name), ib = mesh.axisIndex(b[i].name);
    if (ia != ib) return ia < ib;
    if (axisStart(a[i]) != axisStart(b[i])) return axisStart(a[i]) < axisStart(b[i]);
    if (a[i].size(mesh) != b[i].size(mesh)) return a[i].size(mesh) < b[i].size(mesh);
  }
  return a.size() < b.size();
}

std::string axisListStr(const AxisList &axes, std::string_view brackets) {
  std::string s(1, brackets[0]);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) s += ", ";
    s += axes[i].str();
  }
  return s + brackets[1];
}

}  // namespace autopart
