/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_gelu.h -- out = GELU(self) in its tanh approximation.
 */
#ifndef ACL_CPU_ACLNN_GELU_H_
#define ACL_CPU_ACLNN_GELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_GELU_H_ */
