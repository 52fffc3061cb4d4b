// acl-cpu ops/common: the end of phase 1.
#include "common/phase1.hpp"

namespace aclcpu::ops {

aclnnStatus hand_back_executor(std::shared_ptr<const OpKernel> kernel, TensorSpan inputs, TensorSpan outputs,
                               uint64_t workspaceBytes, uint64_t* workspaceSize, aclOpExecutor** executor) noexcept {
    aclOpExecutor* made = make_executor(std::move(kernel), inputs, outputs, workspaceBytes);
    if (made == nullptr) return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    *workspaceSize = workspaceBytes;
    *executor = made;
    return ACLNN_SUCCESS;
}

}  // namespace aclcpu::ops
