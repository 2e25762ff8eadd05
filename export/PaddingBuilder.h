// The ops pad-for-divisibility adds around the op it rewrites: constants,
// `stablehlo.pad` to grow a tensor, `stablehlo.slice` to trim it back, and the
// iota/compare/select mask that overwrites a padded region with a known value.
// New ops collect in two lists, those to place before the rewritten op and
// those to place after it, so a block is rebuilt in one pass instead of one
// vector insertion per new op. Each new op takes the rewritten op's source
// position; results get `sharding` (when given) as their `sdy.sharding`.
//
//   b.padHigh(%x : tensor<7x8xf32>, tensor<8x8xf32>, %zero, <@mesh, [{"x"}, {}]>)
//   -> %p = stablehlo.pad %x, %zero, low = [0, 0], high = [1, 0], interior = [0, 0]
//          {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
//
//   b.maskBeyond(%p : tensor<8x8xf32>, origShape {7, 8}, %zero, dims {0})
//   -> %i = stablehlo.iota dim = 0 : tensor<8x8xi32>
//      %n = stablehlo.constant dense<7> : tensor<i32>
//      %l = stablehlo.broadcast_in_dim %n, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
//      %k = stablehlo.compare LT, %i, %l : (...) -> tensor<8x8xi1>
//      %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
//      %s = stablehlo.select %k, %p, %z      (rows 7.. now hold zeros)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

// The value a padded region is known to hold.
enum class PaddingKind : uint8_t { Zero, One };

class PaddingBuilder {
public:
  explicit PaddingBuilder(Module &m) : m_(m) {}

  // Starts collecting ops for `anchor` (the op being rewritten).
  void reset(OpId anchor);
  // Whether new ops go after the anchor (trims) rather than before it.
  void placeAfter(bool after) { after_ = after; }
  const std::vector<OpId> &opsBefore() const { return before_; }
  const std::vector<OpId> &opsAfter() const { return afterOps_; }

  // A rank-0 constant of `element` holding `kind`'s value.
  ValueId constant(TypeId element, PaddingKind kind);
  // A rank-0 constant of `element` whose `dense<...>` body is `spelling`.
  ValueId constant(TypeId element, std::string spelling);
  // `input` grown (or shrunk, for negative amounts) at the high end of each
  // dimension to `target`, filled with the scalar `padValue`.
  ValueId padHigh(ValueId input, TypeId target, ValueId padValue, const TensorSharding *sharding);
  // The leading `target`-shaped corner of `input`.
  ValueId sliceTo(ValueId input, TypeId target, const TensorSharding *sharding);
  // `input` with every element at an index >= `origShape` along a padded
  // dimension (one in `dims`, when given) replaced by `padValue`. Returns
  // `input` itself when no such dimension exists.
  ValueId maskBeyond(ValueId input, const std::vector<int64_t> &origShape, ValueId padValue,
                     const std::vector<int64_t> *dims, const TensorSharding *sharding);
  // Places a detached op (one the caller built) like the builder's own.
  void place(OpId op);

private:
  ValueId add(OpId op, const TensorSharding *sharding);

  Module &m_;
  OpId anchor_ = kNone;
  bool after_ = false;
  std::vector<OpId> before_, afterOps_;
};

}  // namespace autopart
