/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_zero.h:
 * selfRef = 0, every element.
 */
#ifndef ACL_CPU_ACLNN_ZERO_H_
#define ACL_CPU_ACLNN_ZERO_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceZero(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_ZERO_H_ */
