// stablehlo.triangular_solve and stablehlo.fft, computed in double /
// complex<double> per batch and written back in the result's type.
//
//   triangular_solve(a = [[2,0],[1,4]], b = [[2],[9]]) left, lower -> [[1],[2]]
//   fft %x, type = FFT, length = [2]: [(1,2), (3,-4)] -> [(4,-2), (-2,6)]
#include <cmath>
#include <numbers>

#include "exec/Interpreter.h"

namespace autopart::exec {
namespace {

using C = std::complex<double>;

std::vector<C> toComplex(const Tensor &t) {
  std::vector<C> v(size_t(t.numElements()));
  for (int64_t i = 0; i < t.numElements(); ++i) v[size_t(i)] = getComplex(t, i);
  return v;
}

void fromComplex(Tensor &t, const std::vector<C> &v) {
  visitStorage(t.dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *p = t.data<T>();
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (kIsComplex<T>) p[i] = T(typename T::value_type(v[i].real()), typename T::value_type(v[i].imag()));
      else p[i] = T(v[i].real());
    }
  });
  normalize(t);
}

void triangularSolveOp(Interpreter &I, OpId op) {
  const Tensor &a = I.in(op, 0), &b = I.in(op, 1);
  bool left = I.m.attrs.get(I.m.attr(op, "left_side")).intValue, lower = I.m.attrs.get(I.m.attr(op, "lower")).intValue,
       unit = I.m.attrs.get(I.m.attr(op, "unit_diagonal")).intValue;
  AttrId tr = I.m.attr(op, "transpose_a");
  std::string ts = tr == kNoAttr ? "NO_TRANSPOSE" : I.m.attrs.str(tr);
  bool transpose = ts.find("NO_TRANSPOSE") == std::string::npos, adjoint = ts.find("ADJOINT") != std::string::npos;
  if (a.rank() < 2 || b.rank() != a.rank() || a.shape[size_t(a.rank() - 2)] != a.shape.back() ||
      b.shape[size_t(b.rank() - (left ? 2 : 1))] != a.shape.back() ||
      b.shape != I.m.types.shape(I.resultType(op)) || !std::equal(a.shape.begin(), a.shape.end() - 2, b.shape.begin()))
    I.fail(op, "triangular_solve operand and result shapes do not fit");
  int64_t M = a.shape.back(), R = b.shape[b.rank() - 2], N = b.shape.back();
  int64_t batches = a.numElements() / std::max<int64_t>(1, M * M);
  std::vector<C> av = toComplex(a), bv = toComplex(b), xv(bv.size());
  for (int64_t bt = 0; bt < batches; ++bt) {
    // T = op(triangle of a), unit diagonal applied.
    std::vector<C> T(size_t(M * M), 0);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < M; ++j) {
        bool keep = lower ? j <= i : j >= i;
        C v = i == j && unit ? C(1) : keep ? av[size_t(bt * M * M + i * M + j)] : C(0);
        if (transpose) T[size_t(j * M + i)] = adjoint ? std::conj(v) : v;
        else T[size_t(i * M + j)] = v;
      }
    bool lowerT = lower != transpose;
    // Left: T X = B, columns of B. Right: X T = B <=> T^t X^t = B^t, rows.
    if (!left) {
      std::vector<C> Tt(T.size());
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < M; ++j) Tt[size_t(j * M + i)] = T[size_t(i * M + j)];
      T.swap(Tt);
      lowerT = !lowerT;
    }
    int64_t systems = left ? N : R;
    for (int64_t s = 0; s < systems; ++s) {
      auto at = [&](int64_t k) { return size_t(bt * R * N + (left ? k * N + s : s * N + k)); };
      for (int64_t step = 0; step < M; ++step) {
        int64_t i = lowerT ? step : M - 1 - step;
        C sum = bv[at(i)];
        for (int64_t j = 0; j < M; ++j)
          if (lowerT ? j < i : j > i) sum -= T[size_t(i * M + j)] * xv[at(j)];
        xv[at(i)] = sum / T[size_t(i * M + i)];
      }
    }
  }
  TensorPtr r = I.newResult(op);
  fromComplex(*r, xv);
  I.setResult(op, 0, r);
}

