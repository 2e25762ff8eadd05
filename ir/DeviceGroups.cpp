#include "ir/DeviceGroups.h"

#include <algorithm>
#include <map>
#include <string>

namespace autopart {

std::vector<std::vector<int64_t>> deviceGroups(const Mesh &mesh, const std::vector<AxisRef> &axes) {
  int64_t n = mesh.numDevices();
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> groups;  // key -> (rank, position)
  for (int64_t pos = 0; pos < n; ++pos) {
    // Coordinates of `pos`, row-major over the mesh axes.
    std::vector<int64_t> coord(mesh.axes.size());
    for (size_t a = mesh.axes.size(), rest = size_t(pos); a-- > 0;) {
      coord[a] = int64_t(rest % size_t(mesh.axes[a].size));
      rest /= size_t(mesh.axes[a].size);
    }
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
