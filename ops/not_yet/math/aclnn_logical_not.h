/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_logical_not.h:
 * out = !self, elementwise; the Inplace form writes selfRef.
 */
#ifndef ACL_CPU_ACLNN_LOGICAL_NOT_H_
#define ACL_CPU_ACLNN_LOGICAL_NOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogicalNot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceLogicalNotGetWorkspaceSize(
    aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceLogicalNot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_LOGICAL_NOT_H_ */
