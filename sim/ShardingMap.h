// The sharding of every value as the simulator sees it, indexed by ValueId,
// plus the meshes they refer to. Read once from a module's annotations
// (ir/ValueSharding.h says where each value's sharding is); the search then
// edits it in place and the simulator re-evaluates only what changed.
//
//   sdy.mesh @mesh = <["data"=8]>
//   func.func @f(%arg0: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
//   -> get(%arg0) = [{"data"}, {}] on mesh("mesh") = ["data"=8]; every other value null
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

class ShardingMap {
public:
  ShardingMap() = default;
  static ShardingMap fromModule(const Module &m);

  // Null when the value carries no sharding (unsharded, fully replicated).
  const TensorSharding *get(ValueId v) const {
    return v < values_.size() && values_[v] ? &*values_[v] : nullptr;
  }
  void set(ValueId v, TensorSharding s);
  void clear(ValueId v);
  size_t size() const { return values_.size(); }

  // The mesh a sharding refers to (its inline mesh or the named `sdy.mesh`),
  // null when unknown.
  const Mesh *mesh(const TensorSharding &s) const;
  const Mesh *mesh(const std::string &name) const;
  void addMesh(const std::string &name, Mesh mesh) { meshes_[name] = std::move(mesh); }
  const std::map<std::string, Mesh> &meshes() const { return meshes_; }
  // The mesh of an sdy.manual_computation (or named computation): its first
  // in sharding's, else its first out sharding's; null when it has none.
  const Mesh *computationMesh(const Module &m, OpId op) const;

private:
  std::vector<std::optional<TensorSharding>> values_;
  std::map<std::string, Mesh> meshes_;
};

}  // namespace autopart
