// acl-cpu ops/common: products of a few rows against a matrix read in its
// own dtype -- the token-by-token shape of a decoder (one activation row
// against a weight), where staging the weight as fp32 for gemm_f32 moves
// three times its bytes to do one multiply-add per element.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "common/gemm.hpp"

namespace aclcpu::ops {

/// Products of at most this many rows are gemv_f32's: below it gemm_f32's
/// packing costs more than the product (BLIS's m = 1 path runs at a tenth
/// of its rate).
inline constexpr int64_t kGemvMaxRows = 4;

/// A k x n matrix of dtype FLOAT, FLOAT16 or BF16 with one dense axis:
/// element (p, j) at data[j * stride + p] (dense columns: a weight [n, k]
/// seen as its transpose, as ggml and torch's Linear pass it) or at
/// data[p * stride + j] (dense rows: a plain [k, n] weight, attention's V),
/// read rounded to roundedTo (FLOAT16 or BF16; FLOAT: as it is).
struct DenseMatrix {
    const void* data;
    aclDataType dtype;
    int64_t rows;  ///< k
    int64_t cols;  ///< n
    int64_t stride;
    bool denseRows;
    aclDataType roundedTo = ACL_FLOAT;
    /// Dense columns may lie in runs of `run` elements along k (a multiple
    /// of 16), each run runStride elements after the one before: the c0-wide
    /// column tiles of FRACTAL_NZ.  0: a column is one run.
    int64_t run = 0;
    int64_t runStride = 0;
};

/// c(i, j) = sum_p a(i, p) * b(p, j) + beta * c(i, j), with beta 0 ignoring
/// what c held, b's elements widened to fp32 in registers (and rounded as
/// b.roundedTo says), the products summed in fp32 by fused multiply-adds in
/// an order fixed whatever the SIMD target: for dense columns, element p
/// goes to partial p % 32, the partials folded pairwise; for dense rows, p
/// in increasing order.  Preconditions: a is c.rows x b.rows with
/// a.colStride == 1; c's elements are distinct and overlap neither operand.
/// Runs on the calling thread; never throws.
void gemv_f32(const StridedMatrix<const float>& a, const DenseMatrix& b, float beta,
              const StridedMatrix<float>& c) noexcept;

/// c = a b + beta c for fp32 operands staged by a kernel: gemv_f32 when a
/// has at most kGemvMaxRows rows (a.colStride 1) and b is dense along one
/// axis (non-negative strides), gemm_f32 otherwise.  Which one is decided by
/// the shapes alone, so the order of sums never depends on the workers.
void product_f32(const StridedMatrix<const float>& a, const StridedMatrix<const float>& b, float beta,
                 const StridedMatrix<float>& c) noexcept;

}  // namespace aclcpu::ops
