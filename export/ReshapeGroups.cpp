#include "export/ReshapeGroups.h"

#include <map>
#include <set>
#include <string>
#include <utility>

namespace autopart {

namespace {

int64_t nonTrivial(const std::vector<int64_t> &shape, int64_t begin, int64_t end) {
  int64_t n = 0;
  for (int64_t d = begin; d < end; ++d) n += shape[size_t(d)] != 1;
  return n;
}

// The [pre, end) range an axis reference covers within its mesh axis
// (sub-axis "a":(2)2 of "a"=8 covers [2, 4)).
std::pair<int64_t, int64_t> axisRange(const AxisRef &a, const Mesh &mesh) {
  int64_t pre = a.isSubAxis() ? a.preSize : 1;
  return {pre, pre * a.size(mesh)};
}

using Bounds = std::map<std::string, std::set<int64_t>>;
// (axis, piece start) -> (piece end, row-major elements between neighbours)
using Steps = std::map<std::pair<std::string, int64_t>, std::pair<int64_t, int64_t>>;

void addBounds(Bounds &bounds, const TensorSharding &s, const Mesh &mesh) {
  for (const DimSharding &d : s.dims)
    for (const AxisRef &a : d.axes) {
      auto [pre, end] = axisRange(a, mesh);
      bounds[a.name].insert(pre);
      bounds[a.name].insert(end);
    }
}

// Cuts every axis reference at all bounds (so both sides use the same
// pieces) and records how far apart in row-major order two devices that
// differ by one step of that piece hold their tiles.
Steps steps(const std::vector<int64_t> &shape, const TensorSharding &s, const Mesh &mesh,
            const Bounds &bounds) {
  Steps out;
  for (size_t d = 0; d < s.dims.size() && d < shape.size(); ++d) {
    const std::vector<AxisRef> &axes = s.dims[d].axes;
    if (axes.empty()) continue;
    int64_t count = s.dims[d].shardCount(mesh);
    int64_t tile = (shape[d] + count - 1) / count;
    int64_t minor = 1;
    for (size_t e = d + 1; e < shape.size(); ++e) minor *= shape[e];
    int64_t inner = 1;  // product of the axes minor to this one in the dimension
    for (size_t k = axes.size(); k-- > 0;) {
      auto [pre, end] = axisRange(axes[k], mesh);
      int64_t refStep = tile * inner * minor;
      const std::set<int64_t> &cuts = bounds.at(axes[k].name);
      for (auto it = cuts.lower_bound(pre); it != cuts.end() && *it < end; ++it) {
        int64_t next = *std::next(it);
        out[{axes[k].name, *it}] = {next, refStep * (end / next)};
      }
      inner *= end / pre;
    }
  }
  return out;
}

}  // namespace

std::vector<ReshapeGroup> reshapeGroups(const std::vector<int64_t> &in, const std::vector<int64_t> &out) {
  std::vector<ReshapeGroup> groups;
  int64_t inRank = int64_t(in.size()), outRank = int64_t(out.size());
  int64_t i = 0, o = 0;
  while (i < inRank || o < outRank) {
    ReshapeGroup g;
    g.inBegin = i;
    g.outBegin = o;
    int64_t inProduct = i < inRank ? in[size_t(i++)] : 1;
    int64_t outProduct = o < outRank ? out[size_t(o++)] : 1;
    while (inProduct != outProduct) {
      if (inProduct < outProduct && i < inRank)
        inProduct *= in[size_t(i++)];
      else if (outProduct < inProduct && o < outRank)
        outProduct *= out[size_t(o++)];
      else
        break;
    }
    g.inEnd = i;
    g.outEnd = o;
    g.inNonTrivial = nonTrivial(in, g.inBegin, g.inEnd);
    g.outNonTrivial = nonTrivial(out, g.outBegin, g.outEnd);
    groups.push_back(g);
  }
  return groups;
}

bool groupHasIndivisibleDim(const ReshapeGroup &group, const std::vector<int64_t> &in,
                            const TensorSharding &inSharding, const std::vector<int64_t> &out,
                            const TensorSharding &outSharding, const Mesh &mesh) {
  auto indivisible = [&](const std::vector<int64_t> &shape, const TensorSharding &s, int64_t begin,
                         int64_t end) {
    for (int64_t d = begin; d < end && size_t(d) < s.dims.size(); ++d) {
      int64_t count = s.dims[size_t(d)].shardCount(mesh);
      if (count > 1 && shape[size_t(d)] % count != 0) return true;
    }
    return false;
  };
  return indivisible(in, inSharding, group.inBegin, group.inEnd) ||
         indivisible(out, outSharding, group.outBegin, group.outEnd);
}

bool shardingLocalAcrossReshape(const std::vector<int64_t> &in, const TensorSharding &inSharding,
                                const std::vector<int64_t> &out, const TensorSharding &outSharding,
                                const Mesh &mesh) {
  Bounds bounds;
  addBounds(bounds, inSharding, mesh);
  addBounds(bounds, outSharding, mesh);
  return steps(in, inSharding, mesh, bounds) == steps(out, outSharding, mesh, bounds);
}

}  // namespace autopart
