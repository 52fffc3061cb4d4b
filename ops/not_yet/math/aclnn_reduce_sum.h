/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_reduce_sum.h:
 * out = the sum of self over dims, in dtype.
 */
#ifndef ACL_CPU_ACLNN_REDUCE_SUM_H_
#define ACL_CPU_ACLNN_REDUCE_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                                     aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_REDUCE_SUM_H_ */