// One DFT along `axis` of a row-major array, in place; `n` points.
void dftAxis(std::vector<C> &data, const std::vector<int64_t> &shape, int64_t axis, bool inverse) {
  std::vector<int64_t> st = stridesOf(shape);
  int64_t n = shape[axis], stride = st[axis], total = int64_t(data.size());
  std::vector<C> tmp(static_cast<size_t>(n)), tw(static_cast<size_t>(n));
  double sign = inverse ? 1 : -1;
  for (int64_t k = 0; k < n; ++k) tw[size_t(k)] = std::polar(1.0, sign * 2 * std::numbers::pi * double(k) / double(n));
  for (int64_t base = 0; base < total; ++base) {
    if ((base / stride) % n != 0) continue;
    for (int64_t k = 0; k < n; ++k) {
      C s = 0;
      for (int64_t j = 0; j < n; ++j) s += data[size_t(base + j * stride)] * tw[size_t((k * j) % n)];
      tmp[size_t(k)] = inverse ? s / double(n) : s;
    }
    for (int64_t k = 0; k < n; ++k) data[size_t(base + k * stride)] = tmp[size_t(k)];
  }
}

void fftOp(Interpreter &I, OpId op) {
  const Tensor &x = I.in(op, 0);
  std::string type = I.m.attrs.str(I.m.attr(op, "fft_type"));
  std::vector<int64_t> len = I.ints(op, "fft_length");
  int64_t rank = x.rank(), k = int64_t(len.size());
  TensorPtr r = I.newResult(op);
  std::vector<C> v = toComplex(x);
  std::vector<int64_t> shape = x.shape;
  bool irfft = type.find("IRFFT") != std::string::npos, rfft = !irfft && type.find("RFFT") != std::string::npos;
  bool inverse = irfft || type.find("IFFT") != std::string::npos;
  // fft_length names the trailing dimensions; a real transform's complex
  // side keeps length / 2 + 1 points of the last one.
  bool fits = k >= 1 && k <= rank && r->rank() == rank && (!(rfft || irfft) || len.back() > 0);
  for (int64_t a = 0; fits && a < rank; ++a) {
    int64_t want = a < rank - k ? x.shape[size_t(a)] : len[size_t(a - (rank - k))];
    int64_t half = a == rank - 1 && (rfft || irfft) ? want / 2 + 1 : want;
    fits = x.shape[size_t(a)] == (irfft ? half : want) && r->shape[size_t(a)] == (rfft ? half : want);
  }
  if (!fits) I.fail(op, "fft_length does not fit the operand and result shapes");
  if (irfft) {
    // Invert the leading transformed axes on the half spectrum, then rebuild
    // the last axis' full Hermitian spectrum and invert it.
    for (int64_t a = rank - k; a < rank - 1; ++a) dftAxis(v, shape, a, true);
    int64_t L = len.back(), h = shape.back(), rows = int64_t(v.size()) / std::max<int64_t>(h, 1);
    std::vector<C> full(size_t(rows * L));
    for (int64_t q = 0; q < rows; ++q)
      for (int64_t j = 0; j < L; ++j)
        full[size_t(q * L + j)] = j < h ? v[size_t(q * h + j)] : std::conj(v[size_t(q * h + (L - j))]);
    shape.back() = L;
    v.swap(full);
    dftAxis(v, shape, rank - 1, true);
  } else {
    for (int64_t a = rank - k; a < rank; ++a) dftAxis(v, shape, a, inverse);
  }
  if (rfft) {
    int64_t L = shape.back(), h = r->shape.back(), rows = int64_t(v.size()) / L;
    std::vector<C> cut(size_t(rows * h));
    for (int64_t q = 0; q < rows; ++q)
      for (int64_t j = 0; j < h; ++j) cut[size_t(q * h + j)] = v[size_t(q * L + j)];
    v.swap(cut);
  }
  fromComplex(*r, v);
  I.setResult(op, 0, r);
}

KernelRegistration regs[] = {
    {{"stablehlo.triangular_solve"}, triangularSolveOp},
    {{"stablehlo.fft"}, fftOp},
};

}  // namespace
}  // namespace autopart::exec
