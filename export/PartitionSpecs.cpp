#include "export/PartitionSpecs.h"

#include <algorithm>

#include "analysis/ArgumentRoles.h"

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

nlohmann::json functionPartitionSpecs(const Module &m, OpId func, const Mesh &mesh,
                                      const std::function<const TensorSharding *(ValueId)> &sharding) {
  FuncView f{m, func};
  std::vector<ArgumentInfo> infos = classifyArguments(m, func);
  nlohmann::json in = nlohmann::json::array(), out = nlohmann::json::array();
  for (size_t i = 0; i < f.args().size(); ++i) {
    const TensorSharding *s = sharding(f.args()[i]);
    size_t rank = size_t(std::max<int64_t>(0, m.types.rank(m.type(f.args()[i]))));
    std::string why;
    nlohmann::json spec = s ? partitionSpec(*s, &why) : nlohmann::json(std::vector<std::nullptr_t>(rank, nullptr));
    in.push_back({{"name", infos[i].name}, {"spec", spec}});
  }
  for (size_t i = 0; i < f.numResults(); ++i) {
    std::string why;
    const TensorSharding *s = f.returnOp() == kNone ? nullptr : sharding(m.operand(f.returnOp(), uint32_t(i)));
    nlohmann::json spec = s ? partitionSpec(*s, &why) : nlohmann::json(nullptr);
    out.push_back({{"name", resultName(m, func, i)}, {"spec", spec}});
  }
  nlohmann::json meshJson = nlohmann::json::object();
  for (const MeshAxis &a : mesh.axes) meshJson[a.name] = a.size;
  return {{"mesh", meshJson}, {"in_specs", in}, {"out_specs", out}};
}

}  // namespace autopart
