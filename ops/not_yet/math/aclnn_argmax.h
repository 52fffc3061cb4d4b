/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_argmax.h:
 * out = the index of the largest element along dim.
 */
#ifndef ACL_CPU_ACLNN_ARGMAX_H_
#define ACL_CPU_ACLNN_ARGMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArgMax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_ARGMAX_H_ */
