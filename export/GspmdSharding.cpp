#include "export/GspmdSharding.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace autopart {

namespace {

// One dimension of the device array: the part of mesh axis `axis` between
// the multiplicative offsets lo and hi (its size is hi / lo).
struct Piece {
  int axis;
  int64_t lo, hi;
  int64_t size() const { return hi / lo; }
};

std::string join(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

bool isIota(const std::vector<int64_t> &ids) {
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] != int64_t(i)) return false;
  return true;
}

}  // namespace

std::string gspmdTuple(const std::vector<std::string> &elements) {
  std::string s = "{";
  for (size_t i = 0; i < elements.size(); ++i) s += (i ? ", " : "") + elements[i];
  return s + "}";
}

std::string gspmdSharding(const TensorSharding &s, const Mesh &mesh, std::string *error) {
  if (!s.unreduced.empty()) {
    *error = "unreduced axes have no GSPMD sharding string";
    return "";
  }
  if (mesh.isMaximal()) return "{maximal device=" + std::to_string(mesh.deviceIds[0]) + "}";
  if (std::string bad = s.verify(mesh, int64_t(s.rank())); !bad.empty()) {
    *error = bad;
    return "";
  }
  bool anySharded = false;
  for (const DimSharding &d : s.dims)
    for (const AxisRef &a : d.axes) anySharded |= a.size(mesh) > 1;
  if (!anySharded) return "{replicated}";

  // Split each mesh axis at the boundaries of the sub-axes that use it.
  std::vector<std::set<int64_t>> bounds(mesh.axes.size());
  for (size_t i = 0; i < mesh.axes.size(); ++i) bounds[i] = {1, mesh.axes[i].size};
  for (const DimSharding &d : s.dims)
    for (const AxisRef &a : d.axes)
      if (a.isSubAxis()) {
        int i = mesh.axisIndex(a.name);
        bounds[i].insert(a.preSize);
        bounds[i].insert(a.preSize * a.subSize);
      }
  std::vector<Piece> pieces;
  for (size_t i = 0; i < mesh.axes.size(); ++i)
    for (auto it = bounds[i].begin(); std::next(it) != bounds[i].end(); ++it)
      pieces.push_back({int(i), *it, *std::next(it)});

  // Device-array dimensions per tensor dimension, then the unused ones.
  std::vector<int64_t> perm, tile;
  std::vector<bool> used(pieces.size(), false);
  for (const DimSharding &d : s.dims) {
    int64_t n = 1;
    for (const AxisRef &a : d.axes) {
      int axis = mesh.axisIndex(a.name);
      int64_t lo = a.isSubAxis() ? a.preSize : 1, hi = a.isSubAxis() ? a.preSize * a.subSize : mesh.axes[axis].size;
      for (size_t p = 0; p < pieces.size(); ++p)
        if (pieces[p].axis == axis && pieces[p].lo >= lo && pieces[p].hi <= hi) {
          perm.push_back(int64_t(p));
          used[p] = true;
          n *= pieces[p].size();
        }
    }
    tile.push_back(n);
  }
  int64_t replicated = 1;
  for (size_t p = 0; p < pieces.size(); ++p)
    if (!used[p]) {
      perm.push_back(int64_t(p));
      replicated *= pieces[p].size();
    }
  if (replicated > 1) tile.push_back(replicated);
  std::string suffix = replicated > 1 ? " last_tile_dim_replicate" : "";

  // Drop size-1 array dimensions (renumbering the rest in source order),
  // then merge runs that stay adjacent and in order after the transpose.
  std::vector<int64_t> sizes, compact(pieces.size(), -1);
  for (size_t p = 0; p < pieces.size(); ++p)
    if (pieces[p].size() > 1) {
      compact[p] = int64_t(sizes.size());
      sizes.push_back(pieces[p].size());
    }
  std::vector<std::vector<int64_t>> runs;
  for (int64_t p : perm) {
    if (compact[p] < 0) continue;
    int64_t c = compact[p];
    if (!runs.empty() && runs.back().back() + 1 == c) {
      runs.back().push_back(c);
      continue;
    }
    runs.push_back({c});
  }
  // Source order of the runs gives the reshape dimensions.
  std::vector<size_t> order(runs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return runs[a][0] < runs[b][0]; });
  std::vector<int64_t> reshape(runs.size()), newPerm(runs.size());
  std::vector<size_t> rankOf(runs.size());
  for (size_t k = 0; k < order.size(); ++k) {
    int64_t n = 1;
    for (int64_t p : runs[order[k]]) n *= sizes[p];
    reshape[k] = n;
    rankOf[order[k]] = k;
  }
  bool identity = true;
  for (size_t r = 0; r < runs.size(); ++r) {
    newPerm[r] = int64_t(rankOf[r]);
    identity &= newPerm[r] == int64_t(r);
  }
  int64_t total = mesh.numDevices();

  if (!mesh.deviceIds.empty() && !isIota(mesh.deviceIds)) {
    // Explicit devices: enumerate the transposed array.
    std::vector<int64_t> devices;
    devices.reserve(size_t(total));
    std::vector<int64_t> strides(reshape.size(), 1);
    for (size_t k = reshape.size(); k-- > 1;) strides[k - 1] = strides[k] * reshape[k];
    std::vector<int64_t> idx(runs.size(), 0);  // index over the transposed dims
    for (int64_t n = 0; n < total; ++n) {
      int64_t src = 0;
      for (size_t r = 0; r < runs.size(); ++r) src += idx[r] * strides[size_t(newPerm[r])];
      devices.push_back(mesh.deviceIds[size_t(src)]);
      for (size_t r = runs.size(); r-- > 0;) {
        if (++idx[r] < reshape[size_t(newPerm[r])]) break;
        idx[r] = 0;
      }
    }
    return "{devices=[" + join(tile) + "]" + join(devices) + suffix + "}";
  }
  std::string out = "{devices=[" + join(tile) + "]<=[";
  if (identity) return out + std::to_string(total) + "]" + suffix + "}";
  out += join(reshape) + "]T(";
  out += join(newPerm) + ")";
  return out + suffix + "}";
}

}  // namespace autopart
