// The axes operand of an sdy collective, read from and written back to the
// text the parser keeps (asm/SdySyntax.cpp stores it as written). Three
// shapes exist:
//
//   per dimension  `[{}, {"x"}]`, `max [{"x"}, {}]`   all_gather, all_slice,
//                                                      reduce_scatter,
//                                                      sharded_to_unreduced
//   one list       `{"x", "y":(1)2}`, `min {"x"}`     all_reduce,
//                                                      replicated_to_unreduced
//   all-to-all     `[{"x"}: 0->2, {"y"}: 1->3]`        all_to_all
//
// The optional leading word is the reduction (`max`, `min`, ...; none means
// a sum). Printing gives Shardy's spelling, so a rewritten op prints as
// sdy_opt would print it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/AxisList.h"

namespace autopart::canonicalize {

struct PerDimAxes {
  std::string reduction;
  std::vector<AxisList> dims;
  bool allEmpty() const;
  bool operator==(const PerDimAxes &) const = default;
};

struct FlatAxes {
  std::string reduction;
  AxisList axes;
  bool operator==(const FlatAxes &) const = default;
};

struct AllToAllParam {
  AxisList axes;
  int64_t srcDim = 0, tgtDim = 0;
  bool operator==(const AllToAllParam &) const = default;
};
using AllToAllParams = std::vector<AllToAllParam>;

std::optional<PerDimAxes> parsePerDimAxes(std::string_view text);
std::optional<FlatAxes> parseFlatAxes(std::string_view text);
std::optional<AllToAllParams> parseAllToAllParams(std::string_view text);

std::string printPerDimAxes(const PerDimAxes &axes);
std::string printFlatAxes(const FlatAxes &axes);
std::string printAllToAllParams(const AllToAllParams &params);

}  // namespace autopart::canonicalize
