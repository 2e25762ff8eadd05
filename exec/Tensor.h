// Tensors of the executor: a flat, row-major, typed buffer plus its element
// type and shape. Every element type maps to one C++ storage type, so that
// kernels are loops over `T *` chosen once per op (visitStorage), never a
// switch per element:
//
//   tensor<4xi4>      -> DType::SI4,  storage int8_t (kept sign-extended)
//   tensor<2x3xbf16>  -> DType::BF16, storage float (kept rounded to bf16)
//   tensor<complex<f32>> -> DType::C64, storage std::complex<float>
//
// Narrow integers and narrow floats are computed in their storage type and
// then brought back into their own range (normalize): integers wrap, floats
// round to nearest even in their format.
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec/FloatFormat.h"
#include "exec/Quantized.h"
#include "ir/Types.h"

namespace autopart::exec {

enum class Storage : uint8_t { Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, C64, C128, None };

struct DType {
  Storage storage = Storage::None;
  uint8_t bits = 0;          // logical bits (i4: 4, f16: 16, complex<f32>: 64)
  bool isFloat = false;      // real floating point (any format)
  bool isComplex = false;
  bool isSigned = false;     // signed / signless integers
  FloatFormat format;        // narrow floats (f16, bf16, f8*): the format to round to
  std::string name;          // "f32", "ui4", "complex<f32>"
  // Quantized element types: the parameters; the storage is the expressed
  // type's and holds dequantized values (exec/Quantized.h).
  std::shared_ptr<const QuantParams> quant;

  bool isInt() const { return !isFloat && !isComplex && storage != Storage::None; }
  bool isBool() const { return storage == Storage::Bool; }
  bool isNarrowFloat() const { return isFloat && format.valid(); }
  bool isQuantized() const { return quant != nullptr; }
  // Same in-memory representation: the same type, or two quantized types
  // over one expressed type (their values are both dequantized floats).
  bool operator==(const DType &o) const {
    return name == o.name || (quant && o.quant && quant->expressed == o.quant->expressed);
  }
};

// The executor's dtype of an element type (scalar TypeId); throws
// std::runtime_error naming the type when it has no storage here.
DType dtypeOf(const TypeTable &types, TypeId element);
DType dtypeByName(const std::string &name);

size_t storageSize(Storage s);

template <typename T> struct TypeTag { using type = T; };

// Calls fn(TypeTag<T>{}) with T the storage type of `s`.
template <typename Fn> decltype(auto) visitStorage(Storage s, Fn &&fn) {
  switch (s) {
    case Storage::Bool: return fn(TypeTag<uint8_t>{});
    case Storage::I8: return fn(TypeTag<int8_t>{});
    case Storage::I16: return fn(TypeTag<int16_t>{});
    case Storage::I32: return fn(TypeTag<int32_t>{});
    case Storage::I64: return fn(TypeTag<int64_t>{});
    case Storage::U8: return fn(TypeTag<uint8_t>{});
    case Storage::U16: return fn(TypeTag<uint16_t>{});
    case Storage::U32: return fn(TypeTag<uint32_t>{});
    case Storage::U64: return fn(TypeTag<uint64_t>{});
    case Storage::F32: return fn(TypeTag<float>{});
    case Storage::F64: return fn(TypeTag<double>{});
    case Storage::C64: return fn(TypeTag<std::complex<float>>{});
    case Storage::C128: return fn(TypeTag<std::complex<double>>{});
    case Storage::None: break;
  }
  throw std::runtime_error("tensor without element storage");
}

template <typename T> inline constexpr bool kIsComplex = false;
template <typename T> inline constexpr bool kIsComplex<std::complex<T>> = true;
template <typename T> inline constexpr bool kIsFloat = std::is_floating_point_v<T>;
template <typename T> inline constexpr bool kIsInt = std::is_integral_v<T>;

// An allocator that leaves new elements uninitialized, so that a kernel
// that writes every element does not pay for zeroing first.
template <typename T> struct NoInitAllocator : std::allocator<T> {
  template <typename U> struct rebind {
    using other = NoInitAllocator<U>;
  };
  NoInitAllocator() = default;
  template <typename U> NoInitAllocator(const NoInitAllocator<U> &) {}
  template <typename U> void construct(U *) {}
  template <typename U, typename... A> void construct(U *p, A &&...a) { ::new ((void *)p) U(std::forward<A>(a)...); }
};
using ByteBuffer = std::vector<unsigned char, NoInitAllocator<unsigned char>>;

struct Tensor;
using TensorPtr = std::shared_ptr<Tensor>;

struct Tensor {
  DType dtype;
  std::vector<int64_t> shape;
  ByteBuffer bytes;
  bool isToken = false;
  std::vector<TensorPtr> tuple;  // tuple values: members, no bytes
  bool isTuple = false;

  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  int64_t rank() const { return int64_t(shape.size()); }
  template <typename T> T *data() { return reinterpret_cast<T *>(bytes.data()); }
  template <typename T> const T *data() const { return reinterpret_cast<const T *>(bytes.data()); }
  std::string typeString() const;  // tensor<2x3xf32>
};

// A zero-filled tensor, and one whose elements the caller will all write.
TensorPtr makeTensor(const DType &dtype, std::vector<int64_t> shape);
TensorPtr makeUninitialized(const DType &dtype, std::vector<int64_t> shape);
TensorPtr makeToken();
// The tensor type `t` (a TypeId of kind Tensor) as dtype and shape; throws
// for dynamic shapes.
TensorPtr makeTensorOfType(const TypeTable &types, TypeId t);

// Brings narrow integers back into range and rounds narrow floats
// (see the file comment); a no-op for native types.
void normalize(Tensor &t);

// Row-major strides of a shape.
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape);

// Element `i` as double / int64 / complex (any storage), and set from them.
double getDouble(const Tensor &t, int64_t i);
int64_t getInt(const Tensor &t, int64_t i);
std::complex<double> getComplex(const Tensor &t, int64_t i);

// Every element of an integer tensor as int64 (shape operands of dynamic ops).
std::vector<int64_t> tensorInts(const Tensor &t);

// Logical element bits of a tensor as little-endian bytes (f16 as its 16-bit
// pattern, i1 as one byte), and back; for bitcast_convert and hex literals.
std::vector<unsigned char> packBits(const Tensor &t);
void unpackBits(Tensor &t, const unsigned char *raw, size_t numBytes);
size_t packedElementBytes(const DType &d);

// Converts every element of `src` into a tensor of `to` (convert semantics:
// float->int truncates toward zero and saturates, NaN -> 0; any -> i1 is != 0;
// complex -> real keeps the real part).
TensorPtr convertTensor(const Tensor &src, const DType &to);

// Printing of elements for diagnostics and `autopart run` output.
std::string elementString(const Tensor &t, int64_t i);
std::string tensorString(const Tensor &t, int64_t maxElements = 64);

}  // namespace autopart::exec
