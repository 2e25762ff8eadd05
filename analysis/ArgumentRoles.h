// Names and roles of a function's arguments: which are trained parameters
// (and optimizer state) and which are per-step data. Tactics such as FSDP
// shard parameters, batch parallelism shards data; the stats report counts
// both. A name comes from the frontend (`jax.arg_info = "params['w1']"`,
// `ttir.name`, `loc("W0")`), the role from the name or the frontend's own
// marking (`ttcore.argument_type`), and failing both from use: in a training
// step an argument whose update the step returns (analysis/CarriedState.h) is
// a parameter and the others are data; in a step that returns no state, an
// argument that reaches the right-hand side of a contraction (a weight)
// through layout-only ops is a parameter.
//
//   func.func @main(%arg0: tensor<784x512xf32> loc("W0"), %arg1: tensor<128x784xf32> loc("x"))
//   %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0]
//   -> %arg0 "W0" Parameter (rhs of dot_general), %arg1 "x" Data
#pragma once

#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

enum class ArgRole { Parameter, OptimizerState, Data };

struct ArgumentInfo {
  std::string name;  // as the frontend named it, else "%argN"
  ArgRole role = ArgRole::Data;
  int64_t bytes = 0;
  std::string reason;  // why this role (for reports)
};

std::vector<ArgumentInfo> classifyArguments(const Module &m, OpId func);
std::string resultName(const Module &m, OpId func, size_t i);
const char *roleName(ArgRole r);

}  // namespace autopart
