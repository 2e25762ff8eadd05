// The kernels XLA's fusion passes make of a program, so the simulator prices
// what runs on the device rather than each op on its own. Which op may fuse
// how is its op-table row's Fusion kind (rules/OpInfo.h); the grouping
// follows XLA's GPU instruction fusion and priority fusion (gpu_fusible):
//
//   - a loop-fusible op (elementwise, broadcast, convert, iota, reshape,
//     transpose, slice, ...) is fused into every consumer that can take a
//     producer (loop and input fusions, in-place updates), duplicated when it
//     has several; its result then never reaches HBM. It stays a kernel of
//     its own (is "materialized") when a user cannot fuse it: a collective,
//     control flow, a return, another block, a library call (except the
//     layout changes and casts a GEMM reads directly);
//   - a reduction ends an input fusion that holds its producers;
//   - dot_general / convolution run as library calls (cuBLAS, the MXU) that
//     read transposes, reshapes, broadcasts and converts of their operands
//     directly and take one elementwise consumer as their epilogue (bias,
//     activation: cuBLASLt epilogues, TPU output fusion);
//   - dynamic_update_slice and scatter update their operand in place;
//   - a reshape left on its own is a bitcast: no kernel.
//
// A kernel's HBM traffic is what crosses its boundary: each distinct value
// it reads from outside (once, however many members read it) and its root's
// results. Example, layernorm + bias + GELU feeding a matmul:
//
//   %m = reduce(%x) ; %c = x - bcast(m/n) ; %v = reduce(c*c) ;
//   %y = c * rsqrt(bcast(v/n)) * g + b ; %h = dot(%y, %w) ; %a = gelu(%h + bias)
//   -> 4 kernels: input fusion {m}        reads x
//                 input fusion {c, v}     reads x, m            (c duplicated)
//                 loop fusion  {c, y}     reads x, m, v, g, b   writes y
//                 library      {h, +, gelu} reads y, w, bias    writes a
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/Module.h"
#include "support/Csr.h"

namespace autopart {

enum class KernelKind : uint8_t {
  Loop,     // loop fusion of elementwise and data-movement ops
  Input,    // ends in a reduction
  Library,  // a dot or convolution, maybe with an epilogue
  InPlace,  // dynamic_update_slice / scatter into their operand's buffer
  Other,    // any other op priced as a kernel of its own (sort, custom calls, ...)
  Bitcast,  // a lone reshape: no data moves
};

const char *kernelKindName(KernelKind kind);

struct KernelRead {
  uint32_t site;     // the member that reads it
  uint32_t operand;  // operand number of that member's op
  // A slice or gather reads only what it returns, not its whole operand.
  bool sliced = false;
};

struct Kernel {
  KernelKind kind = KernelKind::Loop;
  uint32_t root = 0;              // the site whose results the kernel writes
  std::vector<uint32_t> members;  // sites, root included, ascending
  std::vector<KernelRead> reads;  // distinct values read from outside
  // In-place kernels write the update (this operand of the root), not the
  // whole result buffer.
  int32_t writtenOperand = -1;
};

struct KernelPlan {
  std::vector<Kernel> kernels;  // ascending by root site
  // Per site: the kernel whose FLOPs include the site's (its first kernel in
  // program order), or kNoKernel for ops that are no kernel (free ops,
  // reshards, control flow).
  static constexpr uint32_t kNoKernel = ~0u;
  std::vector<uint32_t> owner;
  // Per site: every kernel the site belongs to, ascending (a duplicated
  // producer belongs to each of its consumers').
  Csr memberships;
};

// Groups `siteOps` (the simulator's sites in program order) into kernels.
// `blockSites` lists, per block instance the simulator flattened, the sites
// of that block's own ops in order; fusion never crosses a block instance.
// With `fuse` false every priced op is a kernel of its own (the unfused
// model, for comparison).
KernelPlan formKernels(const Module &m, std::span<const OpId> siteOps,
                       std::span<const std::vector<uint32_t>> blockSites, bool fuse = true);

}  // namespace autopart
