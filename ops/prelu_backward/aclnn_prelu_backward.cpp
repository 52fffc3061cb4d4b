// acl-cpu: aclnnPreluBackward, CANN's PReLU backward aclnn API.
//
// Checks in CANN's order: null tensors, dtypes (all five as self's), ranks,
// gradInput's shape, the weight/gradWeight rule, the broadcast of gradOutput
// to self.  CANN does not check workspaceSize/executor (it would crash);
// acl-cpu answers 161001 at the point where CANN dereferences them.  Empty
// gradOutput, self or weight: workspace 0 and nothing written, gradWeight
// included.
#include "aclnnop/aclnn_prelu_backward.h"

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "prelu_backward/prelu_backward_kernel.hpp"
#include "prelu_backward/prelu_backward_tiling.hpp"

namespace aclcpu::ops {
namespace {

// SocVersion ASCEND910B..ASCEND910E, which the emulated A2/A3 SoCs are.
constexpr DtypeList kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// self's channel count: dim 1, or 1 for a 1-D self.
int64_t channel_size(const Dims& selfShape) { return selfShape.size() > 1 ? selfShape[1] : 1; }

aclnnStatus check_weight(const aclTensor* self, const aclTensor* weight, const aclTensor* gradWeight) {
    if (view_of(weight).numel() == 1) return check_same_shape(weight, "weight", gradWeight, "gradWeight");
    ACLCPU_RETURN_IF_ERROR(check_min_dim(self, "self", 1));
    const int64_t channels = channel_size(view_of(self).shape);
    if (view_of(weight).numel() != channels) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "the number of weight elements must be 1 or self channel size");
        return ACLNN_ERR_PARAM_INVALID;
    }
    return check_shape_is(gradWeight, "gradWeight", Dims{channels});
}

aclnnStatus check_gradoutput_broadcast(const aclTensor* gradOutput, const aclTensor* self) {
    Dims broadcast;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(self, "self", gradOutput, "gradOutput", &broadcast));
    if (broadcast == view_of(self).shape) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                 "the broadcastShape[%s] of gradOutput and self must be equal with selfShape[%s].",
                 shape_string(broadcast).c_str(), shape_string(view_of(self).shape).c_str());
    return ACLNN_ERR_PARAM_INVALID;
}

aclnnStatus check_params(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* weight,
                         const aclTensor* gradInput, const aclTensor* gradWeight) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({
        {gradOutput, "gradOutput"}, {self, "self"}, {weight, "weight"}, {gradInput, "gradInput"},
        {gradWeight, "gradWeight"}}));

    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(gradOutput, "gradOutput", self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(weight, "weight", self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(gradInput, "gradInput", self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(gradWeight, "gradWeight", self, "self"));

    ACLCPU_RETURN_IF_ERROR(check_max_dim({
        {gradOutput, "gradOutput"}, {self, "self"}, {weight, "weight"}, {gradInput, "gradInput"},
        {gradWeight, "gradWeight"}}));

    ACLCPU_RETURN_IF_ERROR(check_same_shape(gradInput, "gradInput", self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_weight(self, weight, gradWeight));
    return check_gradoutput_broadcast(gradOutput, self);
}

PreluGeometry geometry_of(const TensorView& self, int64_t weightElements) {
    const int64_t elements = self.numel();
    if (weightElements == 1) return {elements, 1, elements};
    return {elements, weightElements, elements / (self.shape[0] * weightElements)};
}

aclnnStatus get_workspace_size(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* weight,
                               aclTensor* gradInput, aclTensor* gradWeight, uint64_t* workspaceSize,
                               aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_params(gradOutput, self, weight, gradInput, gradWeight));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const TensorList inputs = {gradOutput, self, weight};
    const TensorList outputs = {gradInput, gradWeight};
    if (is_empty(gradOutput) || is_empty(self) || is_empty(weight)) {
        return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({
        {gradOutput, "gradOutput"}, {self, "self"}, {weight, "weight"}, {gradInput, "gradInput"},
        {gradWeight, "gradWeight"}}));

    const TensorView& selfView = view_of(self);
    PreluBackwardTiling tiling =
        tile_prelu_backward(geometry_of(selfView, view_of(weight).numel()), selfView.dtype, soc_profile());
    const PreluBackwardOperands operands{StridedLayout::broadcast_to(view_of(gradOutput), selfView.shape),
                                         StridedLayout::of(selfView), StridedLayout::of(view_of(weight)),
                                         StridedLayout::of(view_of(gradInput)), StridedLayout::of(view_of(gradWeight))};
    const uint64_t workspaceBytes = tiling.workspaceSize;
    return hand_back_kernel<PreluBackwardKernel>(inputs, outputs, workspaceBytes, workspaceSize, executor,
                                                 std::move(tiling), operands);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnPreluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                          const aclTensor* weight, aclTensor* gradInput,
                                                          aclTensor* gradWeight, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
    return aclcpu::ops::get_workspace_size(gradOutput, self, weight, gradInput, gradWeight, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnPreluBackward)
