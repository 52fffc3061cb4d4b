/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_softplus_backward.h -- gradInput = gradOutput * sigmoid(beta*self),
 * or gradOutput itself where beta*self > threshold.
 */
#ifndef ACL_CPU_ACLNN_SOFTPLUS_BACKWARD_H_
#define ACL_CPU_ACLNN_SOFTPLUS_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            const aclScalar* beta, const aclScalar* threshold,
                                                            aclTensor* gradInput, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnSoftplusBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SOFTPLUS_BACKWARD_H_ */
