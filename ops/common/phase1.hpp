// acl-cpu ops/common: how phase 1 of every operator ends -- an executor
// handed back through the caller's out-parameters.
#pragma once

#include "common/internal.hpp"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <utility>

#include "aclcpu/nnopbase.hpp"

namespace aclcpu::ops {

using TensorList = std::initializer_list<const aclTensor*>;

/// Hands back an executor running kernel (nullptr: one that launches
/// nothing) over inputs and outputs, in the operator's declaration order,
/// and workspaceBytes in *workspaceSize.  A null out-parameter -> 161001,
/// host allocation failure -> 561101 (both reported), with the
/// out-parameters untouched.
aclnnStatus hand_back_executor(std::shared_ptr<const OpKernel> kernel, TensorSpan inputs, TensorSpan outputs,
                               uint64_t workspaceBytes, uint64_t* workspaceSize, aclOpExecutor** executor) noexcept;

/// CANN's empty-tensor ending: workspace 0 and an executor with no task.
inline aclnnStatus hand_back_empty_executor(TensorSpan inputs, TensorSpan outputs, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) noexcept {
    return hand_back_executor(nullptr, inputs, outputs, 0, workspaceSize, executor);
}

/// Hands back an executor running a Kernel built from kernelArgs (see
/// hand_back_executor); host allocation failure -> 561101 (reported).
/// The kernel's memory is handover memory: a single-use executor's kernel
/// is freed on the device worker that ran it.
template <class Kernel, class... Args>
aclnnStatus hand_back_kernel(TensorSpan inputs, TensorSpan outputs, uint64_t workspaceBytes, uint64_t* workspaceSize,
                             aclOpExecutor** executor, Args&&... kernelArgs) noexcept {
    std::shared_ptr<const OpKernel> kernel;
    try {
        kernel = std::allocate_shared<Kernel>(HandoverAllocator<Kernel>(), std::forward<Args>(kernelArgs)...);
    } catch (const std::bad_alloc&) {
        report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    }
    return hand_back_executor(std::move(kernel), inputs, outputs, workspaceBytes, workspaceSize, executor);
}

}  // namespace aclcpu::ops
