// acl-cpu: the arithmetic of ApplyAdamWV2 on the tensor-list engine
// (common/tensor_lists.hpp): var, m, v (and maxGradNorm) updated in place in
// one pass, each read and written in its own dtype, computed in fp32.
#pragma once

#include "common/internal.hpp"

#include <cstdint>

#include "acl/acl_base.h"
#include "common/tensor_lists.hpp"

namespace aclcpu::ops {

/// The attributes of ApplyAdamWV2 and the scalars its kernel derives from
/// them and from the step tensor, read on the device at launch
/// (apply_adam_w_v2_fp.h, Init).
struct AdamWParams {
    float lr = 0;
    float beta1 = 0;
    float beta2 = 0;
    float weightDecay = 0;
    float eps = 0;
    bool maximize = false;
    aclDataType stepDtype = ACL_FLOAT;
    /// The step tensor's view offset, in elements.
    int64_t stepOffset = 0;

    // Set by at_launch.
    float stepSize = 0;             // lr / (1 - beta1^(step + 1))
    float biasCorrection2Sqrt = 0;  // 1 / sqrt(1 - beta2^(step + 1))
    float decay = 0;                // 1 - lr * weightDecay

    /// The scalars for the step the tensor at extraInputs[0] holds (the
    /// count of steps taken before this one: the kernel adds 1).
    AdamWParams at_launch(const void* const* extraInputs) const noexcept;
};

/// var, m, v, grad -> var, m, v.
ACLCPU_DECLARE_TENSOR_LIST_BLOCK(adam_w_block, AdamWParams)
/// var, m, v, grad, maxGradNorm -> var, m, v, maxGradNorm (amsgrad).
ACLCPU_DECLARE_TENSOR_LIST_BLOCK(adam_w_amsgrad_block, AdamWParams)

}  // namespace aclcpu::ops
