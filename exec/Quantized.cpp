#include "exec/Quantized.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "exec/Tensor.h"

namespace autopart::exec {

namespace {

constexpr std::string_view kPrefix = "!quant.uniform<";

struct Cursor {
  std::string_view s;
  size_t i = 0;
  std::string_view text;

  [[noreturn]] void bad(const std::string &what) const {
    throw std::runtime_error("cannot read quantized type " + std::string(text) + ": " + what);
  }
  void skipSpaces() {
    while (i < s.size() && s[i] == ' ') ++i;
  }
  bool eat(char c) {
    skipSpaces();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) bad(std::string("expected '") + c + "'");
  }
  std::string_view word() {
    skipSpaces();
    size_t start = i;
    while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_')) ++i;
    if (start == i) bad("expected a type");
    return s.substr(start, i - start);
  }
  int64_t integer() {
    skipSpaces();
    std::string rest(s.substr(i));
    char *end = nullptr;
    long long v = std::strtoll(rest.c_str(), &end, 10);
    if (end == rest.c_str()) bad("expected an integer");
    i += size_t(end - rest.c_str());
    return v;
  }
  double real() {
    skipSpaces();
    std::string rest(s.substr(i));
    char *end = nullptr;
    double v = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str()) bad("expected a scale");
    i += size_t(end - rest.c_str());
    return v;
  }
};

const QuantParams &paramsOf(const Tensor &t) {
  if (!t.dtype.quant) throw std::runtime_error("tensor " + t.typeString() + " is not quantized");
  return *t.dtype.quant;
}

// The parameter index (along the quantization dimension) of every element.
struct AxisIndex {
  int64_t stride = 1, size = 1;
  bool perAxis = false;
  AxisIndex(const Tensor &t, const QuantParams &q) {
    if (q.axis < 0) return;
    if (q.axis >= t.rank() || t.shape[size_t(q.axis)] != int64_t(q.scales.size()))
      throw std::runtime_error("quantization dimension " + std::to_string(q.axis) + " does not fit " + t.typeString());
    perAxis = true;
    stride = stridesOf(t.shape)[size_t(q.axis)];
    size = t.shape[size_t(q.axis)];
  }
  size_t at(int64_t i) const { return perAxis ? size_t((i / stride) % size) : 0; }
};

// Arithmetic in the expressed type: T is float or double; a narrow expressed
// type (bf16, f16) also rounds after every step.
template <typename T> struct Expressed {
  FloatFormat format;
  explicit Expressed(const QuantParams &q) : format(floatFormatByName(q.expressed)) {}
  T r(T v) const { return format.valid() ? T(format.round(v)) : v; }
  int64_t quantize(T v, double scale, int64_t zp, const QuantParams &q) const {
    T x = r(r(v / r(T(scale))) + r(T(zp)));
    if (std::isnan(x)) return 0;  // as convert: NaN -> 0
    x = std::min(std::max(x, T(q.storageMin)), T(q.storageMax));
    return int64_t(std::nearbyint(x));  // the default rounding mode: to nearest even
  }
  T dequantize(int64_t qv, double scale, int64_t zp) const { return r(r(T(qv - zp)) * r(T(scale))); }
};

template <typename Fn> void visitExpressed(const Tensor &t, Fn &&fn) {
  if (t.dtype.storage == Storage::F32) fn(float{});
  else if (t.dtype.storage == Storage::F64) fn(double{});
  else throw std::runtime_error("quantized tensor without float storage");
}

}  // namespace

bool isQuantizedTypeName(std::string_view name) { return name.starts_with(kPrefix); }

