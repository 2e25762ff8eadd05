#include "export/GspmdSharding.h"

#include <algorithm>
#include <cctype>
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

std::string upper(std::string s) {
  for (char &c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string reductionMetadata(const TensorSharding &s) {
  std::string kind = s.unreducedKind.empty() ? "SUM" : upper(s.unreducedKind);
  return " metadata={op_type=\"sdy::reduction_op\" op_name=\"" + kind + "\"}";
}

// --- V3 ------------------------------------------------------------------

std::string v3Axis(const AxisRef &a) {
  std::string s = "'" + a.name + "'";
  if (a.isSubAxis()) s += ":(" + std::to_string(a.preSize) + ")" + std::to_string(a.subSize);
  return s;
}

std::string v3List(const std::vector<AxisRef> &axes) {
  std::string s = "{";
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + v3Axis(axes[i]);
  return s + "}";
}

std::string v3Sharding(const TensorSharding &s, const Mesh &mesh, const GspmdOptions &opts) {
  if (mesh.isMaximal()) return "{single_device[device_id=" + std::to_string(mesh.deviceIds[0]) + "]}";
  std::string out = "{mesh[";
  for (size_t i = 0; i < mesh.axes.size(); ++i)
    out += (i ? "," : "") + ("'" + mesh.axes[i].name + "'=") + std::to_string(mesh.axes[i].size);
  out += "]";
  if (!mesh.deviceIds.empty() && !isIota(mesh.deviceIds)) {
    out += ", device_ids=(";
    out += join(mesh.deviceIds);
    out += ")";
  }
  bool anyDim = false;
  for (const DimSharding &d : s.dims) anyDim |= !d.axes.empty() || !d.closed;
  std::vector<AxisRef> manual;
  for (const std::string &a : opts.manualAxes) manual.push_back({a});
  bool fullyManual = !manual.empty() && manual.size() == mesh.axes.size() && !anyDim && s.replicated.empty() &&
                     s.unreduced.empty();
  if (fullyManual) return out + ", manual}";
  if (s.dims.empty() && s.replicated.empty() && s.unreduced.empty() && manual.empty()) return out + ", replicated}";
  out += ", [";
  for (size_t i = 0; i < s.dims.size(); ++i) {
    const DimSharding &d = s.dims[i];
    out += i ? ", {" : "{";
    for (size_t k = 0; k < d.axes.size(); ++k) out += (k ? ", " : "") + v3Axis(d.axes[k]);
    if (!d.closed) out += d.axes.empty() ? "?" : ", ?";
    out += "}";
  }
  out += "]";
  if (!s.replicated.empty()) out += ", replicated=" + v3List(s.replicated);
  if (!s.unreduced.empty()) out += ", unreduced=" + v3List(s.unreduced);
  if (!manual.empty()) out += ", manual=" + v3List(manual);
  return out + "}";
}

}  // namespace

std::string escapeGspmd(const std::string &g) {
  std::string out;
  for (char c : g) {
    if (c == '"') out += "\\22";
    else if (c == '\\') out += "\\\\";
    else out += c;
  }
  return out;
}

std::string gspmdTuple(const std::vector<std::string> &elements) {
  std::string s = "{";
  for (size_t i = 0; i < elements.size(); ++i) s += (i ? ", " : "") + elements[i];
  return s + "}";
}

std::string gspmdSharding(const TensorSharding &s, const Mesh &mesh, std::string *error, const GspmdOptions &opts) {
  if (!mesh.isMaximal())
    if (std::string bad = s.verify(mesh, int64_t(s.rank())); !bad.empty()) {
      *error = bad;
      return "";
    }
  for (const std::string &a : opts.manualAxes)
    if (mesh.axisIndex(a) < 0) {
      *error = "manual axis \"" + a + "\" is not in the mesh";
      return "";
    }
  if (opts.v3) return v3Sharding(s, mesh, opts);
  if (mesh.isMaximal()) return "{maximal device=" + std::to_string(mesh.deviceIds[0]) + "}";

  // The groups of axes, one per tile dimension: the tensor's dimensions,
  // then the manual and unreduced subgroups.
  std::vector<std::vector<AxisRef>> groups;
  for (const DimSharding &d : s.dims) groups.push_back(d.axes);
  std::vector<AxisRef> manual;
  for (const std::string &a : opts.manualAxes)
    if (mesh.axisSize(a) > 1) manual.push_back({a});
  std::vector<AxisRef> unreduced;
  for (const AxisRef &a : s.unreduced)
    if (a.size(mesh) > 1) unreduced.push_back(a);
  std::vector<std::string> subgroupTypes;
  if (!manual.empty()) {
    groups.push_back(manual);
    subgroupTypes.push_back("manual");
  }
  if (!unreduced.empty()) {
    groups.push_back(unreduced);
    subgroupTypes.push_back("unreduced");
  }
  bool anySharded = false;
  for (const DimSharding &d : s.dims)
    for (const AxisRef &a : d.axes) anySharded |= a.size(mesh) > 1;
  int64_t total = mesh.numDevices();
  int64_t manualSize = 1, unreducedSize = 1;
  for (const AxisRef &a : manual) manualSize *= a.size(mesh);
  for (const AxisRef &a : unreduced) unreducedSize *= a.size(mesh);
  if (!anySharded) {
    if (manual.empty() && unreduced.empty()) return "{replicated}";
    if (unreduced.empty() && manualSize == total) return "{manual}";
    if (manual.empty() && unreducedSize == total) return "{unreduced" + reductionMetadata(s) + "}";
  }

  // Split each mesh axis at the boundaries of the sub-axes that use it.
  std::vector<std::set<int64_t>> bounds(mesh.axes.size());
  for (size_t i = 0; i < mesh.axes.size(); ++i) bounds[i] = {1, mesh.axes[i].size};
  for (const std::vector<AxisRef> &g : groups)
    for (const AxisRef &a : g)
      if (a.isSubAxis()) {
        int i = mesh.axisIndex(a.name);
        bounds[i].insert(a.preSize);
        bounds[i].insert(a.preSize * a.subSize);
      }
  std::vector<Piece> pieces;
  for (size_t i = 0; i < mesh.axes.size(); ++i)
    for (auto it = bounds[i].begin(); std::next(it) != bounds[i].end(); ++it)
      pieces.push_back({int(i), *it, *std::next(it)});

  // Device-array dimensions per group, then the unused ones.
  std::vector<int64_t> perm, tile;
  std::vector<bool> used(pieces.size(), false);
  for (const std::vector<AxisRef> &g : groups) {
    int64_t n = 1;
    for (const AxisRef &a : g) {
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
  if (replicated > 1) {
    tile.push_back(replicated);
    subgroupTypes.push_back("replicated");
  }
  std::string suffix;
  if (subgroupTypes.size() == 1 && subgroupTypes[0] == "replicated") {
    suffix = " last_tile_dim_replicate";
  } else if (!subgroupTypes.empty()) {
    suffix = " last_tile_dims={";
    for (size_t i = 0; i < subgroupTypes.size(); ++i) suffix += (i ? ", " : "") + subgroupTypes[i];
    suffix += "}";
  }
  if (!unreduced.empty()) suffix += reductionMetadata(s);

  // Drop size-1 array dimensions (renumbering the rest in source order),
  // then merge runs that stay adjacent and in order after the transpose.
  // Pieces are in device-array order already: axes major to minor, and
  // within an axis the major part (pre-size 1) first.
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
    // XLA keeps the devices of each replicated group sorted.
    if (replicated > 1)
      for (size_t g = 0; g < devices.size(); g += size_t(replicated))
        std::sort(devices.begin() + std::ptrdiff_t(g), devices.begin() + std::ptrdiff_t(g + size_t(replicated)));
    return "{devices=[" + join(tile) + "]" + join(devices) + suffix + "}";
  }
  std::string out = "{devices=[" + join(tile) + "]<=[";
  if (identity) return out + std::to_string(total) + "]" + suffix + "}";
  out += join(reshape) + "]T(";
  out += join(newPerm) + ")";
  return out + suffix + "}";
}

}  // namespace autopart
