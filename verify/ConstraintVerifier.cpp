// Shardy's checks of the ops that pin a sharding on a value:
// `sdy.sharding_constraint` and `sdy.reshard`. Their sharding is checked as
// any tensor sharding, and their unreduced axes against the input's: an
// axis that stays unreduced keeps its reduction, and a new one can only be
// a partial sum (nothing produces partial maxima out of a full value).
//
//   %arg0 sharded <@mesh, [{}], unreduced=max{"x"}>
//   %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
//   -> 'sdy.reshard' op cannot change the reduction operator of kept
//      unreduced axes from max to sum.
#include <algorithm>

#include "verify/TensorShardingVerifier.h"

namespace autopart {

namespace {

// `unreduced={...}` is a sum unless it names its reduction.
std::string_view reductionOf(const TensorSharding &s) {
  return s.unreducedKind.empty() ? std::string_view("sum") : std::string_view(s.unreducedKind);
}

void verifyUnreducedKinds(VerifyContext &ctx, OpId op, const TensorSharding &out) {
  if (out.unreduced.empty()) return;
  const Mesh *mesh = ctx.mesh(out);
  const TensorSharding *in = ctx.sharding(ctx.m.operand(op, 0));
  auto keptFromInput = [&](const AxisRef &r) {
    return in && std::any_of(in->unreduced.begin(), in->unreduced.end(),
                             [&](const AxisRef &o) { return o.overlaps(r, *mesh); });
  };
  std::string_view kind = reductionOf(out);
  bool introduces = false;
  for (const AxisRef &r : out.unreduced) {
    if (!keptFromInput(r)) {
      introduces = true;
      continue;
    }
    if (std::string_view from = reductionOf(*in); from != kind) {
      ctx.opError(op, "cannot change the reduction operator of kept unreduced axes from " +
                          std::string(from) + " to " + std::string(kind) + ".");
      return;
    }
  }
  if (introduces && kind != "sum")
    ctx.opError(op, "cannot introduce '" + std::string(kind) + "' unreduced axes. Expected 'sum'.");
}

void verifyShardingOfResult(VerifyContext &ctx, OpId op) {
  const Module &m = ctx.m;
  AttrId a = m.attr(op, "sharding");
  if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Sharding) return;
  const TensorSharding &s = *m.attrs.get(a).sharding;
  if (!verifyTensorSharding(
          ctx, s, m.type(m.result(op)), [&](const std::string &msg) { ctx.opError(op, msg); }, op))
    return;
  verifyUnreducedKinds(ctx, op, s);
}

OpVerifierRegistration shardingConstraint("sdy.sharding_constraint", verifyShardingOfResult);
OpVerifierRegistration reshard("sdy.reshard", verifyShardingOfResult);

}  // namespace

}  // namespace autopart
