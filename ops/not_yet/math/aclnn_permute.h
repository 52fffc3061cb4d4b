/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_permute.h:
 * out = self with its dimensions reordered by dims.
 */
#ifndef ACL_CPU_ACLNN_PERMUTE_H_
#define ACL_CPU_ACLNN_PERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_PERMUTE_H_ */
