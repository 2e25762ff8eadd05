#include "exec/Tensor.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace autopart::exec {

DType dtypeByName(const std::string &name) {
  if (isQuantizedTypeName(name)) {
    auto q = std::make_shared<const QuantParams>(parseQuantType(name));
    DType d = dtypeByName(q->expressed);
    if (!d.isFloat) throw std::runtime_error("quantized type with a non-float expressed type: " + name);
    d.name = name;
    d.quant = std::move(q);
    return d;
  }
  DType d;
  d.name = name;
  auto intType = [&](bool isSigned, int bits) {
    d.isSigned = isSigned;
    d.bits = uint8_t(bits);
    if (bits == 1) d.storage = Storage::Bool;
    else if (bits <= 8) d.storage = isSigned ? Storage::I8 : Storage::U8;
    else if (bits == 16) d.storage = isSigned ? Storage::I16 : Storage::U16;
    else if (bits == 32) d.storage = isSigned ? Storage::I32 : Storage::U32;
    else if (bits == 64) d.storage = isSigned ? Storage::I64 : Storage::U64;
    else throw std::runtime_error("unsupported element type " + name);
  };
  if (name == "f32") { d.storage = Storage::F32; d.bits = 32; d.isFloat = true; return d; }
  if (name == "f64") { d.storage = Storage::F64; d.bits = 64; d.isFloat = true; return d; }
  if (name == "complex<f32>") { d.storage = Storage::C64; d.bits = 64; d.isComplex = true; return d; }
  if (name == "complex<f64>") { d.storage = Storage::C128; d.bits = 128; d.isComplex = true; return d; }
  if (name == "index") { intType(true, 64); return d; }
  if (name.size() > 2 && name.starts_with("ui") && isdigit((unsigned char)name[2])) { intType(false, std::stoi(name.substr(2))); return d; }
  if (name.size() > 2 && name.starts_with("si") && isdigit((unsigned char)name[2])) { intType(true, std::stoi(name.substr(2))); return d; }
  if (name.size() > 1 && name[0] == 'i' && isdigit((unsigned char)name[1])) {
    int bits = std::stoi(name.substr(1));
    intType(bits != 1, bits);
    return d;
  }
  FloatFormat f = floatFormatByName(name);
  if (f.valid()) {
    d.storage = Storage::F32;
    d.isFloat = true;
    d.format = f;
    d.bits = uint8_t(f.totalBits());
    return d;
  }
  throw std::runtime_error("unsupported element type " + name);
}

DType dtypeOf(const TypeTable &types, TypeId element) {
  return dtypeByName(std::string(types.str(element)));
}

size_t storageSize(Storage s) {
  if (s == Storage::None) return 0;
  return visitStorage(s, [](auto tag) { return sizeof(typename decltype(tag)::type); });
}

std::string Tensor::typeString() const {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + dtype.name + ">";
}

TensorPtr makeTensor(const DType &dtype, std::vector<int64_t> shape) {
  auto t = std::make_shared<Tensor>();
  t->dtype = dtype;
  t->shape = std::move(shape);
  t->bytes.assign(size_t(t->numElements()) * storageSize(dtype.storage), 0);
  return t;
}

TensorPtr makeUninitialized(const DType &dtype, std::vector<int64_t> shape) {
  auto t = std::make_shared<Tensor>();
  t->dtype = dtype;
  t->shape = std::move(shape);
  t->bytes.resize(size_t(t->numElements()) * storageSize(dtype.storage));
  return t;
}

TensorPtr makeToken() {
  auto t = std::make_shared<Tensor>();
  t->isToken = true;
  return t;
}

TensorPtr makeTensorOfType(const TypeTable &types, TypeId t) {
  if (types.get(t).kind == TypeKind::Token) return makeToken();
  if (!types.isTensor(t)) throw std::runtime_error("unsupported value type " + std::string(types.str(t)));
  if (types.hasDynamicDim(t)) throw std::runtime_error("dynamic shape " + std::string(types.str(t)));
  return makeTensor(dtypeOf(types, types.elementType(t)), types.shape(t));
}

void normalize(Tensor &t) {
  const DType &d = t.dtype;
  int64_t n = t.numElements();
  if (d.isQuantized()) {
    snapToGrid(t);
  } else if (d.isBool()) {
    uint8_t *p = t.data<uint8_t>();
    for (int64_t i = 0; i < n; ++i) p[i] &= 1;
  } else if (d.isInt() && d.bits < 8) {
    int shift = 8 - d.bits;
    if (d.isSigned) {
      int8_t *p = t.data<int8_t>();
      for (int64_t i = 0; i < n; ++i) p[i] = int8_t(int8_t(uint8_t(p[i]) << shift) >> shift);
    } else {
      uint8_t *p = t.data<uint8_t>();
      uint8_t mask = uint8_t((1u << d.bits) - 1);
      for (int64_t i = 0; i < n; ++i) p[i] &= mask;
    }
  } else if (d.isNarrowFloat()) {
    float *p = t.data<float>();
    const FloatFormat f = d.format;
    for (int64_t i = 0; i < n; ++i) p[i] = float(f.round(p[i]));
  }
}

std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

double getDouble(const Tensor &t, int64_t i) {
  return visitStorage(t.dtype.storage, [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) return double(t.data<T>()[i].real());
    else return double(t.data<T>()[i]);
  });
}

int64_t getInt(const Tensor &t, int64_t i) {
  return visitStorage(t.dtype.storage, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) return int64_t(t.data<T>()[i].real());
    else return int64_t(t.data<T>()[i]);
  });
}

std::complex<double> getComplex(const Tensor &t, int64_t i) {
  return visitStorage(t.dtype.storage, [&](auto tag) -> std::complex<double> {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) return std::complex<double>(t.data<T>()[i]);
    else return double(t.data<T>()[i]);
  });
}

