// acl-cpu: aclnnSoftplusBackward, CANN's SoftplusBackward aclnn API.
//
// Phase 1 checks in CANN's order (workspace/executor pointers, null tensors,
// dtypes, ranks, equal shapes), hands back an empty executor for empty
// tensors, and otherwise tiles for the kernel.  Like CANN, a DOUBLE,
// integer or BOOL input, or two different input dtypes, is computed at
// FLOAT; two equal FLOAT16/BF16 inputs are computed in that dtype (fp32
// inside, rounded to it) and then cast to gradInput's dtype.
#include "aclnnop/aclnn_softplus_backward.h"

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "softplus_backward/softplus_backward_kernel.hpp"
#include "softplus_backward/softplus_backward_tiling.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kGradDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeList kSelfDtypes = {ACL_INT8,  ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_UINT8,
                                   ACL_BOOL,  ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};
/// The dtypes the SoftplusV2Grad kernel computes in.
constexpr DtypeList kKernelDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// An input outside the kernel's dtypes must be castable to FLOAT.
aclnnStatus check_kernel_castable(const aclTensor* tensor) {
    const aclDataType dtype = view_of(tensor).dtype;
    return contains(kKernelDtypes, dtype) ? ACLNN_SUCCESS : check_can_cast(dtype, ACL_FLOAT);
}

aclnnStatus check_params(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* beta,
                         const aclScalar* threshold, const aclTensor* gradInput) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));
    // CANN dereferences beta and threshold unchecked; its doc promises 161001.
    ACLCPU_RETURN_IF_ERROR(check_not_null({{beta, "beta"}, {threshold, "threshold"}}));

    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(gradOutput, "gradOutput", kGradDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSelfDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(gradInput, "gradInput", kGradDtypes));
    ACLCPU_RETURN_IF_ERROR(check_kernel_castable(gradOutput));
    ACLCPU_RETURN_IF_ERROR(check_kernel_castable(self));

    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));

    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", gradOutput, "gradOutput"));
    return check_same_shape(self, "self", gradInput, "gradInput");
}

/// The dtype CANN runs SoftplusV2Grad in.
aclDataType compute_dtype(const aclTensor* gradOutput, const aclTensor* self) {
    const aclDataType dtype = view_of(gradOutput).dtype;
    return dtype == view_of(self).dtype && contains(kKernelDtypes, dtype) ? dtype : ACL_FLOAT;
}

aclnnStatus get_workspace_size(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* beta,
                               const aclScalar* threshold, aclTensor* gradInput, uint64_t* workspaceSize,
                               aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_params(gradOutput, self, beta, threshold, gradInput));
    if (is_empty(gradOutput)) return hand_back_empty_executor({gradOutput, self}, {gradInput}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(
        {{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));

    const aclDataType computeDtype = compute_dtype(gradOutput, self);
    const ElementwiseOperands<2> operands{
        {StridedLayout::of(view_of(gradOutput)), StridedLayout::of(view_of(self))},
        StridedLayout::of(view_of(gradInput)),
        computeDtype};
    return hand_back_kernel<SoftplusBackwardKernel>(
        {gradOutput, self}, {gradInput}, 0, workspaceSize, executor, "aclnnSoftplusBackward",
        tile_softplus_backward(view_of(gradInput).numel(), computeDtype, soc_profile()), operands,
        SoftplusBackwardParams{to_float(beta), to_float(threshold)});
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                             const aclScalar* beta, const aclScalar* threshold,
                                                             aclTensor* gradInput, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    return aclcpu::ops::get_workspace_size(gradOutput, self, beta, threshold, gradInput, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnSoftplusBackward)
