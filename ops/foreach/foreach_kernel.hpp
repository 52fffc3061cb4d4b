// acl-cpu: the arithmetic of the foreach family, on the tensor-list engine
// (common/tensor_lists.hpp): one block function per operator, each an fp32
// function of the lists' elements at one position.
#pragma once

#include "common/internal.hpp"

#include "common/tensor_lists.hpp"

namespace aclcpu::ops {

/// The scalar operand of MulScalar, AddcmulScalar, AddcdivScalar and
/// LerpScalar, as the kernel reads it (rounded to the list's dtype where
/// CANN converts it so).  The V2 forms' aclScalar is value itself; the
/// non-V2 forms pass a one-element device tensor, read at launch.
struct ForeachScalar {
    float value = 0;
    /// The device scalar's dtype (ACL_DT_UNDEFINED: value is the scalar),
    /// its element's position from its data pointer, and whether it is
    /// rounded to FLOAT16 (a FLOAT16 list's scalar).
    aclDataType deviceDtype = ACL_DT_UNDEFINED;
    int64_t devicePosition = 0;
    bool roundToHalf = false;

    /// With value read from the device scalar at extraInputs[0], when there is one.
    ForeachScalar at_launch(const void* const* extraInputs) const noexcept;
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
