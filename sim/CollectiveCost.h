// Time of one collective under an α-β model on the mesh axes it spans.
// For a single axis of n devices, link bandwidth bw and latency α, on a
// per-device buffer of B bytes (see sim/Collective.h for which buffer):
//
//   all-gather, reduce-scatter   (n-1)·α + (n-1)/n · B / bw     (ring)
//   all-reduce                   2·((n-1)·α + (n-1)/n · B / bw) (RS + AG)
//                                on a switched link (LinkParams::treeAllReduce)
//                                the smaller of that and the double binary
//                                tree's 2·(⌈log2 n⌉·α + B / bw)
//   all-to-all                   (n-1)·α + (n-1)/n · B / bw
//   collective-permute           α + B / bw
//   collective-broadcast         (n-1)·α + B / bw         (pipelined chain)
//   all-slice                    0 (a local slice)
//
// A collective over several axes runs as one ring per axis, minor axis
// first for a gather (the buffer grows by each axis' size, so the slowest
// stage moves the most bytes) and the reverse for a scatter, which costs the
// same. An all-reduce may also run one full-buffer stage per axis (each a
// ring or a tree), whichever is faster: at 256 devices and α = 10 µs a ring
// spends 5.1 ms in latency alone, a tree 160 µs. Example: all-gather of a
// 64 MiB result over data=8 at 100 GB/s, α = 0: 7/8 · 64 MiB / 100 GB/s =
// 587 µs.
#pragma once

#include "ir/Sharding.h"
#include "sim/Collective.h"
#include "sim/DeviceParams.h"

namespace autopart {

double collectiveSeconds(const Collective &c, const Mesh &mesh, const DeviceParams &device);

}  // namespace autopart
