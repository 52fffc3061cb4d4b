/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_gelu_v2.h -- y = GELU(x): approximate 1 is the tanh form, any other value the erf form.
 */
#ifndef ACL_CPU_ACLNN_GELU_V2_H_
#define ACL_CPU_ACLNN_GELU_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_GELU_V2_H_ */
