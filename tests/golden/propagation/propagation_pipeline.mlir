// RUN: not autopart-opt %s -sdy-propagation-pipeline='propagation-strategy=fastest' 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not autopart-opt %s -sdy-propagation-pipeline='debug-sharding-origins=true' 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: not autopart-opt %s -sdy-propagation-pipeline='skip-inline=true' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not autopart-opt %s -sdy-user-priority-propagate='run-op-priority-propagation=maybe' 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: autopart-opt %s -sdy-user-priority-propagate='run-op-priority-propagation=false' | FileCheck %s --check-prefix=NOOP
// RUN: autopart-opt %s -sdy-aggressive-propagate='propagation-strategy=basic,keep-sharding-rules=true,module-dump-directory=' | FileCheck %s --check-prefix=BASIC

// The propagation passes take Shardy's option names; what autopart-opt
// cannot do (debug origins, module dumps, unknown options such as the
// pipeline's inlining switches) is an error naming the option, never
// silently ignored. `run-op-priority-propagation=false` makes each user
// priority round a single fixpoint; `propagation-strategy=basic` switches
// the factor strategy.

// STRATEGY: error: sdy-propagation-pipeline: option 'propagation-strategy' takes one of aggressive|basic, not 'fastest'
// DEBUG: error: sdy-propagation-pipeline: option 'debug-sharding-origins' is not supported by autopart-opt
// UNKNOWN: error: sdy-propagation-pipeline: unknown option 'skip-inline'
// BOOL: error: sdy-user-priority-propagate: option 'run-op-priority-propagation' takes true or false, not 'maybe'

sdy.mesh @mesh = <["x"=2]>

// Without op priorities the dot (first in program order) decides %0's
// sharding before the add can bring %c's rows.
// NOOP-LABEL: func.func @op_priorities_off(
// NOOP: stablehlo.dot_general {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// Basic strategy: the dot's rule is kept (keep-sharding-rules); the add's
// two factors both want "x", so nothing propagates to it.
// BASIC-LABEL: func.func @op_priorities_off(
// BASIC: stablehlo.dot_general {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j])
// BASIC-NEXT: stablehlo.add %0, %arg2 : tensor<8x8xf32>
func.func @op_priorities_off(%a: tensor<8x8xf32>,
                             %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                             %c: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %c : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
