// A tensor sharding checked against the value it shards and its mesh, with
// Shardy's messages. Every place that carries a `#sdy.sharding` (function
// arguments and results, op results, sharding constraints, reshards,
// collectives' out_sharding, manual computations' in/out shardings) calls
// this one check.
//
//   mesh ["a"=8], tensor<16x8xf32>
//   [{"a":(1)4}, {}], replicated={"a":(2)4}   -> overlapping sub-axes: "a":(1)4, "a":(2)4
//   [{"a"}]                                  -> sharding doesn't match tensor rank: 1 != 2
//   [{"a":(2)2, "a":(4)2}, {}]               -> two consecutive sub-axes can be merged: ...
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "verify/Verifier.h"

namespace autopart {

using EmitFn = std::function<void(const std::string &)>;

// Lists of axis refs checked together against one mesh, as Shardy does for a
// sharding's dimensions, replicated and unreduced axes (and a collective's
// axes): every axis exists, none is used twice across all lists, and no two
// neighbours in a list are consecutive sub-axes that should be one.
// `checkSubAxes` then checks every sub-axis seen against its full axis and
// the other sub-axes of the same axis.
class AxisRefChecker {
public:
  AxisRefChecker(const Mesh &mesh, const EmitFn &emit) : mesh_(mesh), emit_(emit) {}

  bool addList(const std::vector<AxisRef> &axes);
  bool checkSubAxes();

private:
  const Mesh &mesh_;
  const EmitFn &emit_;
  std::vector<AxisRef> seen_;
};

// Shardy's order of axis refs in a mesh: by the axis' position in the mesh,
// then sub-axes by (pre-size, size), a full axis after the sub-axes that
// start at 1 and before the others.
bool axisRefLess(const Mesh &mesh, const AxisRef &a, const AxisRef &b);

// Emits the first problem through `emit` (which adds the "'op' op arg 0 - "
// context) and returns false when there is any. `type` is the value's type;
// kNoType for an op without results that says where it runs. `op` is the op
// the sharding belongs to: axes made manual by an enclosing
// `sdy.manual_computation` may not be used again (kNone: not checked).
bool verifyTensorSharding(VerifyContext &ctx, const TensorSharding &s, TypeId type,
                          const EmitFn &emit, OpId op = kNone);

}  // namespace autopart
