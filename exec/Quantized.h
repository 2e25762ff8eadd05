// Uniform quantized element types (`!quant.uniform<...>`, the spec's
// "Quantized element types"): their parameters, and how the executor keeps
// such tensors. A quantized tensor holds the *dequantized* values of its
// storage integers, in its expressed type's storage (f32 for `:f32`), and is
// brought back onto its grid after every op by normalize() (Tensor.h):
//
//   !quant.uniform<i8:f32, 0.5:-20>     storage i8 in [-128, 127], f = (q + 20) * 0.5
//   kept 4.0 (q = 4.0 / 0.5 - 20 = -12); a kernel's result 4.2 -> 4.0 (q = -12)
//   !quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>   per-axis along dimension 0
//
// So a kernel computing in floats on dequantized operands, then normalize()
// quantizing its result, is the spec's dequantize_op_quantize;
// bitcast_convert and literals go through the storage integers (packBits /
// unpackBits). Ops whose kernels do not follow that rule refuse quantized
// operands (QuantizedOps.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autopart::exec {

struct QuantParams {
  std::string storage;    // the storage type as an executor dtype name: "i8", "ui8", "i4"
  int storageBits = 0;
  bool storageSigned = true;
  int64_t storageMin = 0, storageMax = 0;
  std::string expressed;  // "f32", "bf16", ...
  int64_t axis = -1;      // quantization_dimension; -1: per-tensor
  std::vector<double> scales;
  std::vector<int64_t> zeroPoints;
};

bool isQuantizedTypeName(std::string_view name);
// Parses `!quant.uniform<...>`; throws std::runtime_error when malformed.
QuantParams parseQuantType(std::string_view text);

struct Tensor;
// Every element quantized and dequantized again with its parameters (the
// spec's quantize: x / scale + zero_point, clamped to the storage range,
// rounded to nearest even; then (q - zero_point) * scale), in the expressed
// type's precision.
void snapToGrid(Tensor &t);
// The storage integers of a quantized tensor, little-endian at
// quantStorageBytes() each; and a quantized tensor from them.
std::vector<unsigned char> quantizedStorageBytes(const Tensor &t);
void setFromStorageBytes(Tensor &t, const unsigned char *raw, size_t numBytes);
size_t quantStorageBytes(const QuantParams &q);

}  // namespace autopart::exec
