#include "xla/TileMesh.h"

#include <algorithm>
#include <set>

namespace autopart {

namespace {

std::vector<int64_t> primeFactors(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      out.push_back(p);
      n /= p;
    }
  if (n > 1) out.push_back(n);
  return out;
}

struct Piece {
  size_t dim;
  int64_t size;
  int64_t stride = 0;  // in mesh positions
};

// Checks one factorisation (pieces in tile order, row-major) against the
// positions; fills the strides on success.
bool linear(std::vector<Piece> &pieces, const std::vector<int64_t> &positions) {
  if (positions.empty() || positions[0] != 0) return false;
  std::vector<int64_t> flatStride(pieces.size(), 1);
  for (size_t k = pieces.size(); k-- > 1;) flatStride[k - 1] = flatStride[k] * pieces[k].size;
  for (size_t k = 0; k < pieces.size(); ++k) pieces[k].stride = positions[size_t(flatStride[k])];
  std::vector<size_t> order(pieces.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return pieces[a].stride < pieces[b].stride; });
  int64_t expect = 1;
  for (size_t k : order) {
    if (pieces[k].stride != expect) return false;
    expect *= pieces[k].size;
  }
  std::vector<int64_t> digit(pieces.size(), 0);
  int64_t pos = 0;
  for (size_t t = 0; t < positions.size(); ++t) {
    if (positions[t] != pos) return false;
    for (size_t k = pieces.size(); k-- > 0;) {
      pos += pieces[k].stride;
      if (++digit[k] < pieces[k].size) break;
      pos -= pieces[k].stride * pieces[k].size;
      digit[k] = 0;
    }
  }
  return true;
}

}  // namespace

std::optional<LocalMesh> analyzeTileAssignment(const std::vector<int64_t> &tileDims,
                                               const std::vector<int64_t> &positions) {
  // Each dimension's prime factors, in every distinct order (major first);
  // powers of one prime have a single order.
  std::vector<std::vector<int64_t>> factors;
  for (int64_t d : tileDims) {
    factors.push_back(primeFactors(d));
    std::sort(factors.back().begin(), factors.back().end());
  }
  std::vector<std::vector<int64_t>> current = factors;
  size_t tried = 0;
  for (;;) {
    std::vector<Piece> pieces;
    for (size_t d = 0; d < current.size(); ++d)
      for (int64_t f : current[d]) pieces.push_back({d, f});
    if (linear(pieces, positions)) {
      // Merge factors adjacent in one dimension that continue each other.
      std::vector<Piece> merged;
      for (const Piece &p : pieces) {
        if (!merged.empty() && merged.back().dim == p.dim && merged.back().stride == p.stride * p.size) {
          merged.back().size *= p.size;
          merged.back().stride = p.stride;
          continue;
        }
        merged.push_back(p);
      }
      std::vector<size_t> order(merged.size());
      for (size_t k = 0; k < order.size(); ++k) order[k] = k;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return merged[a].stride > merged[b].stride; });
      std::vector<size_t> axisOf(merged.size());
      LocalMesh out;
      for (size_t k = 0; k < order.size(); ++k) {
        axisOf[order[k]] = k;
        out.axisSizes.push_back(merged[order[k]].size);
      }
      out.dimAxes.resize(tileDims.size());
      for (size_t k = 0; k < merged.size(); ++k) out.dimAxes[merged[k].dim].push_back(axisOf[k]);
      return out;
    }
    // Next combination of orders (odometer over dimensions).
    size_t d = 0;
    for (; d < current.size(); ++d) {
      if (std::next_permutation(current[d].begin(), current[d].end())) break;
      // next_permutation wrapped around to sorted order; carry.
    }
    if (d == current.size() || ++tried > 4096) return std::nullopt;
  }
}

std::optional<std::vector<int64_t>> commonAxisSizes(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  std::set<int64_t> bounds;
  int64_t pa = 1, pb = 1;
  for (int64_t s : a) bounds.insert(pa *= s);
  for (int64_t s : b) bounds.insert(pb *= s);
  if (pa != pb) return std::nullopt;
  std::vector<int64_t> out;
  int64_t prev = 1;
  for (int64_t x : bounds) {
    if (x % prev != 0) return std::nullopt;
    if (x != prev) out.push_back(x / prev);
    prev = x;
  }
  return out;
}

std::vector<AxisRef> globalAxesOf(const LocalMesh &local, size_t axis, const Mesh &mesh, std::string *error) {
  // Positions are mixed radix, major first: an axis spans strides [lo, hi).
  int64_t lo = 1;
  for (size_t k = axis + 1; k < local.axisSizes.size(); ++k) lo *= local.axisSizes[k];
  int64_t hi = lo * local.axisSizes[axis];
  std::vector<AxisRef> out;
  int64_t gLo = 1;
  std::vector<std::pair<int64_t, int64_t>> spans(mesh.axes.size());
  for (size_t i = mesh.axes.size(); i-- > 0;) {
    spans[i] = {gLo, gLo * mesh.axes[i].size};
    gLo *= mesh.axes[i].size;
  }
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    auto [aLo, aHi] = spans[i];
    int64_t l = std::max(lo, aLo), h = std::min(hi, aHi);
    if (l >= h) continue;
    if (l % aLo != 0 || aHi % h != 0 || h % l != 0) {
      *error = "tile factor of " + std::to_string(hi / lo) + " does not fall on the factors of mesh axis \"" +
               mesh.axes[i].name + "\"";
      return {};
    }
    if (l == aLo && h == aHi) out.push_back({mesh.axes[i].name});
    else out.push_back({mesh.axes[i].name, aHi / h, h / l});
  }
  return out;
}

}  // namespace autopart
