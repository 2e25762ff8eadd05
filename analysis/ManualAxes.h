// Which mesh axes each value may not be sharded on because an enclosing
// `sdy.manual_computation` has made them manual. Inside such a body every
// value is one device's slice (per-device shapes): its sharding may name only
// the free axes, and Shardy's verifier rejects any other ("operates on axis
// ... which is already bound by a parent sdy.manual_computation op"). Every
// place that adds an axis to a value's sharding (tactics, search moves, ILP
// strategies) asks this first, so the plan it prices is the plan written.
//
//   sdy.mesh @mesh = <["x"=2, "y"=4, "z"=2]>
//   %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>]
//        out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
//     %c = sdy.manual_computation(%b) ... manual_axes={"y"} (%d: tensor<1xf32>) {
//       %e = stablehlo.negate %d       // bound: x, y (nested ones add up)
//       sdy.return %e
//     }
//     %f = stablehlo.abs %c            // bound: x
//     sdy.return %f
//   }
//   %g = stablehlo.add %r, %r          // bound: none (%a and %r too)
//
// A function called (func.call, or a composite's decomposition) from inside
// a body is part of it for every caller: it gets the union of its call
// sites' axes, so a name tied through the call never brings a manual axis
// back in. One walk per function and per growth of its set: linear in the
// program for a fixed number of mesh axes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Module.h"
#include "ir/Sharding.h"

namespace autopart {

class ManualAxes {
public:
  ManualAxes() = default;
  explicit ManualAxes(const Module &m);

  // No value of the program is inside a manual computation.
  bool none() const { return sets_.size() <= 1; }

  // The axes bound at ops of `block`, at `op` (its operands and results) and
  // at `v` (a block argument: its block; a result: its op's block).
  std::span<const std::string> ofBlock(BlockId block) const;
  std::span<const std::string> ofOp(OpId op) const;
  std::span<const std::string> of(ValueId v) const;

  // Whether the axis (a full axis or any sub-axis of it) is bound at `v`.
  bool binds(ValueId v, std::string_view axis) const;
  // Whether `s` names an axis bound at `v`, on a dimension or as replicated
  // or unreduced: such a sharding cannot be written on `v`.
  bool conflicts(ValueId v, const TensorSharding &s) const;

private:
  const Module *m_ = nullptr;
  std::vector<std::vector<std::string>> sets_;  // sorted axis names; 0: none
  std::vector<uint32_t> setOfBlock_;            // per BlockId, into sets_
};

}  // namespace autopart
