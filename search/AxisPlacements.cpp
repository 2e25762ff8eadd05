#include "search/AxisPlacements.h"

namespace autopart {

std::vector<TensorSharding> everyAxisPlacement(const std::string &meshName, const Mesh &mesh,
                                               const std::vector<std::string> &axes,
                                               const std::vector<int64_t> &shape) {
  std::vector<TensorSharding> out;
  size_t rank = shape.size(), numAxes = axes.size();
  std::vector<int> choice(numAxes, -1);  // per axis: its dimension, or -1
  for (;;) {
    TensorSharding s = TensorSharding::closed(meshName, rank);
    bool ok = true;
    for (size_t a = 0; a < numAxes && ok; ++a) {
      if (choice[a] < 0) continue;
      DimSharding &d = s.dims[size_t(choice[a])];
      d.axes.push_back(AxisRef{axes[a], 0, 0});
      ok = shape[size_t(choice[a])] % d.shardCount(mesh) == 0;
    }
    if (ok) out.push_back(std::move(s));
    size_t a = 0;
    for (; a < numAxes; ++a) {
      if (++choice[a] < int(rank)) break;
      choice[a] = -1;
    }
    if (a == numAxes) break;
  }
  return out;
}

}  // namespace autopart
