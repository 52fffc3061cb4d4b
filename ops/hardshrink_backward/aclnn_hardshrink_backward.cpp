// acl-cpu: aclnnHardshrinkBackward, CANN's HardshrinkBackward aclnn API.
//
// Phase 1 checks in CANN's order (workspace/executor pointers, null
// arguments, dtypes, ranks, promotion, then -- after the empty-tensor
// shortcut, as CANN does -- broadcast and gradInput's shape).  gradOutput
// and self are promoted to a common dtype, the kernel's, and the result is
// cast to gradInput's dtype.  A negative lambd acts as 0.
#include "aclnnop/aclnn_hardshrink_backward.h"

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "hardshrink_backward/hardshrink_backward_kernel.hpp"
#include "hardshrink_backward/hardshrink_backward_tiling.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT};

aclnnStatus check_params(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* lambd,
                         const aclTensor* gradInput, aclDataType* promoted) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(
        {{gradOutput, "gradOutput"}, {self, "self"}, {lambd, "lambd"}, {gradInput, "gradInput"}}));

    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(
        {{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}, kDtypes));

    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));

    ACLCPU_RETURN_IF_ERROR(check_promote_dtype(gradOutput, "gradOutput", self, "self", kDtypes, promoted));
    return check_can_cast(*promoted, view_of(gradInput).dtype);
}

aclnnStatus get_workspace_size(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* lambd,
                               aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    aclDataType promoted = ACL_DT_UNDEFINED;
    ACLCPU_RETURN_IF_ERROR(check_params(gradOutput, self, lambd, gradInput, &promoted));
    if (is_empty(gradOutput) || is_empty(self)) {
        return hand_back_empty_executor({gradOutput, self}, {gradInput}, workspaceSize, executor);
    }
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(gradOutput, "gradOutput", self, "self", &shape));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(gradInput, "gradInput", shape));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(
        {{gradOutput, "gradOutput"}, {self, "self"}, {gradInput, "gradInput"}}));

    const ElementwiseOperands<2> operands{
        {StridedLayout::broadcast_to(view_of(gradOutput), shape), StridedLayout::broadcast_to(view_of(self), shape)},
        StridedLayout::of(view_of(gradInput)),
        promoted};
    const float lambdValue = to_float(lambd);
    return hand_back_kernel<HardshrinkBackwardKernel>(
        {gradOutput, self}, {gradInput}, 0, workspaceSize, executor, "aclnnHardshrinkBackward",
        tile_hardshrink_backward(view_of(gradInput).numel(), promoted, soc_profile()), operands,
        HardshrinkBackwardParams{lambdValue < 0.0f ? 0.0f : lambdValue});
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnHardshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                               const aclScalar* lambd, aclTensor* gradInput,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::get_workspace_size(gradOutput, self, lambd, gradInput, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnHardshrinkBackward)
