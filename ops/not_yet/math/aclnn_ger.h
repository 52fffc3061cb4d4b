/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_ger.h:
 * out = the outer product of the vectors self and vec2.
 */
#ifndef ACL_CPU_ACLNN_GER_H_
#define ACL_CPU_ACLNN_GER_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGerGetWorkspaceSize(const aclTensor* self, const aclTensor* vec2, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGer(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_GER_H_ */
