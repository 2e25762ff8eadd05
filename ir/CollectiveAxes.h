// The axes operand of an sdy collective. The parser keeps it as the text
// written (an opaque attribute, see asm/SdySyntax.cpp); this is its one
// reader and writer. Three shapes exist:
//
//   per dimension  `[{}, {"x"}]`, `max [{"x"}, {}]`   all_gather, all_slice,
//                                                      reduce_scatter,
//                                                      sharded_to_unreduced
//   one list       `{"x", "y":(1)2}`, `min {"x"}`     all_reduce,
//                                                      replicated_to_unreduced
//   all-to-all     `[{"x"}: 0->2, {"y"}: 1->3]`        all_to_all
//
//   parseCollectiveAxes(R"(max {"x", "y"})")
//     -> {reduction "max", flat, axes ["x", "y"]}; str() gives the text back
//   parseCollectiveAxes("[]") is both an empty per-dimension list and an
//     empty all-to-all parameter list
//
// The optional leading word is the reduction (none means a sum). Printing
// gives Shardy's spelling, so a rewritten op prints as sdy_opt would print it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/AxisList.h"

namespace autopart {

struct AllToAllParam {
  AxisList axes;
  int64_t srcDim = 0, tgtDim = 0;
  bool operator==(const AllToAllParam &) const = default;
};

struct CollectiveAxes {
  std::string reduction;              // the leading word, "" when none
  bool bracketed = true;              // `[...]` (per dimension or all-to-all), else `{...}`
  std::vector<AxisList> perDim;       // `[{...}, {...}]`
  AxisList axes;                      // `{...}`
  std::vector<AllToAllParam> params;  // `[{...}: src->tgt, ...]`

  static CollectiveAxes ofDims(std::string reduction, std::vector<AxisList> dims);
  static CollectiveAxes ofParams(std::vector<AllToAllParam> params);

  // The reduction Shardy names in its messages: "sum" when none is written.
  std::string reductionOp() const { return reduction.empty() ? "sum" : reduction; }
  bool isPerDim() const { return bracketed && params.empty(); }
  bool isFlat() const { return !bracketed; }
  // All-to-all parameters take no reduction.
  bool isAllToAll() const { return bracketed && perDim.empty() && reduction.empty(); }
  // No per-dimension list names an axis.
  bool allEmpty() const;
  std::string str() const;
};

// Nullopt when `text` is in none of the three shapes (the parser accepts any
// balanced token list there) or mixes dimensions and all-to-all parameters.
std::optional<CollectiveAxes> parseCollectiveAxes(std::string_view text);

}  // namespace autopart
