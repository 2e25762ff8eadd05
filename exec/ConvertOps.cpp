// Elementwise ops whose result type differs from their operands', or that
// read attributes: compare, select, clamp, convert, bitcast_convert, real,
// imag, complex, is_finite, reduce_precision.
//
//   %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
//   %c = stablehlo.bitcast_convert %x : (tensor<f32>) -> tensor<4xi8>
#include <cmath>
#include <cstring>

#include "exec/Elementwise.h"

namespace autopart::exec {
namespace {

enum class Dir { EQ, NE, LT, LE, GT, GE };

Dir direction(Interpreter &I, OpId op) {
  AttrId a = I.m.attr(op, "comparison_direction");
  std::string s = a == kNoAttr ? "" : I.m.attrs.str(a);
  for (auto [name, d] : {std::pair{"EQ", Dir::EQ}, {"NE", Dir::NE}, {"LT", Dir::LT}, {"LE", Dir::LE},
                         {"GT", Dir::GT}, {"GE", Dir::GE}})
    if (s.find(std::string(" ") + name + ">") != std::string::npos || s == name) return d;
  I.fail(op, "compare without a known comparison_direction");
}

template <typename T> bool cmp(Dir d, T a, T b) {
  switch (d) {
    case Dir::EQ: return a == b;
    case Dir::NE: return a != b;
    case Dir::LT: return a < b;
    case Dir::LE: return a <= b;
    case Dir::GT: return a > b;
    case Dir::GE: return a >= b;
  }
  return false;
}


void compareOp(Interpreter &I, OpId op) {
  Dir d = direction(I, op);
  AttrId ct = I.m.attr(op, "compare_type");
  bool total = ct != kNoAttr && I.m.attrs.str(ct).find("TOTALORDER") != std::string::npos;
  const Tensor &x = I.in(op, 0), &y = I.in(op, 1);
  TensorPtr r = I.newResult(op);
  int64_t n = x.numElements();
  uint8_t *o = r->data<uint8_t>();
  visitStorage(x.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *a = x.data<T>(), *b = y.data<T>();
    if constexpr (kIsComplex<T>) {
      if (d != Dir::EQ && d != Dir::NE) throw Unsupported();
      for (int64_t i = 0; i < n; ++i) o[i] = (a[i] == b[i]) == (d == Dir::EQ);
    } else if constexpr (kIsFloat<T>) {
      if (total) {
        for (int64_t i = 0; i < n; ++i) o[i] = cmp(d, totalOrderKey(a[i]), totalOrderKey(b[i]));
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = cmp(d, a[i], b[i]);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) o[i] = cmp(d, a[i], b[i]);
    }
  });
  I.setResult(op, 0, r);
}

void selectOp(Interpreter &I, OpId op) {
  const Tensor &p = I.in(op, 0), &x = I.in(op, 1), &y = I.in(op, 2);
  if (p.rank() == 0 && !x.dtype.isQuantized()) {
    I.setResult(op, 0, p.data<uint8_t>()[0] ? I.operand(op, 1) : I.operand(op, 2));
    return;
  }
  TensorPtr r = I.newResult(op);
  size_t w = storageSize(x.dtype.storage);
  int64_t n = r->numElements();
  const uint8_t *c = p.data<uint8_t>();
  int64_t cs = p.rank() == 0 ? 0 : 1;  // a scalar predicate (quantized operands)
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(r->bytes.data() + i * w, (c[i * cs] ? x : y).bytes.data() + i * w, w);
  if (r->dtype.isQuantized()) normalize(*r);  // dequantize_select_quantize
  I.setResult(op, 0, r);
}

void clampOp(Interpreter &I, OpId op) {
  const Tensor &lo = I.in(op, 0), &x = I.in(op, 1), &hi = I.in(op, 2);
  TensorPtr r = I.newResult(op);
  int64_t n = x.numElements();
  bool loScalar = lo.numElements() == 1 && n != 1, hiScalar = hi.numElements() == 1 && n != 1;
  visitStorage(x.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) {
      throw Unsupported();
    } else {
      const T *a = lo.data<T>(), *v = x.data<T>(), *b = hi.data<T>();
      T *o = r->data<T>();
      for (int64_t i = 0; i < n; ++i) {
        T l = a[loScalar ? 0 : i], h = b[hiScalar ? 0 : i], e = v[i];
        if constexpr (kIsFloat<T>) {
          if (std::isnan(e) || std::isnan(l) || std::isnan(h)) {
            o[i] = std::isnan(e) ? e : std::isnan(l) ? l : h;
            continue;
          }
        }
        o[i] = e < l ? l : (e > h ? h : e);
        if (o[i] > h) o[i] = h;
      }
    }
  });
  normalize(*r);  // quantized: onto the result's grid (dequantize_op_quantize)
  I.setResult(op, 0, r);
}

void convertOp(Interpreter &I, OpId op) { I.setResult(op, 0, convertTensor(I.in(op, 0), I.resultDType(op))); }

