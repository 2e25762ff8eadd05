#include "ir/Sharding.h"

#include <algorithm>
#include <cctype>

namespace autopart {

int64_t Mesh::numDevices() const {
  if (axes.empty()) return deviceIds.empty() ? 1 : int64_t(deviceIds.size());
  int64_t n = 1;
  for (const MeshAxis &a : axes) n *= a.size;
  return n;
}

int Mesh::axisIndex(std::string_view name) const {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].name == name) return int(i);
  return -1;
}

int64_t Mesh::axisSize(std::string_view name) const {
  int i = axisIndex(name);
  return i < 0 ? 0 : axes[size_t(i)].size;
}

std::string Mesh::str() const {
  std::string s = "<[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) s += ", ";
    s += '"' + axes[i].name + "\"=" + std::to_string(axes[i].size);
  }
  s += ']';
  if (!deviceIds.empty()) {
    s += ", device_ids=[";
    for (size_t i = 0; i < deviceIds.size(); ++i) {
      if (i) s += ", ";
      s += std::to_string(deviceIds[i]);
    }
    s += ']';
  }
  return s + '>';
}

int64_t AxisRef::size(const Mesh &mesh) const {
  return isSubAxis() ? subSize : mesh.axisSize(name);
}

bool AxisRef::overlaps(const AxisRef &other, const Mesh &mesh) const {
  if (name != other.name) return false;
  int64_t full = mesh.axisSize(name);
  int64_t lo1 = isSubAxis() ? preSize : 1, hi1 = isSubAxis() ? preSize * subSize : full;
  int64_t lo2 = other.isSubAxis() ? other.preSize : 1;
  int64_t hi2 = other.isSubAxis() ? other.preSize * other.subSize : full;
  return std::max(lo1, lo2) < std::min(hi1, hi2);
}

std::string AxisRef::str() const {
  std::string s = '"' + name + '"';
  if (isSubAxis())
    s += ":(" + std::to_string(preSize) + ")" + std::to_string(subSize);
  return s;
}

int64_t DimSharding::shardCount(const Mesh &mesh) const {
  int64_t n = 1;
  for (const AxisRef &a : axes) n *= a.size(mesh);
  return n;
}

std::string DimSharding::str() const {
  std::string s = "{";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) s += ", ";
    s += axes[i].str();
  }
  if (!closed) s += axes.empty() ? "?" : ", ?";
  s += '}';
  if (priority) s += 'p' + std::to_string(*priority);
  return s;
}

TensorSharding TensorSharding::open(std::string meshName, size_t rank) {
  TensorSharding s;
  s.meshName = std::move(meshName);
  s.dims.resize(rank);
  for (DimSharding &d : s.dims) d.closed = false;
  return s;
}

TensorSharding TensorSharding::closed(std::string meshName, size_t rank) {
  TensorSharding s;
  s.meshName = std::move(meshName);
  s.dims.resize(rank);
  return s;
}

bool TensorSharding::isFullyReplicated() const {
  for (const DimSharding &d : dims)
    if (!d.axes.empty()) return false;
  return unreduced.empty();
}

int64_t TensorSharding::numShards(const Mesh &mesh) const {
  int64_t n = 1;
  for (const DimSharding &d : dims) n *= d.shardCount(mesh);
  return n;
}

std::vector<int64_t> TensorSharding::localShape(const std::vector<int64_t> &shape,
                                                const Mesh &mesh) const {
  std::vector<int64_t> local = shape;
  for (size_t i = 0; i < local.size() && i < dims.size(); ++i) {
    int64_t n = dims[i].shardCount(mesh);
    if (n > 1 && local[i] > 0) local[i] = (local[i] + n - 1) / n;
  }
  return local;
}

std::vector<AxisRef> TensorSharding::allAxes() const {
  std::vector<AxisRef> all;
  for (const DimSharding &d : dims) all.insert(all.end(), d.axes.begin(), d.axes.end());
  all.insert(all.end(), replicated.begin(), replicated.end());
  all.insert(all.end(), unreduced.begin(), unreduced.end());
  return all;
}

std::string TensorSharding::verify(const Mesh &mesh, int64_t rank) const {
  if (rank >= 0 && int64_t(dims.size()) != rank)
    return "sharding has " + std::to_string(dims.size()) +
           " dimension shardings but the tensor has rank " + std::to_string(rank);
  std::vector<AxisRef> all = allAxes();
  for (size_t i = 0; i < all.size(); ++i) {
    const AxisRef &a = all[i];
    int64_t full = mesh.axisSize(a.name);
    if (mesh.axisIndex(a.name) < 0) return "unknown axis " + a.str();
    if (a.isSubAxis()) {
      if (a.subSize <= 1 || a.preSize < 1 || full % (a.preSize * a.subSize) != 0)
        return "sub-axis " + a.str() + " does not divide axis of size " +
               std::to_string(full);
    }
    for (size_t j = 0; j < i; ++j)
      if (all[j] == a)
        return "axis " + a.str() + " is used more than once";
      else if (all[j].overlaps(a, mesh))
        return "axis " + a.str() + " overlaps " + all[j].str();
  }
  return {};
}

static void appendAxisList(std::string &s, const char *key,
                           const std::vector<AxisRef> &axes, const std::string &kind = {}) {
  if (axes.empty()) return;
  s += ", ";
  s += key;
  s += "=";
  s += kind;
  s += "{";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) s += ", ";
    s += axes[i].str();
  }
  s += '}';
}

namespace {

// `@mesh`, or `@"mesh-1"` when the name is not a bare identifier (MLIR's rule).
std::string meshRef(const std::string &name) {
  bool bare = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name)
    bare &= std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  return bare ? '@' + name : "@\"" + name + '"';
}

}  // namespace

std::string TensorSharding::strBody() const {
  std::string s = "<";
  s += inlineMesh ? "mesh" + inlineMesh->str() : meshRef(meshName);
  s += ", [";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += dims[i].str();
  }
  s += ']';
  appendAxisList(s, "replicated", replicated);
  appendAxisList(s, "unreduced", unreduced, unreducedKind);
  return s + '>';
}

}  // namespace autopart
