/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_sum.h:
 * out = the elementwise sum of the tensors of a list.
 */
#ifndef ACL_CPU_ACLNN_SUM_H_
#define ACL_CPU_ACLNN_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SUM_H_ */
