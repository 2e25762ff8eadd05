#include "exec/CustomCalls.h"

#include <string>
#include <unordered_map>

namespace autopart::exec {
namespace {

std::unordered_map<std::string, Kernel> &targets() {
  static std::unordered_map<std::string, Kernel> r;
  return r;
}

// Annotation-only targets; each returns its operand as is.
//   tt.mark_argument, tt.sharding_constraint, tt.weight_dtype_override:
//     tt-xla's argument-name / sharding / dtype markers (their torch CPU
//     implementations return `tensor.clone()`).
//   Sharding: XLA's sharding annotation, a no-op on an unpartitioned program.
constexpr std::string_view kIdentityTargets[] = {
    "tt.mark_argument",
    "tt.sharding_constraint",
    "tt.weight_dtype_override",
    "Sharding",
};

void identity(Interpreter &I, OpId op) {
  uint32_t n = I.m.numOperands(op);
  if (n != I.m.numResults(op)) I.fail(op, "identity custom_call needs as many results as operands");
  for (uint32_t i = 0; i < n; ++i) {
    if (I.m.type(I.m.operand(op, i)) != I.resultType(op, i))
      I.fail(op, "identity custom_call changes the type of operand #" + std::to_string(i));
    I.setResult(op, i, I.operand(op, i));
  }
}

void customCall(Interpreter &I, OpId op) {
  std::string_view target = I.m.attrs.stringValue(I.m.attr(op, "call_target_name"));
  Kernel k = findCustomCall(target);
  if (!k) I.fail(op, "unsupported custom_call target '" + std::string(target) + "'");
  k(I, op);
}

struct IdentityRegistration {
  IdentityRegistration() {
    for (std::string_view t : kIdentityTargets) targets()[std::string(t)] = identity;
  }
} identities;

KernelRegistration reg({"stablehlo.custom_call"}, customCall);

}  // namespace

CustomCallRegistration::CustomCallRegistration(std::initializer_list<const char *> names, Kernel k) {
  for (const char *n : names) targets()[n] = k;
}

Kernel findCustomCall(std::string_view target) {
  auto it = targets().find(std::string(target));
  return it == targets().end() ? nullptr : it->second;
}

bool isIdentityCustomCall(std::string_view target) {
  for (std::string_view t : kIdentityTargets)
    if (t == target) return true;
  return false;
}

}  // namespace autopart::exec
