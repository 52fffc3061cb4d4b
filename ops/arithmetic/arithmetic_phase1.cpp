// acl-cpu: what the arithmetic family's phase 1 entries share.
#include "arithmetic/arithmetic_phase1.hpp"

#include <new>

#include "aclcpu/soc_profile.hpp"
#include "arithmetic/arithmetic_tiling.hpp"
#include "common/op_checks.hpp"

namespace aclcpu::ops {

aclnnStatus check_promotable(aclDataType self, aclDataType other, aclDataType promoted) {
    if (promoted != ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Self dtype %s and other dtype %s can not promote dtype.",
                       dtype_name(self), dtype_name(other));
}

aclnnStatus check_alpha_castable(const aclScalar* alpha, aclDataType promoted) {
    const aclDataType dtype = dtype_of(alpha);
    const bool castable = promoted == ACL_BOOL ? dtype == ACL_BOOL || is_integral(dtype) : can_cast(dtype, promoted);
    if (castable) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Alpha dtype %s can't be cast to the promote dtype %s.",
                       dtype_name(dtype), dtype_name(promoted));
}

bool alpha_is_one(const aclScalar* alpha) noexcept {
    const float value = to_float(alpha);
    return !(value > 1.0f || value < 1.0f);
}

ArithmeticOperand tensor_operand(const aclTensor* tensor, int input, const Dims& shape) noexcept {
    ArithmeticOperand operand;
    operand.input = input;
    operand.layout = StridedLayout::broadcast_to(view_of(tensor), shape);
    return operand;
}

ArithmeticOperand scalar_operand(const aclScalar* scalar, aclDataType dtype) noexcept {
    ArithmeticOperand operand;
    operand.isScalar = true;
    operand.value = compute_value(scalar, dtype);
    return operand;
}

void apply_alpha(ArithmeticPlan& plan, const aclScalar* alpha, bool one, DtypeList axpyDtypes) noexcept {
    if (one) {
        plan.alphaStep = AlphaStep::none;
    } else if (contains(axpyDtypes, plan.computeDtype)) {
        plan.alphaStep = AlphaStep::fused;
        // Axpy adds: a subtraction passes -alpha.
        plan.alphaFloat = plan.op == ArithmeticOp::sub ? -to_float(alpha) : to_float(alpha);
    } else {
        plan.alphaStep = AlphaStep::separate;
        plan.alpha = compute_value(alpha, plan.computeDtype);
    }
}

namespace {

/// The dtypes the kernel writes (arithmetic_kernel.cpp's visit_element).
/// can_cast also admits COMPLEX32 and codes of no size into an out, which
/// CANN would cast into; acl-cpu has no kernel for them and refuses them
/// (161002) rather than write past the out's elements.
constexpr DtypeList kWritableDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                                       ACL_INT16,  ACL_INT32,   ACL_INT64,  ACL_UINT8,  ACL_UINT16,
                                       ACL_UINT32, ACL_UINT64,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128};

}  // namespace

aclnnStatus hand_back_arithmetic(const char* apiName, ArithmeticPlan& plan, TensorList inputs, const aclTensor* out,
                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kWritableDtypes));
    const char* const inputNames[] = {"self", "other"};
    const char* const* name = inputNames;
    for (const aclTensor* tensor : inputs) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(tensor, *name++));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(out, "out"));
    plan.out = StridedLayout::of(view_of(out));
    const ElementwiseTiling tiling =
        tile_arithmetic(plan.out.numel(), plan.out.dtype(), arithmetic_lane_bytes(plan), soc_profile());
    std::shared_ptr<const OpKernel> kernel;
    try {
        kernel = make_arithmetic_kernel(apiName, plan, tiling);
    } catch (const std::bad_alloc&) {
        report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    }
    return hand_back_executor(std::move(kernel), inputs, {out}, 0, workspaceSize, executor);
}

}  // namespace aclcpu::ops
