// The time of one op on one device, from its local (sharded) shapes: a
// roofline max(FLOPs / peak, HBM bytes / HBM bandwidth) for the computation,
// plus the α-β time of the collectives its shardings imply
// (sim/ReshardPlan.h, sim/CollectiveCost.h).
//
//   %0 = stablehlo.dot_general %x, %w  (tensor<256x1024xf32>, tensor<1024x1024xf32>)
//   x [{"data"}, {}], w replicated, data=8, 100 TFLOP/s, 2 TB/s:
//   local FLOPs 2·32·1024·1024 = 67.1 M -> 0.67 µs; bytes (128 KiB + 4 MiB
//   + 128 KiB) -> 2.2 µs; compute time 2.2 µs (memory bound), no collective.
//
// Contractions run at the share of peak their local GEMM shape achieves;
// every kernel also pays DeviceParams::kernelLaunchSeconds.
//
// Ops that only carry shardings (sdy.sharding_constraint is a reshard,
// constants, tuples, terminators) cost nothing but their collectives, and so
// do the collectives a program spells out (sim/ExplicitCollectives.h).
#pragma once

#include <optional>
#include <vector>

#include "sim/Collective.h"
#include "sim/DeviceParams.h"
#include "sim/ShardingMap.h"

namespace autopart {

struct OpCost {
  double flops = 0;           // local, one execution
  double bytes = 0;           // local HBM bytes read and written
  // The op as a kernel of its own: max(FLOPs at achievable throughput, bytes
  // at achievable HBM bandwidth) + launch. Fused kernels (sim/Kernels.h) sum
  // their members' peakSeconds and the bytes crossing their boundary instead.
  double computeSeconds = 0;
  double peakSeconds = 0;     // FLOPs at achievable throughput (sim/MatmulEfficiency.h)
  double efficiency = 1;      // achieved share of peak FLOP/s
  std::vector<double> operandBytes, resultBytes;  // local, per operand / result
  double commSeconds = 0;
  std::vector<Collective> collectives;
  std::vector<double> collectiveSeconds;  // parallel to `collectives`
  std::vector<double> collectiveLatency;  // the latency part of each (bytes 0)
};

// Where one value a func.return returns must end up: the function's declared
// result sharding (unless results take what is returned), and for a training
// step's carried state (analysis/CarriedState.h) the sharding its argument has at
// the next call.
struct ReturnTarget {
  bool declared = false;
  const TensorSharding *result = nullptr;  // null: replicated
  bool carried = false;
  const TensorSharding *argument = nullptr;  // null: replicated
};

// `rule` is the op's sharding rule if it has one (from rules/OpShardingRuleRegistry.h).
// `returnTargets` is only used for a func.return, one per returned value: it
// pays for resharding each returned value to its declared result sharding,
// then (carried state) from there to its argument's.
// `globalFlops`, when given, is opFlops(m, op) computed once by the caller
// (it does not depend on shardings).
OpCost costOp(const Module &m, OpId op, const OpShardingRule *rule, const ShardingMap &shardings,
              const DeviceParams &device, const std::vector<ReturnTarget> *returnTargets = nullptr,
              const double *globalFlops = nullptr);

}  // namespace autopart
