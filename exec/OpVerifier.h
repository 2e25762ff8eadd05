// The executor's op verifier: before a kernel runs, its op is checked
// against the constraints of StableHLO's spec that keep the kernel inside
// its buffers (ranks and dimension sizes of operands and results, dimension
// numbers in range and distinct, slice/pad/window bounds, region
// signatures). Kernels loop over flat buffers sized by the declared result
// type and index operands with the op's attributes, so a program the parser
// accepts but the spec does not (hand-edited, mutated) must stop here with a
// located error instead of reading or writing past a buffer:
//
//   %r = stablehlo.slice %x [0:4:0] : (tensor<4xf32>) -> tensor<4xf32>
//   -> f.mlir:2:8: error: stablehlo.slice: stride 0 of dimension 0 is not positive
//
// The checks are a table keyed by op name, filled by one file per op family
// (ElementwiseVerifier.cpp, ShapeVerifier.cpp, IndexingVerifier.cpp,
// ContractionVerifier.cpp, ReductionVerifier.cpp, ControlVerifier.cpp):
//
//   static OpCheckRegistration reg({"stablehlo.transpose"}, checkTranspose);
//
// Two generic checks keep "every value holds what its type says" true for
// the ops without an entry too: a kernel's results are compared with the
// declared result types, and a region's arguments with its block's types.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "exec/Interpreter.h"

namespace autopart::exec {

// What a check sees of one op, with helpers that throw ExecError naming the
// op ("stablehlo.gather: ...") on a violation.
class OpCheck {
public:
  OpCheck(const Interpreter &I, OpId op) : I(I), m(I.m), op(op), name(I.m.opName(op)) {}
  const Interpreter &I;
  const Module &m;
  OpId op;
  std::string_view name;

  [[noreturn]] void fail(const std::string &msg) const;
  const Tensor &in(uint32_t i) const { return I.in(op, i); }
  uint32_t numOperands() const { return m.numOperands(op); }
  uint32_t numResults() const { return m.numResults(op); }

  // Exact counts of operands, results and regions (kAny: not checked).
  static constexpr uint32_t kAny = ~0u;
  void counts(uint32_t operands, uint32_t results, uint32_t regions = 0) const;
  void atLeastOperands(uint32_t n) const;

  // An attribute's integers (array, dense or a field of a dimension-numbers
  // attribute); empty when absent.
  std::vector<int64_t> ints(std::string_view attr) const { return I.ints(op, attr); }
  std::vector<int64_t> field(std::string_view attr, std::string_view key) const;
  bool hasField(std::string_view attr, std::string_view key) const;
  int64_t fieldInt(std::string_view attr, std::string_view key, int64_t dflt) const;
  bool has(std::string_view attr) const { return m.hasAttr(op, attr); }

  // Result `i`'s declared shape, or nullptr when it is not a static tensor.
  const std::vector<int64_t> *resultShape(uint32_t i = 0) const;
  // The declared result shape must be `want` (when static).
  void resultShapeIs(uint32_t i, const std::vector<int64_t> &want) const;
  // The declared result element type must be `t`'s.
  void resultElementIs(uint32_t i, const Tensor &t) const;
  void resultIsLike(uint32_t i, const Tensor &t) const {
    resultShapeIs(i, t.shape);
    resultElementIs(i, t);
  }
  // `t` must be a tensor (not a tuple or token), optionally of a rank.
  void isTensor(const Tensor &t, const std::string &what, int64_t rank = -1) const;
  void sameElement(const Tensor &a, const Tensor &b, const std::string &what) const;
  void sameShape(const Tensor &a, const Tensor &b, const std::string &what) const;

  // Every entry of `dims` in [0, rank), and distinct when `unique`.
  void dimsInRange(const std::vector<int64_t> &dims, int64_t rank, const std::string &what, bool unique = true) const;
  void sizeIs(const std::vector<int64_t> &v, size_t n, const std::string &what) const;
  void allPositive(const std::vector<int64_t> &v, const std::string &what) const;

  // Region `r` takes scalars of `argElements` and returns scalars of
  // `resultElements` (element type names such as "f32"; "" matches any).
  void scalarRegion(uint32_t r, const std::vector<std::string_view> &argElements,
                    const std::vector<std::string_view> &resultElements) const;
  // Region `r`'s block takes `args` and returns values of the same types as
  // `results` (tensors compared by element type and shape).
  void regionTypes(uint32_t r, const std::vector<const Tensor *> &args, const std::vector<TypeId> &results) const;
  // The types the region's terminator returns.
  std::vector<TypeId> regionReturnTypes(uint32_t r) const;
  std::string typeStr(TypeId t) const { return std::string(m.types.str(t)); }
};

using OpCheckFn = void (*)(const OpCheck &);

// `readsValues`: the check reads operand values (dynamic_gather's slice
// sizes, dynamic_pad's paddings), so it must run every time.
struct OpCheckRegistration {
  OpCheckRegistration(std::initializer_list<const char *> names, OpCheckFn fn, bool readsValues = false);
};

// Runs the registered check of `op`, if any. Throws ExecError. Returns true
// when passing it once is enough: the check depends only on the operands'
// types and the op's attributes, and the operand types are static (values
// always hold their declared types, see verifyResults), so the interpreter
// skips it when the op runs again (a region called per element).
bool verifyOp(const Interpreter &I, OpId op);
// After the kernel: each result (in `values`, indexed by ValueId) holds its
// declared type (static tensors).
void verifyResults(const Interpreter &I, OpId op, const std::vector<TensorPtr> &values);
// Before a region runs: each argument has its block argument's type.
void verifyRegionArguments(const Interpreter &I, RegionId r, const std::vector<TensorPtr> &args);

// Whether runtime tensor `t` has the static tensor type `ty` (true when `ty`
// is not a static tensor type: nothing to compare).
bool holdsType(const TypeTable &types, const Tensor &t, TypeId ty);

// The spec's num_windows of one dimension of a windowed op (convolution
// C25, reduce_window C15, select_and_scatter C2): how many windows of size
// `window` dilated by `windowDil` fit, `stride` apart, in the input of size
// `in` dilated by `baseDil` and padded by `padLo` / `padHi`.
int64_t numWindows(int64_t in, int64_t baseDil, int64_t padLo, int64_t padHi, int64_t window, int64_t windowDil,
                   int64_t stride);

// "[2, 3]" for diagnostics.
std::string dimsString(const std::vector<int64_t> &v);

}  // namespace autopart::exec
