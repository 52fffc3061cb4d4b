// acl-cpu ops/common: the end of phase 1.
#include "common/phase1.hpp"

#include "common/op_checks.hpp"

namespace aclcpu::ops {

aclnnStatus hand_back_executor(std::shared_ptr<const OpKernel> kernel, TensorSpan inputs, TensorSpan outputs,
                               uint64_t workspaceBytes, uint64_t* workspaceSize, aclOpExecutor** executor) noexcept {
    // Most op_apis check both out-parameters first (check_comm_input); the
    // ones that do not (WeightQuantBatchMatmulV2 writes through them
    // unchecked) must still answer rather than crash.
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    aclOpExecutor* made = make_executor(std::move(kernel), inputs, outputs, workspaceBytes);
    if (made == nullptr) return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    *workspaceSize = workspaceBytes;
    *executor = made;
    return ACLNN_SUCCESS;
}

}  // namespace aclcpu::ops
