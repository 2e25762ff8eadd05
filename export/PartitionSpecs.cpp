#include "export/PartitionSpecs.h"

namespace autopart {

nlohmann::json partitionSpec(const TensorSharding &s, std::string *why) {
  if (!s.unreduced.empty()) {
    if (why) *why = "unreduced axes have no PartitionSpec";
    return nullptr;
  }
  nlohmann::json spec = nlohmann::json::array();
  for (const DimSharding &d : s.dims) {
    for (const AxisRef &a : d.axes)
      if (a.isSubAxis()) {
        if (why) *why = "sub-axis " + a.str() + " has no PartitionSpec";
        return nullptr;
      }
    if (d.axes.empty())
      spec.push_back(nullptr);
    else if (d.axes.size() == 1)
      spec.push_back(d.axes[0].name);
    else {
      nlohmann::json names = nlohmann::json::array();
      for (const AxisRef &a : d.axes) names.push_back(a.name);
      spec.push_back(names);
    }
  }
  return spec;
}

}  // namespace autopart
