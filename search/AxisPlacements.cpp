#include "search/AxisPlacements.h"

namespace autopart {

bool nextAxisChoice(std::vector<int> &choice, int slots) {
  for (int &c : choice) {
    if (++c < slots) return true;
    c = -1;
  }
  return false;
}

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
    if (!nextAxisChoice(choice, int(rank))) break;
  }
  return out;
}

}  // namespace autopart
