#include "exec/DenseResource.h"

#include <stdexcept>
#include <string>

#include "exec/DenseLiteral.h"

namespace autopart::exec {

TensorPtr decodeResource(const Module &m, std::string_view key, const DType &dtype, const std::vector<int64_t> &shape) {
  if (key.size() >= 2 && key.front() == '"' && key.back() == '"') key = key.substr(1, key.size() - 2);
  std::string_view hex;
  bool found = false;
  for (const auto &[k, v] : m.resourceBlobs)
    if (k == key) {
      hex = v;
      found = true;
    }
  if (!found) {
    if (key == "__elided__")
      throw std::runtime_error("dense_resource<__elided__>: the blob was elided when the file was printed, so "
                               "there is no data to run with");
    throw std::runtime_error("dense_resource<" + std::string(key) + ">: no blob of that name in the file's resource block");
  }
  // "0x" + 8 hex digits of alignment, then the data.
  if (!(hex.starts_with("0x") || hex.starts_with("0X")) || hex.size() < 10 || hex.size() % 2)
    throw std::runtime_error("dense_resource<" + std::string(key) + ">: the blob is not `0x` + alignment + data");
  size_t dataBytes = (hex.size() - 10) / 2;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  size_t want = size_t(n) * packedElementBytes(dtype);
  if (dataBytes != want)
    throw std::runtime_error("dense_resource<" + std::string(key) + ">: the blob holds " + std::to_string(dataBytes) +
                             " bytes, the type needs " + std::to_string(want));
  std::string body;
  body.reserve(hex.size());
  body += "\"0x";
  body.append(hex.substr(10));
  body += '"';
  return decodeDense(body, dtype, shape);
}

}  // namespace autopart::exec
