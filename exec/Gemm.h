// The matrix product behind dot_general and convolution: row-major
// C[M x N] = A[M x K] * B[K x N] with leading dimensions, through Eigen's
// GEMM for float, double and complex (multithreaded when built with OpenMP),
// and an i-k-j loop for integers. Plus the dimension permutation both ops use
// to bring operands into [batch, free, contract] order.
//
//   gemm<float>(2, 2, 3, a, 3, b, 2, c, 2);   // 2x3 * 3x2
#pragma once

#include <type_traits>

#include <Eigen/Core>

#include "exec/Tensor.h"

namespace autopart::exec {

template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T *A, int64_t lda, const T *B, int64_t ldb, T *C, int64_t ldc) {
  if constexpr (std::is_floating_point_v<T> || kIsComplex<T>) {
    using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Stride = Eigen::OuterStride<>;
    Eigen::Map<const Mat, 0, Stride> a(A, M, K, Stride(lda));
    Eigen::Map<const Mat, 0, Stride> b(B, K, N, Stride(ldb));
    Eigen::Map<Mat, 0, Stride> c(C, M, N, Stride(ldc));
    c.noalias() = a * b;
  } else {
    using U = std::conditional_t<std::is_same_v<T, uint8_t>, uint8_t, std::make_unsigned_t<T>>;
    for (int64_t i = 0; i < M; ++i) {
      T *c = C + i * ldc;
      for (int64_t j = 0; j < N; ++j) c[j] = 0;
      for (int64_t k = 0; k < K; ++k) {
        U a = U(A[i * lda + k]);
        const T *b = B + k * ldb;
        for (int64_t j = 0; j < N; ++j) c[j] = T(U(c[j]) + a * U(b[j]));
      }
    }
  }
}

// A copy of `t` whose dimension i is t's dimension order[i] (a transpose);
// `t` itself when order is the identity.
TensorPtr permuteDims(const TensorPtr &t, const std::vector<int64_t> &order);

}  // namespace autopart::exec
