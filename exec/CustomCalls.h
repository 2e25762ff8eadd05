// `stablehlo.custom_call` dispatch by `call_target_name`. The op name has one
// kernel (CustomCalls.cpp) that looks the target up in a table the op-family
// files fill, as the op kernels are registered by name:
//
//   static CustomCallRegistration reg({"check.expect_eq"}, checkKernel);
//
//   %1 = stablehlo.custom_call @tt.mark_argument(%0) : (tensor<2xf32>) -> tensor<2xf32>
//     -> %1 is %0 (a known identity marker)
//   %2 = stablehlo.custom_call @mystery(%0) ...
//     -> t.mlir:3:8: error: unsupported custom_call target 'mystery'
//
// Identity markers are custom calls a frontend emits only to annotate a value
// (tt-xla's argument names, sharding hints); on one CPU they return their
// operand unchanged, which is what the frontends' own CPU fallbacks do.
#pragma once

#include <initializer_list>
#include <string_view>

#include "exec/Interpreter.h"

namespace autopart::exec {

struct CustomCallRegistration {
  CustomCallRegistration(std::initializer_list<const char *> targets, Kernel k);
};
// The kernel of a custom call target, or nullptr.
Kernel findCustomCall(std::string_view target);
// Whether `target` is one of the known identity markers.
bool isIdentityCustomCall(std::string_view target);

}  // namespace autopart::exec