std::vector<int64_t> tensorInts(const Tensor &t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numElements(); ++i) v.push_back(getInt(t, i));
  return v;
}

size_t packedElementBytes(const DType &d) {
  if (d.isQuantized()) return quantStorageBytes(*d.quant);
  if (d.isNarrowFloat()) return size_t((d.bits + 7) / 8);
  return storageSize(d.storage);
}

std::vector<unsigned char> packBits(const Tensor &t) {
  const DType &d = t.dtype;
  int64_t n = t.numElements();
  if (d.isQuantized()) return quantizedStorageBytes(t);
  if (!d.isNarrowFloat()) {
    std::vector<unsigned char> out(t.bytes.begin(), t.bytes.end());
    if (d.isInt() && d.bits < 8 && d.isSigned) {
      uint8_t mask = uint8_t((1u << d.bits) - 1);
      for (auto &b : out) b &= mask;
    }
    return out;
  }
  size_t w = packedElementBytes(d);
  std::vector<unsigned char> out(size_t(n) * w);
  const float *p = t.data<float>();
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits = d.format.encode(p[i]);
    for (size_t b = 0; b < w; ++b) out[size_t(i) * w + b] = uint8_t(bits >> (8 * b));
  }
  return out;
}

void unpackBits(Tensor &t, const unsigned char *raw, size_t numBytes) {
  const DType &d = t.dtype;
  int64_t n = t.numElements();
  if (d.isQuantized()) {
    setFromStorageBytes(t, raw, numBytes);
    return;
  }
  if (!d.isNarrowFloat()) {
    std::memcpy(t.bytes.data(), raw, std::min(numBytes, t.bytes.size()));
    normalize(t);
    return;
  }
  size_t w = packedElementBytes(d);
  float *p = t.data<float>();
  for (int64_t i = 0; i < n && size_t(i + 1) * w <= numBytes; ++i) {
    uint32_t bits = 0;
    for (size_t b = 0; b < w; ++b) bits |= uint32_t(raw[size_t(i) * w + b]) << (8 * b);
    p[i] = float(d.format.decode(bits & ((1u << d.format.totalBits()) - 1)));
  }
}

namespace {

template <typename To, typename From> To convertOne(From v, const DType &to) {
  if constexpr (kIsComplex<To>) {
    if constexpr (kIsComplex<From>) return To(typename To::value_type(v.real()), typename To::value_type(v.imag()));
    else return To(typename To::value_type(v));
  } else if constexpr (kIsComplex<From>) {
    return convertOne<To>(v.real(), to);
  } else if constexpr (kIsInt<To> && kIsFloat<From>) {
    if (to.isBool()) return To(v != 0);
    if (std::isnan(v)) return To(0);
    double lo = double(std::numeric_limits<To>::lowest()), hi = double(std::numeric_limits<To>::max());
    if (to.bits < 8) {
      lo = to.isSigned ? -double(1 << (to.bits - 1)) : 0;
      hi = to.isSigned ? double((1 << (to.bits - 1)) - 1) : double((1 << to.bits) - 1);
    }
    double x = std::trunc(double(v));
    if (x <= lo) return To(lo);
    if (x >= hi) return To(hi);
    return To(x);
  } else if constexpr (kIsInt<To>) {
    if (to.isBool()) return To(v != 0);
    return To(v);
  } else {
    return To(v);
  }
}

}  // namespace

TensorPtr convertTensor(const Tensor &src, const DType &to) {
  TensorPtr out = makeTensor(to, src.shape);
  int64_t n = src.numElements();
  visitStorage(src.dtype.storage, [&](auto ftag) {
    using F = typename decltype(ftag)::type;
    visitStorage(to.storage, [&](auto ttag) {
      using T = typename decltype(ttag)::type;
      const F *a = src.data<F>();
      T *r = out->data<T>();
      if (src.dtype.isBool()) {
        for (int64_t i = 0; i < n; ++i) r[i] = convertOne<T>(uint8_t(a[i] != F(0)), to);
      } else if constexpr (std::is_same_v<F, uint64_t> && kIsFloat<T>) {
        for (int64_t i = 0; i < n; ++i) r[i] = T(a[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) r[i] = convertOne<T>(a[i], to);
      }
    });
  });
  normalize(*out);
  return out;
}

std::string elementString(const Tensor &t, int64_t i) {
  std::ostringstream s;
  s.precision(t.dtype.storage == Storage::F64 || t.dtype.storage == Storage::C128 ? 17 : 9);
  visitStorage(t.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v = t.data<T>()[i];
    if (t.dtype.isBool()) s << (v != T(0) ? "true" : "false");
    else if constexpr (kIsComplex<T>) s << "(" << v.real() << ", " << v.imag() << ")";
    else if constexpr (sizeof(T) == 1 && kIsInt<T>) s << int(v);
    else s << v;
  });
  return s.str();
}

std::string tensorString(const Tensor &t, int64_t maxElements) {
  if (t.isToken) return "!stablehlo.token";
  if (t.isTuple) {
    std::string s = "(";
    for (size_t i = 0; i < t.tuple.size(); ++i) s += (i ? ", " : "") + tensorString(*t.tuple[i], maxElements);
    return s + ")";
  }
  int64_t n = t.numElements();
  std::string s = t.typeString() + " ";
  if (t.rank() == 0) return s + elementString(t, 0);
  s += "[";
  for (int64_t i = 0; i < n && i < maxElements; ++i) s += (i ? ", " : "") + elementString(t, i);
  if (n > maxElements) s += ", ... (" + std::to_string(n) + " elements)";
  return s + "]";
}

}  // namespace autopart::exec
