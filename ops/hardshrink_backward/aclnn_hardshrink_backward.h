/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_hardshrink_backward.h -- gradInput = |self| <= lambd ? 0 : gradOutput,
 * with gradOutput and self broadcast against each other.
 */
#ifndef ACL_CPU_ACLNN_HARDSHRINK_BACKWARD_H_
#define ACL_CPU_ACLNN_HARDSHRINK_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              const aclScalar* lambd, aclTensor* gradInput,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnHardshrinkBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_HARDSHRINK_BACKWARD_H_ */