QuantParams parseQuantType(std::string_view text) {
  if (!isQuantizedTypeName(text) || text.back() != '>') throw std::runtime_error("not a quantized type: " + std::string(text));
  Cursor c{text.substr(kPrefix.size(), text.size() - kPrefix.size() - 1), 0, text};
  QuantParams q;
  std::string_view st = c.word();
  if (st.size() < 2 || (st[0] != 'i' && st[0] != 'u')) c.bad("storage type must be iN or uN");
  q.storageSigned = st[0] == 'i';
  q.storageBits = std::atoi(std::string(st.substr(1)).c_str());
  if (q.storageBits < 2 || q.storageBits > 32) c.bad("unsupported storage width");
  q.storage = (q.storageSigned ? "i" : "ui") + std::to_string(q.storageBits);
  q.storageMin = q.storageSigned ? -(int64_t(1) << (q.storageBits - 1)) : 0;
  q.storageMax = q.storageSigned ? (int64_t(1) << (q.storageBits - 1)) - 1 : (int64_t(1) << q.storageBits) - 1;
  if (c.eat('<')) {
    int64_t lo = c.integer();
    c.expect(':');
    int64_t hi = c.integer();
    c.expect('>');
    if (lo < q.storageMin || hi > q.storageMax || lo >= hi) c.bad("storage range outside the storage type");
    q.storageMin = lo;
    q.storageMax = hi;
  }
  c.expect(':');
  q.expressed = std::string(c.word());
  if (c.eat(':')) q.axis = c.integer();
  c.expect(',');
  bool list = c.eat('{');
  do {
    double scale = c.real();
    int64_t zp = c.eat(':') ? c.integer() : 0;
    if (!(scale > 0) || !std::isfinite(scale)) c.bad("scales must be positive and finite");
    if (zp < q.storageMin || zp > q.storageMax) c.bad("zero point outside the storage range");
    q.scales.push_back(scale);
    q.zeroPoints.push_back(zp);
  } while (list && c.eat(','));
  if (list) c.expect('}');
  c.skipSpaces();
  if (c.i != c.s.size()) c.bad("unexpected text after the parameters");
  if (q.axis < 0 && q.scales.size() != 1) c.bad("per-tensor quantization with several scales");
  return q;
}

size_t quantStorageBytes(const QuantParams &q) { return q.storageBits <= 8 ? 1 : q.storageBits <= 16 ? 2 : 4; }

void snapToGrid(Tensor &t) {
  const QuantParams &q = paramsOf(t);
  AxisIndex ax(t, q);
  int64_t n = t.numElements();
  visitExpressed(t, [&](auto zero) {
    using T = decltype(zero);
    Expressed<T> e(q);
    T *p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      size_t k = ax.at(i);
      p[i] = e.dequantize(e.quantize(p[i], q.scales[k], q.zeroPoints[k], q), q.scales[k], q.zeroPoints[k]);
    }
  });
}

std::vector<unsigned char> quantizedStorageBytes(const Tensor &t) {
  const QuantParams &q = paramsOf(t);
  AxisIndex ax(t, q);
  size_t w = quantStorageBytes(q);
  int64_t n = t.numElements();
  uint64_t mask = q.storageBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << q.storageBits) - 1;
  std::vector<unsigned char> out(size_t(n) * w);
  visitExpressed(t, [&](auto zero) {
    using T = decltype(zero);
    Expressed<T> e(q);
    const T *p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      size_t k = ax.at(i);
      uint64_t bits = uint64_t(e.quantize(p[i], q.scales[k], q.zeroPoints[k], q));
      if (q.storageBits < 8) bits &= mask;
      for (size_t b = 0; b < w; ++b) out[size_t(i) * w + b] = uint8_t(bits >> (8 * b));
    }
  });
  return out;
}

void setFromStorageBytes(Tensor &t, const unsigned char *raw, size_t numBytes) {
  const QuantParams &q = paramsOf(t);
  AxisIndex ax(t, q);
  size_t w = quantStorageBytes(q);
  int64_t n = t.numElements();
  visitExpressed(t, [&](auto zero) {
    using T = decltype(zero);
    Expressed<T> e(q);
    T *p = t.data<T>();
    for (int64_t i = 0; i < n && size_t(i + 1) * w <= numBytes; ++i) {
      uint64_t bits = 0;
      for (size_t b = 0; b < w; ++b) bits |= uint64_t(raw[size_t(i) * w + b]) << (8 * b);
      int shift = 64 - q.storageBits;
      int64_t v = q.storageSigned ? int64_t(bits << shift) >> shift : int64_t((bits << shift) >> shift);
      size_t k = ax.at(i);
      p[i] = e.dequantize(v, q.scales[k], q.zeroPoints[k]);
    }
  });
}

}  // namespace autopart::exec
