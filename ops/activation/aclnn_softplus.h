/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_softplus.h -- out = beta * self > threshold ? self : ln(1 + e^(beta * self)) / beta.
 */
#ifndef ACL_CPU_ACLNN_SOFTPLUS_H_
#define ACL_CPU_ACLNN_SOFTPLUS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
                                                    const aclScalar* threshold, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftplus(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SOFTPLUS_H_ */
