// Removes named discardable attributes from every op of a module and from
// every function argument and result dictionary: the shared step of the
// export passes that drop bookkeeping (shardings, propagation debug info).
//
//   func.func @f(%a: tensor<8xf32> {sdy.sharding = ..., sdy.sharding_origins = {a = "self"}})
//   stripAttributes(m, {"sdy.sharding_origins"})
//   -> func.func @f(%a: tensor<8xf32> {sdy.sharding = ...})
#pragma once

#include <string_view>
#include <vector>

#include "ir/Module.h"

namespace autopart {

// Returns how many attributes it removed.
size_t stripAttributes(Module &m, const std::vector<std::string_view> &names);

}  // namespace autopart
