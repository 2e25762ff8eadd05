// The one reshard the minimal `-sdy-insert-explicit-reshards`
// (enable-full-version=false) makes on a dot: when the operands agree with
// each other and exactly one batching or non-contracting dimension of the
// result is sharded over the axes the contraction is sharded over, the dot
// computes its result sharded like the operand it takes that dimension from,
// and a reshard after it restores the annotated sharding. The reshard then
// moves the (smaller or equal) result instead of an operand, and the matmul
// stays fully sharded.
//
//   %arg0: [{"y"}, {"x"}], %arg1: [{"x"}, {}] on ["x"=2, "y"=2, "z"=4]
//   %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = <@mesh, [{"x"}, {}]>}
//   ->
//   %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = <@mesh, [{"y"}, {}]>}
//   %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]>
//
// It does nothing when the operands conflict, when several result factors
// differ from the operands, when the differing operand factor is unsharded
// (that is a reduce-scatter), when the result is bigger than that operand,
// or when the result factor is not sharded exactly over the contraction's
// axes.
#pragma once

#include <optional>

#include "ir/Module.h"
#include "ir/ShardingRule.h"
#include "sim/ShardingMap.h"

namespace autopart {

// The sharding `op` (a stablehlo.dot / dot_general with rule `rule`) should
// compute its result in, or nullopt when its annotated one stays.
std::optional<TensorSharding> dotResultSharding(const Module &m, OpId op, const OpShardingRule &rule,
                                                const ShardingMap &map, const std::string &meshName,
                                                const Mesh &mesh);

}  // namespace autopart
