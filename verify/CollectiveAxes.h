// The axes operand of an sdy collective, as the verifier reads it, and the
// axis-list algebra Shardy's collective checks are stated in.
//
// The parser keeps a collective's axes as the text written; it is read here
// into one of three shapes:
//
//   sdy.all_gather [{}, {"x":(1)2}] ...     -> perDim  = [[], ["x":(1)2]]
//   sdy.all_reduce max {"x", "y"} ...       -> axes    = ["x", "y"], reductionOp "max"
//   sdy.all_to_all [{"x"}: 1->0] ...        -> params  = [{["x"], 1, 0}]
//
// Applying axes to an operand dimension, on mesh ["x"=8]:
//
//   gatherAlongDim(["y", "x"], ["x":(2)4])  == ["y", "x":(1)2]   (a suffix removed)
//   sliceAlongDim(["x":(1)2], ["x":(2)2])   == ["x":(1)4]        (appended, merged)
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/AxisList.h"
#include "verify/Verifier.h"

namespace autopart {

struct AllToAllParam {
  AxisList axes;
  int64_t srcDim = 0;
  int64_t tgtDim = 0;
};

struct CollectiveAxes {
  // The reduction written before the axes; "sum" when none is.
  std::string reductionOp = "sum";
  std::vector<AxisList> perDim;       // `[{...}, {...}]`
  AxisList axes;                      // `{...}`
  std::vector<AllToAllParam> params;  // `[{...}: src->tgt, ...]`
};

// Reads the axes text of a collective; nullopt when it is not in any of the
// three forms (the parser accepted it as a balanced token list).
std::optional<CollectiveAxes> parseCollectiveAxes(std::string_view text);

// `["x", "y":(1)2]`, as Shardy prints an axis list in its messages.
std::string axisListBrackets(const AxisList &axes);

// One list of collective axes checked as Shardy checks every axis list: each
// axis exists in `mesh`, no axis repeats (across all lists sharing `seen`),
// and no two neighbouring sub-axes could have been written as one. Reports
// the first problem through `emit` and returns false.
bool verifyAxisList(const AxisList &axes, const Mesh &mesh, AxisList &seen,
                    const std::function<void(const std::string &)> &emit);

// Whether `axes` are in the mesh's order (axis index, then major sub-axes first).
bool isSortedByMesh(const AxisList &axes, const Mesh &mesh);

// `axis` covers the minor end of `of`: same axis, same end, starting no earlier.
bool isAxisSuffixOf(const AxisRef &axis, const AxisRef &of, const Mesh &mesh);

// A dimension's sharding with `gathering` removed from its minor end; nullopt
// when they are not its minor axes, with `bad` the first gathering axis
// (from the minor end) that cannot be removed.
std::optional<AxisList> gatherAlongDim(const AxisList &dim, const AxisList &gathering,
                                       const Mesh &mesh, AxisRef &bad);
// A dimension's sharding with `slicing` appended (merging abutting sub-axes).
AxisList sliceAlongDim(const AxisList &dim, const AxisList &slicing, const Mesh &mesh);

}  // namespace autopart
