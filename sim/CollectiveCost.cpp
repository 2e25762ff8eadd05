#include "sim/CollectiveCost.h"

#include <algorithm>
#include <cmath>

namespace autopart {

// One ring over `n` devices ending in a buffer of `bytes`: n-1 steps, each
// device sending (n-1)/n of the buffer.
static double ringStageSeconds(double n, double bytes, const LinkParams &link) {
  return (n - 1) * link.latency + (n - 1) / n * bytes / link.bandwidth;
}

// Ring stages over `axes` ending in a buffer of `bytes`: the stage over the
// minor axis moves the smallest buffer.
static double ringSeconds(const AxisList &axes, double bytes, const Mesh &mesh,
                          const DeviceParams &device) {
  // The stage over axes[i] ends holding bytes / (product of the more major
  // axes' sizes): minor stages move small buffers.
  double seconds = 0, majorProduct = 1;
  for (const AxisRef &a : axes) {
    double n = double(a.size(mesh));
    if (n > 1) seconds += ringStageSeconds(n, bytes / majorProduct, device.link(a.name));
    majorProduct *= n;
  }
  return seconds;
}

// All-reduce as one stage per axis, each reducing the whole buffer: a ring
// (reduce-scatter + all-gather) or, on a switched link, a pipelined double
// binary tree, 2·(⌈log2 n⌉·α + B/bw): each tree moves B once up and once
// down, half through each of the two trees.
static double hierarchicalAllReduceSeconds(const AxisList &axes, double bytes, const Mesh &mesh,
                                           const DeviceParams &device) {
  double seconds = 0;
  for (const AxisRef &a : axes) {
    double n = double(a.size(mesh));
    if (n <= 1) continue;
    const LinkParams &link = device.link(a.name);
    double ring = 2 * ringStageSeconds(n, bytes, link);
    if (link.treeAllReduce) {
      double tree = 2 * (std::ceil(std::log2(n)) * link.latency + bytes / link.bandwidth);
      ring = std::min(ring, tree);
    }
    seconds += ring;
  }
  return seconds;
}

double collectiveSeconds(const Collective &c, const Mesh &mesh, const DeviceParams &device) {
  double bytes = double(c.bytes);
  switch (c.kind) {
  case CollectiveKind::AllSlice:
    return 0;
  case CollectiveKind::AllGather:
  case CollectiveKind::ReduceScatter:
    return ringSeconds(c.axes, bytes, mesh, device);
  case CollectiveKind::AllReduce:
    // NCCL picks between ring and tree by size and scale; so does this.
    return std::min(2 * ringSeconds(c.axes, bytes, mesh, device),
                    hierarchicalAllReduceSeconds(c.axes, bytes, mesh, device));
  case CollectiveKind::AllToAll: {
    double seconds = 0;
    for (const AxisRef &a : c.axes) {
      double n = double(a.size(mesh));
      if (n > 1) seconds += ringStageSeconds(n, bytes, device.link(a.name));
    }
    return seconds;
  }
  case CollectiveKind::Broadcast: {
    // A pipelined chain through the group (NCCL's ring broadcast): the
    // buffer streams through at the slowest link, one latency per hop.
    double n = 1, bw = 0, latency = 0;
    for (const AxisRef &a : c.axes) {
      n *= double(a.size(mesh));
      const LinkParams &link = device.link(a.name);
      bw = bw == 0 ? link.bandwidth : std::min(bw, link.bandwidth);
      latency = std::max(latency, link.latency);
    }
    if (n <= 1) return 0;
    if (bw == 0) bw = device.defaultLink.bandwidth;
    return (n - 1) * latency + bytes / bw;
  }
  case CollectiveKind::CollectivePermute: {
    double bw = 0, latency = 0;
    for (const AxisRef &a : c.axes) {
      const LinkParams &link = device.link(a.name);
      bw = bw == 0 ? link.bandwidth : std::min(bw, link.bandwidth);
      latency = std::max(latency, link.latency);
    }
    if (bw == 0) bw = device.defaultLink.bandwidth;
    return latency + bytes / bw;
  }
  }
  return 0;
}

}  // namespace autopart
