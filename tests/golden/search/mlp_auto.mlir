// RUN: autopart search %s --mesh data=2,model=4 --method exhaustive -o - 2>/dev/null | grep -v '^ *//' | FileCheck %s
// RUN: autopart search %s --mesh data=2,model=4 --method mcts --iterations 200 --seed 3 -o - 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=MCTS
// RUN: autopart plan %s --mesh data=2,model=4 --tactics dp,auto 2>/dev/null | grep -v '^ *//' | FileCheck %s --check-prefix=DPAUTO
// RUN: autopart search %s --mesh data=2,model=4 --method mcts,exhaustive,dp --iterations 200 | FileCheck %s --check-prefix=TABLE
// RUN: not autopart search %s --mesh data=2,model=4 --method pipeline 2>&1 | FileCheck %s --check-prefix=BADMETHOD

// A wide MLP with a large batch on 8 H100s: the fastest plan splits the
// batch over "data" and the hidden dimension over "model" (w1's columns, b1,
// w2's rows and w1's moment with them). Keeping the weights whole and
// splitting only the update (ZeRO-1) returns a new w1 that the next step
// must all-gather, which the simulator charges (carried state), so it loses
// here. The exhaustive search over names finds this plan; MCTS's per-value
// refinement then keeps w2 whole (929 us against 1002 us: the second GEMM's
// output is not split over "model", so no partial sums to reduce) and may
// split x's columns over "model". `dp,auto` (auto adding "model" on top of dp's
// "data") refines a runner-up name-level plan to a faster one (886 us
// against 908 us on h100-80gb): the batch over both axes, w1's columns over
// "model", w2 whole.

// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]>
// CHECK-LABEL: func.func public @main(
// CHECK-SAME{LITERAL}: %arg0: tensor<8192x32768xbf16> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}
// CHECK-SAME{LITERAL}: %arg2: tensor<32768x8192xbf16> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}
// CHECK-SAME: %arg3: tensor<4096x8192xbf16> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {{(\{\}|\{"model"\})}}]>}
// CHECK-SAME{LITERAL}: %arg4: tensor<8192x32768xbf16> {jax.arg_info = "opt_state['mu']['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}

// MCTS: sdy.mesh @mesh = <["data"=2, "model"=4]>
// MCTS-LABEL: func.func public @main(
// MCTS-SAME{LITERAL}: %arg0: tensor<8192x32768xbf16> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}
// MCTS-SAME: %arg3: tensor<4096x8192xbf16> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {{(\{\}|\{"model"\})}}]>}

// DPAUTO: sdy.mesh @mesh = <["data"=2, "model"=4]>
// DPAUTO-LABEL: func.func public @main(
// DPAUTO-SAME{LITERAL}: %arg0: tensor<8192x32768xbf16> {jax.arg_info = "params['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}
// DPAUTO-SAME{LITERAL}: %arg2: tensor<32768x8192xbf16> {jax.arg_info = "params['w2']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}
// DPAUTO-SAME{LITERAL}: %arg3: tensor<4096x8192xbf16> {jax.arg_info = "batch['x']", sdy.sharding = #sdy.sharding<@mesh, [{"data", "model"}, {}]>}

// TABLE: method
// TABLE-NEXT: mcts {{.*}} yes
// TABLE-NEXT: exhaustive {{.*}} yes
// TABLE-NEXT: dp {{.*}} yes
// TABLE: mcts plan:
// TABLE-DAG: shard n{{[0-9]+}} (size 4096, {{.*}} on "data"
// TABLE-DAG: shard n{{[0-9]+}} (size 32768, {{.*}}params['w1'] dim 1) on "model"

// BADMETHOD: error: --method: unknown method 'pipeline'
func.func public @main(%arg0: tensor<8192x32768xbf16> {jax.arg_info = "params['w1']"}, %arg1: tensor<32768xbf16> {jax.arg_info = "params['b1']"}, %arg2: tensor<32768x8192xbf16> {jax.arg_info = "params['w2']"}, %arg3: tensor<4096x8192xbf16> {jax.arg_info = "batch['x']"}, %arg4: tensor<8192x32768xbf16> {jax.arg_info = "opt_state['mu']['w1']"}) -> (tensor<4096x8192xbf16>, tensor<8192x32768xbf16>) {
  %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0] : (tensor<4096x8192xbf16>, tensor<8192x32768xbf16>) -> tensor<4096x32768xbf16>
  %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32768xbf16>) -> tensor<4096x32768xbf16>
  %2 = stablehlo.add %0, %1 : tensor<4096x32768xbf16>
  %3 = stablehlo.logistic %2 : tensor<4096x32768xbf16>
  %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [1] x [0] : (tensor<4096x32768xbf16>, tensor<32768x8192xbf16>) -> tensor<4096x8192xbf16>
  %5 = stablehlo.add %4, %arg3 : tensor<4096x8192xbf16>
  %6 = stablehlo.subtract %arg0, %arg4 : tensor<8192x32768xbf16>
  return %5, %6 : tensor<4096x8192xbf16>, tensor<8192x32768xbf16>
}
