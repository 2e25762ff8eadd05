// Types of the autopart IR, interned: a type is a 32-bit TypeId into the
// module's TypeTable, so that comparing two types is comparing two integers and
// a million ops of `tensor<8x1024xf32>` share one storage.
//
//   f32                      -> Scalar, elementBits=32, isFloat
//   tensor<8x?x4xbf16>       -> Tensor, shape {8, kDynamic, 4}, element bf16
//   tensor<4xf32, #enc>      -> Tensor with encoding text "#enc"
//   !stablehlo.token         -> Token
//   tuple<tensor<f32>, i32>  -> Tuple, members {tensor<f32>, i32}
//   !quant.uniform<...>      -> Opaque, printed back as written
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace autopart {

using TypeId = uint32_t;
inline constexpr TypeId kNoType = 0xffffffffu;
inline constexpr int64_t kDynamic = -1;

enum class TypeKind : uint8_t {
  Scalar,    // integer, float, complex, index: the element types.
  Tensor,    // ranked tensor of a scalar (or opaque) element type.
  UnrankedTensor,
  Token,     // !stablehlo.token
  Tuple,
  Function,  // (inputs) -> results, used by func.func's function_type.
  None,      // `none`
  Opaque,    // anything else (quantized, dialect types): kept as text.
};

enum class ScalarClass : uint8_t { Int, UInt, SignlessInt, Float, Complex, Index };

struct TypeStorage {
  TypeKind kind = TypeKind::Opaque;
  ScalarClass scalarClass = ScalarClass::Float;
  // Bits per element for Scalar (complex<f32> is 64); for tensors, the
  // element's.
  uint32_t bits = 0;
  TypeId element = kNoType;     // Tensor / UnrankedTensor element type.
  std::vector<int64_t> shape;   // Tensor dims, kDynamic for `?`.
  std::vector<TypeId> members;  // Tuple members, Function inputs.
  std::vector<TypeId> results;  // Function results.
  std::string text;             // Canonical spelling (printing, interning).
};

class TypeTable {
public:
  TypeTable();

  const TypeStorage &get(TypeId id) const { return types_[id]; }
  std::string_view str(TypeId id) const { return types_[id].text; }
  size_t size() const { return types_.size(); }

  TypeId scalar(std::string_view spelling);  // "f32", "i1", "complex<f32>"
  TypeId tensor(const std::vector<int64_t> &shape, TypeId element,
                std::string_view encoding = {});
  TypeId unrankedTensor(TypeId element);
  TypeId token();
  TypeId none();
  TypeId tuple(const std::vector<TypeId> &members);
  TypeId function(const std::vector<TypeId> &inputs,
                  const std::vector<TypeId> &results);
  TypeId opaque(std::string_view text);
  // Fast path for the parser: the id of a type whose canonical spelling is
  // exactly `text`, or kNoType.
  TypeId lookup(std::string_view text) const;

  // Shorthands used all over the pipeline.
  bool isTensor(TypeId id) const { return types_[id].kind == TypeKind::Tensor; }
  const std::vector<int64_t> &shape(TypeId id) const { return types_[id].shape; }
  int64_t rank(TypeId id) const { return int64_t(types_[id].shape.size()); }
  bool hasDynamicDim(TypeId id) const;
  // Elements of a static tensor (1 for scalars, 0 for tokens).
  int64_t numElements(TypeId id) const;
  // Bytes of a static tensor; sub-byte types round up per tensor.
  int64_t byteSize(TypeId id) const;
  uint32_t elementBits(TypeId id) const;
  TypeId elementType(TypeId id) const { return types_[id].element; }
  bool isFloatElement(TypeId id) const;
  bool isIntegerElement(TypeId id) const;

private:
  TypeId intern(TypeStorage &&storage);
  std::deque<TypeStorage> types_;  // deque: `text` views stay valid.
  std::unordered_map<std::string_view, TypeId> byText_;
};

}  // namespace autopart
