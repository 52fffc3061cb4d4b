// acl-cpu ops/common: the one door to the GEMM library (BLIS).  Every
// matrix product of the operators -- Mm and its family, Convolution's
// column GEMM, attention's two products -- goes through gemm_f32, which runs
// on the calling thread only: the operators split their work into blockDim
// blocks on the device's oneTBB workers, and BLIS must not start threads of
// its own beside them.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

namespace aclcpu::ops {

/// A strided matrix of rows x cols elements: element (i, j) at
/// data[i * rowStride + j * colStride] (strides in elements).
template <class T>
struct StridedMatrix {
    T* data;
    int64_t rows;
    int64_t cols;
    int64_t rowStride;
    int64_t colStride;
};

/// c = a * b + beta * c, with beta 0 ignoring what c held (NaN included).
/// Preconditions: a is c.rows x k, b is k x c.cols; every stride is >= 0
/// (0 broadcasts a row or column of a or b; BLIS gives wrong sums for
/// negative strides: stage such a view first); c's elements are distinct
/// and overlap neither a nor b.  Runs on
/// the calling thread only and never throws; concurrent calls are safe.
/// The result is a function of the shapes, strides and values (not of the
/// thread), so an operator whose block split does not depend on the worker
/// count is bitwise reproducible for any worker count.  k == 0 gives
/// beta * c.
void gemm_f32(const StridedMatrix<const float>& a, const StridedMatrix<const float>& b, float beta,
              const StridedMatrix<float>& c) noexcept;

}  // namespace aclcpu::ops
