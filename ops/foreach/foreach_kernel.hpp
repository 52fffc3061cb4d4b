// acl-cpu: the arithmetic of the foreach family, on the tensor-list engine
// (common/tensor_lists.hpp): one block function per operator, each an fp32
// function of the lists' elements at one position.
#pragma once

#include "common/internal.hpp"

#include "common/tensor_lists.hpp"

namespace aclcpu::ops {

/// The scalar operand of MulScalar, AddcmulScalar, AddcdivScalar and
/// LerpScalar, as the kernel reads it (already rounded to the list's dtype
/// where CANN converts it so).
struct ForeachScalar {
    float value;
};
struct ForeachNoScalar {};

/// x * scalar
ACLCPU_DECLARE_TENSOR_LIST_BLOCK(foreach_mul_scalar_block, ForeachScalar)
/// x1 + (x2 * x3) * scalar (Mul, then Axpy)
ACLCPU_DECLARE_TENSOR_LIST_BLOCK(foreach_addcmul_scalar_block, ForeachScalar)
/// x1 + (x2 / x3) * scalar (Div, then Axpy)
ACLCPU_DECLARE_TENSOR_LIST_BLOCK(foreach_addcdiv_scalar_block, ForeachScalar)
/// sqrt(x)
ACLCPU_DECLARE_TENSOR_LIST_BLOCK(foreach_sqrt_block, ForeachNoScalar)
/// |w| < 0.5: x1 + (x2 - x1) * w; otherwise x2 + (x2 - x1) * (w - 1)
ACLCPU_DECLARE_TENSOR_LIST_BLOCK(foreach_lerp_scalar_block, ForeachScalar)

}  // namespace aclcpu::ops
