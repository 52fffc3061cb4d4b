/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_tril.h:
 * out = the lower triangle of self (elements above diagonal set to zero); the
 * Inplace form writes selfRef.
 */
#ifndef ACL_CPU_ACLNN_TRIL_H_
#define ACL_CPU_ACLNN_TRIL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                const aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_TRIL_H_ */