// i1 elements are single bits in a bitcast (element 0 the lowest bit).
std::vector<unsigned char> bitsOfBools(const Tensor &x) {
  std::vector<unsigned char> raw(size_t((x.numElements() + 7) / 8), 0);
  for (int64_t i = 0; i < x.numElements(); ++i)
    if (x.data<uint8_t>()[i]) raw[size_t(i / 8)] |= uint8_t(1u << (i % 8));
  return raw;
}

void bitcastOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newResult(op);
  std::vector<unsigned char> raw = x.dtype.isBool() ? bitsOfBools(x) : packBits(x);
  if (r->dtype.isBool()) {
    if (raw.size() * 8 != size_t(r->numElements())) I.fail(op, "bitcast_convert between types of different sizes");
    for (int64_t i = 0; i < r->numElements(); ++i) r->data<uint8_t>()[i] = (raw[size_t(i / 8)] >> (i % 8)) & 1;
    I.setResult(op, 0, r);
    return;
  }
  if (raw.size() != size_t(r->numElements()) * packedElementBytes(r->dtype))
    I.fail(op, "bitcast_convert between types of different sizes");
  unpackBits(*r, raw.data(), raw.size());
  I.setResult(op, 0, r);
}

void realOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  if (!x.dtype.isComplex) {
    I.setResult(op, 0, I.operand(op, 0));
    return;
  }
  TensorPtr r = convertTensor(x, I.resultDType(op));
  I.setResult(op, 0, r);
}

void imagOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newResult(op);
  int64_t n = x.numElements();
  if (x.dtype.storage == Storage::C64)
    for (int64_t i = 0; i < n; ++i) r->data<float>()[i] = x.data<std::complex<float>>()[i].imag();
  else if (x.dtype.storage == Storage::C128)
    for (int64_t i = 0; i < n; ++i) r->data<double>()[i] = x.data<std::complex<double>>()[i].imag();
  I.setResult(op, 0, r);
}

void complexOp(Interpreter &I, OpId op) {
  const Tensor &re = I.in(op, 0), &im = I.in(op, 1);
  TensorPtr r = I.newResult(op);
  int64_t n = r->numElements();
  if (r->dtype.storage == Storage::C64)
    for (int64_t i = 0; i < n; ++i) r->data<std::complex<float>>()[i] = {re.data<float>()[i], im.data<float>()[i]};
  else
    for (int64_t i = 0; i < n; ++i) r->data<std::complex<double>>()[i] = {re.data<double>()[i], im.data<double>()[i]};
  I.setResult(op, 0, r);
}

template <typename Pred> void floatPredicate(Interpreter &I, OpId op, Pred pred) {
  const Tensor &x = I.in(op, 0);
  TensorPtr r = I.newResult(op);
  int64_t n = x.numElements();
  visitStorage(x.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      const T *a = x.data<T>();
      for (int64_t i = 0; i < n; ++i) r->data<uint8_t>()[i] = pred(double(a[i]));
    } else {
      throw Unsupported();
    }
  });
  I.setResult(op, 0, r);
}

void isFiniteOp(Interpreter &I, OpId op) { floatPredicate(I, op, [](double v) { return std::isfinite(v); }); }
void isInfOp(Interpreter &I, OpId op) { floatPredicate(I, op, [](double v) { return std::isinf(v); }); }
void isPosInfOp(Interpreter &I, OpId op) { floatPredicate(I, op, [](double v) { return std::isinf(v) && v > 0; }); }
void isNegInfOp(Interpreter &I, OpId op) { floatPredicate(I, op, [](double v) { return std::isinf(v) && v < 0; }); }

void reducePrecisionOp(Interpreter &I, OpId op) {
  int e = int(I.intAttr(op, "exponent_bits")), mbits = int(I.intAttr(op, "mantissa_bits"));
  FloatFormat f{e, mbits, (1 << (e - 1)) - 1, FloatFormat::Nan::Ieee};
  mapUnary(I, op, [&](auto x) {
    using T = decltype(x);
    if constexpr (kIsFloat<T>) {
      // With no mantissa bits a NaN has no payload left: it becomes infinity.
      if (std::isnan(x)) return mbits ? x : T(std::signbit(x) ? -INFINITY : INFINITY);
      return T(f.round(double(x)));
    } else {
      throw Unsupported();
      return T{};
    }
  });
}

KernelRegistration regs[] = {
    {{"stablehlo.compare"}, compareOp},
    {{"stablehlo.select"}, selectOp},
    {{"stablehlo.clamp"}, clampOp},
    {{"stablehlo.convert"}, convertOp},
    {{"stablehlo.bitcast_convert"}, bitcastOp},
    {{"stablehlo.real"}, realOp},
    {{"stablehlo.imag"}, imagOp},
    {{"stablehlo.complex"}, complexOp},
    {{"stablehlo.is_finite"}, isFiniteOp},
    {{"chlo.is_inf"}, isInfOp},
    {{"chlo.is_pos_inf"}, isPosInfOp},
    {{"chlo.is_neg_inf"}, isNegInfOp},
    {{"stablehlo.reduce_precision"}, reducePrecisionOp},
};

}  // namespace
}  // namespace autopart::exec
