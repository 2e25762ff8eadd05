#include "ir/PassOptionCatalog.h"

#include <vector>

namespace autopart {

namespace {

const std::vector<PassOptionSpec> &catalog() {
  static const std::vector<PassOptionSpec> k = {
      {"keep-sharding-rules", "bool", "keep the sdy.sharding_rule of every op (default false)"},
      {"conservative-propagation", "bool",
       "propagate no split axes and no axes that do not divide their dimension (default false)"},
      {"avoid-export-for-partitioning", "bool", "stop before the explicit reshards (default false)"},
      {"enable-insert-explicit-collectives", "bool", "turn reshards into collectives (default false)"},
      {"remove-all-gather-reduce-scatter-for-cmv1", "bool", "collective matmul v1 cleanup (default false)"},
      {"avoid-reshards-on-named-computations", "bool", "no reshards at named computation boundaries (default false)"},
      {"dedup-functions-fully", "bool", "one function per original callee whatever its copies' shardings (default false)"},
      {"update-non-divisible-input-output-shardings", "bool",
       "make function and call boundary shardings divide evenly (default true)"},
      {"inline-meshes", "bool", "write meshes inline and drop sdy.mesh (default true)"},
      {"replica-count", "int", "number of replicas (default 1)"},
      {"partition-count", "int", "number of partitions (default 1)"},
  };
  return k;
}

}  // namespace

PassOptionSpec sharedPassOption(std::string_view name) {
  for (const PassOptionSpec &spec : catalog())
    if (spec.name == name) return spec;
  return {std::string(name), "string", ""};
}

}  // namespace autopart
