// numpy's .npy and .npz formats for `autopart run --out`: one tensor per
// .npy; an .npz is an uncompressed zip of `name.npy` members.
//
//   writeNpy(os, f32 tensor<2x3>) -> "\x93NUMPY" v1.0, {'descr': '<f4',
//       'fortran_order': False, 'shape': (2, 3), }, then 24 bytes
// f16 is written as '<f2'; bf16 and f8 types (no numpy dtype) as float32.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "exec/Tensor.h"

namespace autopart::exec {

std::string npyBytes(const Tensor &t);
// Writes `members` (name without .npy, tensor) as an .npz; false on I/O errors.
bool writeNpz(const std::string &path, const std::vector<std::pair<std::string, TensorPtr>> &members);

// Reads an .npy file's bytes into a tensor; throws std::runtime_error for
// dtypes without an executor type, Fortran order or truncated data.
TensorPtr tensorFromNpy(const std::string &bytes);
// The members of an .npz written without compression (numpy's np.savez), in
// file order: (name without .npy, tensor). Throws std::runtime_error.
std::vector<std::pair<std::string, TensorPtr>> readNpz(const std::string &path);

}  // namespace autopart::exec
