#include "common/gemm.hpp"

#include <blis.h>

namespace aclcpu::ops {

void gemm_f32(const StridedMatrix<const float>& a, const StridedMatrix<const float>& b, float beta,
              const StridedMatrix<float>& c) noexcept {
    if (c.rows == 0 || c.cols == 0) return;
    float one = 1.0f;
    rntm_t oneThread = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads(1, &oneThread);
    // BLIS takes non-const pointers to the inputs it only reads.
    bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, c.rows, c.cols, a.cols, &one, const_cast<float*>(a.data),
                 a.rowStride, a.colStride, const_cast<float*>(b.data), b.rowStride, b.colStride, &beta, c.data,
                 c.rowStride, c.colStride, nullptr, &oneThread);
}

}  // namespace aclcpu::ops
