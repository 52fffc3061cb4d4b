/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_sign.h:
 * out = the sign of self (-1, 0 or 1), elementwise.
 */
#ifndef ACL_CPU_ACLNN_SIGN_H_
#define ACL_CPU_ACLNN_SIGN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* result, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSign(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SIGN_H_ */
