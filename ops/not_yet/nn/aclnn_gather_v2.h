/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_gather_v2.h:
 * out = the slices of self along dim selected by index.
 */
#ifndef ACL_CPU_ACLNN_GATHER_V2_H_
#define ACL_CPU_ACLNN_GATHER_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                                    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGatherV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_GATHER_V2_H_ */
