/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_triu.h:
 * out = the upper triangle of self (elements below diagonal set to zero); the
 * Inplace form writes selfRef.
 */
#ifndef ACL_CPU_ACLNN_TRIU_H_
#define ACL_CPU_ACLNN_TRIU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTriu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceTriu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_TRIU_H_ */
