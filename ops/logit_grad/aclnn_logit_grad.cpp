// acl-cpu: aclnnLogitGrad, CANN's LogitGrad aclnn API.
//
// CANN generates this wrapper from the OpDef, so its check order is not
// public; acl-cpu checks workspace/executor pointers, null tensors, dtypes,
// equal dtypes and shapes of x, dy and out, then ranks.  Empty tensors get
// an empty executor; otherwise the workspace is LogitGrad's fixed 16 MiB.
#include "aclnnop/aclnn_logit_grad.h"

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "logit_grad/logit_grad_kernel.hpp"
#include "logit_grad/logit_grad_tiling.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT};

aclnnStatus check_params(const aclTensor* x, const aclTensor* dy, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{x, "x"}, {dy, "dy"}, {out, "out"}}));

    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{x, "x"}, {dy, "dy"}, {out, "out"}}, kDtypes));

    ACLCPU_RETURN_IF_ERROR(check_same_dtype(x, "x", dy, "dy"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(x, "x", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(x, "x", dy, "dy"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(x, "x", out, "out"));

    return check_max_dim({{x, "x"}, {dy, "dy"}, {out, "out"}});
}

aclnnStatus get_workspace_size(const aclTensor* x, const aclTensor* dy, double eps, const aclTensor* out,
                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_params(x, dy, out));
    if (is_empty(x)) return hand_back_empty_executor({x, dy}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{x, "x"}, {dy, "dy"}, {out, "out"}}));

    LogitGradTiling tiling = tile_logit_grad(view_of(out).numel(), soc_profile());
    const int64_t blockDim = tiling.elementwise.blocks.count();
    if (UbStaging::workspace_bytes(blockDim, tiling.stagingBytesPerBlock) > static_cast<int64_t>(tiling.workspaceSize)) {
        report_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag,
                     "LogitGrad tiling failed: %lld blocks do not fit their UB staging in the workspace.",
                     static_cast<long long>(blockDim));
        return ACLNN_ERR_INNER_TILING_ERROR;
    }
    const ElementwiseOperands<2> operands{{StridedLayout::of(view_of(x)), StridedLayout::of(view_of(dy))},
                                          StridedLayout::of(view_of(out)),
                                          view_of(out).dtype};
    const uint64_t workspaceBytes = tiling.workspaceSize;
    // The tiling data holds eps as a float.
    return hand_back_kernel<LogitGradKernel>({x, dy}, {out}, workspaceBytes, workspaceSize, executor, "aclnnLogitGrad",
                                             tiling.elementwise, operands,
                                             LogitGradParams::for_eps(static_cast<float>(eps)),
                                             tiling.stagingBytesPerBlock);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor* x, const aclTensor* dy, double eps,
                                                      const aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    return aclcpu::ops::get_workspace_size(x, dy, eps, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnLogitGrad)
