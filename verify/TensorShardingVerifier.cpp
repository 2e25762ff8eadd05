#include "verify/TensorShardingVerifier.h"

#include <algorithm>

namespace autopart {

bool verifyTensorSharding(VerifyContext &ctx, const TensorSharding &s, TypeId type,
                          const std::function<void(const std::string &)> &emit) {
  const Module &m = ctx.m;
  // A tuple of one tensor (a custom call's result) is sharded as the tensor.
  if (m.types.get(type).kind == TypeKind::Tuple) {
    if (m.types.get(type).members.size() != 1) {
      emit("ops can only have a sharding for a tuple of size 1");
      return false;
    }
    type = m.types.get(type).members[0];
  }
  const TypeStorage &t = m.types.get(type);
  if (t.kind == TypeKind::UnrankedTensor) {
    emit("only ranked tensors can have a sharding");
    return false;
  }
  const Mesh *mesh = ctx.mesh(s);
  if (!mesh) {
    emit("unknown mesh: @" + s.meshName);
    return false;
  }
  // A maximal sharding places the whole value on one device: it names no
  // dimension, whatever the value's rank.
  if (mesh->isMaximal()) {
    if (s.rank() != 0 || !s.replicated.empty() || !s.unreduced.empty()) {
      emit("a maximal sharding can only have a sharding with rank 0 and no replicated or "
           "unreduced axes");
      return false;
    }
    return true;
  }
  if (t.kind != TypeKind::Tensor) {
    if (s.rank() != 0 || !s.replicated.empty() || !s.unreduced.empty()) {
      emit("non-shaped tensors can only have a sharding with rank 0 and no replicated or "
           "unreduced axes");
      return false;
    }
  } else if (int64_t(s.rank()) != int64_t(t.shape.size())) {
    emit("sharding doesn't match tensor rank: " + std::to_string(s.rank()) +
         " != " + std::to_string(t.shape.size()));
    return false;
  }
  for (size_t d = 0; d < s.dims.size(); ++d)
    if (s.dims[d].axes.empty() && s.dims[d].closed && s.dims[d].priority) {
      emit("dim " + std::to_string(d) + " is empty and closed but has a priority");
      return false;
    }
  std::vector<AxisRef> all = s.allAxes();
  for (size_t i = 0; i < all.size(); ++i) {
    if (mesh->axisIndex(all[i].name) < 0) {
      emit("unknown axis name: \"" + all[i].name + "\"");
      return false;
    }
    if (std::find(all.begin(), all.begin() + i, all[i]) != all.begin() + i) {
      emit("duplicate axis ref: " + all[i].str());
      return false;
    }
  }
  return true;
}

}  // namespace autopart
