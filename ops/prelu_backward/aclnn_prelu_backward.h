/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_prelu_backward.h -- gradients of PReLU with the channel on
 * dim 1: gradInput = self > 0 ? gradOutput : weight[c]*gradOutput and
 * gradWeight[c] = sum over the other dims of (self > 0 ? 0 : self*gradOutput).
 */
#ifndef ACL_CPU_ACLNN_PRELU_BACKWARD_H_
#define ACL_CPU_ACLNN_PRELU_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPreluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                         const aclTensor* weight, aclTensor* gradInput,
                                                         aclTensor* gradWeight, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnPreluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_PRELU_BACKWARD_H_ */
