/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_silu.h -- out = self / (1 + e^-self).
 */
#ifndef ACL_CPU_ACLNN_SILU_H_
#define ACL_CPU_ACLNN_SILU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSilu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SILU_H_ */
