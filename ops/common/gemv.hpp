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

/// A matrix whose columns are dense: element (p, j) at
/// data[j * columnStride + p], of dtype FLOAT, FLOAT16 or BF16 (a weight
/// [n, k] seen as its transpose [k, n], as ggml and torch's Linear pass it),
/// read rounded to roundedTo (FLOAT16 or BF16; FLOAT: as it is).
struct DenseColumns {
    const void* data;
    aclDataType dtype;
    int64_t rows;  ///< k
    int64_t cols;  ///< n
    int64_t columnStride;
    aclDataType roundedTo = ACL_FLOAT;
};

/// c(i, j) = sum_p a(i, p) * b(p, j) + beta * c(i, j), with beta 0 ignoring
/// what c held, b's elements widened to fp32 in registers (and rounded as
/// b.roundedTo says), the
/// products summed in fp32 by fused multiply-adds.  Each sum has a fixed
/// order whatever the SIMD target: element p goes to partial p % 32, the
/// partials folded pairwise.  Preconditions: a is c.rows x b.rows with
/// a.colStride == 1; c's elements are distinct and overlap neither operand.
/// Runs on the calling thread; never throws.
void gemv_f32(const StridedMatrix<const float>& a, const DenseColumns& b, float beta,
              const StridedMatrix<float>& c) noexcept;

}  // namespace aclcpu::ops
