/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_scaled_masked_softmax_backward.h -- per row of the last axis,
 * out = scale * (gradOutput*y - sum(gradOutput*y) * y), zero where mask is true.
 */
#ifndef ACL_CPU_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_
#define ACL_CPU_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                       const aclTensor* y, const aclTensor* mask,
                                                                       double scale, bool fixTriuMask,
                                                                       aclTensor* out, uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnScaledMaskedSoftmaxBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_ */
