#include "ir/DeviceGroups.h"

#include <algorithm>
#include <bit>
#include <map>
#include <string>

namespace autopart {

std::vector<int64_t> meshCoordinates(const Mesh &mesh, int64_t position) {
  std::vector<int64_t> coord(mesh.axes.size());
  for (size_t a = mesh.axes.size(); a-- > 0;) {
    coord[a] = position % mesh.axes[a].size;
    position /= mesh.axes[a].size;
  }
  return coord;
}

int64_t devicePosition(const Mesh &mesh, int64_t id) {
  if (mesh.deviceIds.empty()) return id >= 0 && id < mesh.numDevices() ? id : -1;
  for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
    if (mesh.deviceIds[i] == id) return int64_t(i);
  return -1;
}

std::vector<std::vector<int64_t>> deviceGroups(const Mesh &mesh, const std::vector<AxisRef> &axes) {
  int64_t n = mesh.numDevices();
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> groups;  // key -> (rank, position)
  for (int64_t pos = 0; pos < n; ++pos) {
    std::vector<int64_t> coord = meshCoordinates(mesh, pos);
    int64_t rank = 0;
    for (const AxisRef &r : axes) {
      int a = mesh.axisIndex(r.name);
      int64_t size = r.size(mesh);
      int64_t stride = r.isSubAxis() ? mesh.axes[size_t(a)].size / (r.preSize * r.subSize) : 1;
      int64_t sub = (coord[size_t(a)] / stride) % size;
      coord[size_t(a)] -= sub * stride;
      rank = rank * size + sub;
    }
    int64_t key = 0;
    for (size_t a = 0; a < mesh.axes.size(); ++a) key = key * mesh.axes[a].size + coord[a];
    groups[key].push_back({rank, pos});
  }
  std::vector<std::vector<int64_t>> out;
  for (auto &[key, members] : groups) {
    std::sort(members.begin(), members.end());
    std::vector<int64_t> g;
    for (const auto &[rank, pos] : members)
      g.push_back(mesh.deviceIds.empty() ? pos : mesh.deviceIds[size_t(pos)]);
    out.push_back(std::move(g));
  }
  return out;
}

AttrId deviceGroupsAttr(Module &m, const std::vector<std::vector<int64_t>> &groups) {
  std::string text = "[";
  for (size_t g = 0; g < groups.size(); ++g) {
    text += g ? ", [" : "[";
    for (size_t k = 0; k < groups[g].size(); ++k) text += (k ? ", " : "") + std::to_string(groups[g][k]);
    text += "]";
  }
  text += "]";
  TypeId type = m.types.tensor({int64_t(groups.size()), groups.empty() ? 0 : int64_t(groups[0].size())},
                               m.types.scalar("i64"));
  return m.attrs.denseElementsOwned("dense", text, type);
}

std::vector<std::vector<int64_t>> denseIntRows(const Module &m, OpId op, std::string_view attr) {
  AttrId a = m.attr(op, attr);
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::DenseElements) return {};
  const AttrStorage &s = m.attrs.get(a);
  std::vector<int64_t> shape = m.types.shape(s.type);
  if (shape.size() != 2) return {};
  std::vector<int64_t> flat = m.attrs.denseInts(a);
  size_t width = size_t(shape[1]);
  if (flat.size() != size_t(shape[0]) * width) return {};
  std::vector<std::vector<int64_t>> rows;
  for (size_t r = 0; r < size_t(shape[0]); ++r) {
    std::vector<int64_t> row;
    for (size_t k = 0; k < width; ++k)
      if (flat[r * width + k] >= 0) row.push_back(flat[r * width + k]);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::optional<std::vector<AxisRef>> axesOfGroups(const Mesh &mesh, const std::vector<std::vector<int64_t>> &groups) {
  auto normal = [](std::vector<std::vector<int64_t>> gs) {
    for (std::vector<int64_t> &g : gs) std::sort(g.begin(), g.end());
    std::sort(gs.begin(), gs.end());
    return gs;
  };
  std::vector<std::vector<int64_t>> want = normal(groups);
  size_t k = mesh.axes.size();
  if (k > 16) return std::nullopt;
  // Every subset of the axes, fewest first: a size-1 axis may be left out.
  std::vector<uint32_t> subsets(size_t(1) << k);
  for (uint32_t i = 0; i < subsets.size(); ++i) subsets[i] = i;
  std::stable_sort(subsets.begin(), subsets.end(),
                   [](uint32_t a, uint32_t b) { return std::popcount(a) < std::popcount(b); });
  int64_t groupSize = want.empty() ? 0 : int64_t(want[0].size());
  for (uint32_t subset : subsets) {
    // Only axes as large together as a group can give its groups (this keeps
    // a many-axis mesh from building every subset's groups).
    int64_t size = 1;
    std::vector<AxisRef> axes;
    for (size_t a = 0; a < k; ++a)
      if (subset >> a & 1) {
        axes.push_back(AxisRef{mesh.axes[a].name});
        size *= mesh.axes[a].size;
      }
    if (size == groupSize && normal(deviceGroups(mesh, axes)) == want) return axes;
  }
  return std::nullopt;
}

int64_t lastChannelHandle(const Module &m) {
  int64_t last = 0;
  for (OpId func : m.functions())
    m.walk(func, [&](OpId op) {
      AttrId a = m.attr(op, "channel_handle");
      AttrId h = a == kNoAttr || m.attrs.kind(a) != AttrKind::DialectStruct ? kNoAttr : m.attrs.field(a, "handle");
      if (h != kNoAttr && m.attrs.kind(h) == AttrKind::Integer) last = std::max(last, m.attrs.get(h).intValue);
    });
  return last;
}

}  // namespace autopart
