#include "exec/DenseLiteral.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace autopart::exec {
namespace {

// The leaves of a nested list, in order: "1", "-2.5e+00", "(1.0, 2.0)", "true".
std::vector<std::string_view> leaves(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '[' || c == ']' || c == ',' || std::isspace((unsigned char)c)) {
      ++i;
      continue;
    }
    size_t start = i;
    if (c == '(') {
      while (i < s.size() && s[i] != ')') ++i;
      out.push_back(s.substr(start, ++i - start));
      continue;
    }
    while (i < s.size() && s[i] != ',' && s[i] != ']' && !std::isspace((unsigned char)s[i])) ++i;
    out.push_back(s.substr(start, i - start));
  }
  return out;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

double parseReal(std::string_view leaf, const DType &d) {
  std::string s(leaf);
  if (s == "true") return 1;
  if (s == "false") return 0;
  if ((d.isFloat || d.isComplex) && (s.starts_with("0x") || s.starts_with("0X"))) {
    // A float (or a complex part) written as its bit pattern.
    uint64_t bits = std::strtoull(s.c_str() + 2, nullptr, 16);
    if (d.isNarrowFloat()) return d.format.decode(uint32_t(bits));
    if (d.storage == Storage::F32 || d.storage == Storage::C64) {
      uint32_t b = uint32_t(bits);
      float f;
      std::memcpy(&f, &b, 4);
      return f;
    }
    double f;
    std::memcpy(&f, &bits, 8);
    return f;
  }
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) throw std::runtime_error("cannot read literal element '" + s + "'");
  return v;
}

template <typename T> void setLeaf(T *p, std::string_view leaf, const DType &d) {
  if constexpr (kIsComplex<T>) {
    if (leaf.empty() || leaf.front() != '(') {
      *p = T(typename T::value_type(parseReal(leaf, d)));
      return;
    }
    std::string_view inner = leaf.substr(1, leaf.size() - 2);
    size_t comma = inner.find(',');
    std::string_view re = inner.substr(0, comma), im = inner.substr(comma + 1);
    while (!im.empty() && std::isspace((unsigned char)im.front())) im.remove_prefix(1);
    *p = T(typename T::value_type(parseReal(re, d)), typename T::value_type(parseReal(im, d)));
  } else if constexpr (kIsFloat<T>) {
    *p = T(parseReal(leaf, d));
  } else {
    std::string s(leaf);
    if (s == "true") *p = T(1);
    else if (s == "false") *p = T(0);
    else if (std::is_unsigned_v<T> && !s.starts_with("-")) *p = T(std::strtoull(s.c_str(), nullptr, 0));
    else *p = T(std::strtoll(s.c_str(), nullptr, 0));
  }
}

}  // namespace

TensorPtr decodeDense(std::string_view body, const DType &dtype, const std::vector<int64_t> &shape) {
  if (dtype.isQuantized()) {
    // Quantized literals spell the storage integers.
    TensorPtr ints = decodeDense(body, dtypeByName(dtype.quant->storage), shape);
    std::vector<unsigned char> raw = packBits(*ints);
    TensorPtr q = makeTensor(dtype, shape);
    unpackBits(*q, raw.data(), raw.size());
    return q;
  }
  TensorPtr t = makeTensor(dtype, shape);
  int64_t n = t->numElements();
  while (!body.empty() && std::isspace((unsigned char)body.front())) body.remove_prefix(1);
  if (body.size() >= 2 && body.front() == '"') {
    std::string_view hex = body.substr(1, body.find('"', 1) - 1);
    if (!hex.starts_with("0x") && !hex.starts_with("0X"))
      throw std::runtime_error("unsupported string literal for a numeric tensor");
    hex.remove_prefix(2);
    std::vector<unsigned char> raw(hex.size() / 2);
    for (size_t i = 0; i < raw.size(); ++i) raw[i] = uint8_t(hexDigit(hex[2 * i]) * 16 + hexDigit(hex[2 * i + 1]));
    size_t w = packedElementBytes(dtype);
    if (dtype.isBool() && n > 1 && raw.size() != size_t(n) && raw.size() == size_t((n + 7) / 8) &&
        !(raw.size() == 1 && (raw[0] == 0x00 || raw[0] == 0x01 || raw[0] == 0xFF))) {
      // MLIR writes i1 tensors bit-packed, element i in bit i % 8 of byte
      // i / 8 (a one-byte 0x00 / 0x01 / 0xFF stays a splat).
      std::vector<unsigned char> bytes(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) bytes[size_t(i)] = (raw[size_t(i / 8)] >> (i % 8)) & 1;
      raw.swap(bytes);
    }
    if (raw.size() == w && n > 1) {  // a splat written in hex
      std::vector<unsigned char> full;
      for (int64_t i = 0; i < n; ++i) full.insert(full.end(), raw.begin(), raw.end());
      raw.swap(full);
    }
    if (raw.size() < size_t(n) * w) throw std::runtime_error("hex literal shorter than its tensor type");
    unpackBits(*t, raw.data(), raw.size());
    return t;
  }
  std::vector<std::string_view> ls = leaves(body);
  if (ls.size() != size_t(n) && !(ls.size() == 1))
    throw std::runtime_error("literal has " + std::to_string(ls.size()) + " elements, type needs " + std::to_string(n));
  visitStorage(dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *p = t->data<T>();
    if (ls.size() == 1 && n != 1) {
      T v{};
      setLeaf(&v, ls[0], dtype);
      for (int64_t i = 0; i < n; ++i) p[i] = v;
    } else {
      for (int64_t i = 0; i < n; ++i) setLeaf(p + i, ls[size_t(i)], dtype);
    }
  });
  normalize(*t);
  return t;
}

}  // namespace autopart::exec
