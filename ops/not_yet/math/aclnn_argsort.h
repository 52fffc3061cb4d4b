/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_argsort.h:
 * out = the indices that sort self along dim, ascending or descending.
 */
#ifndef ACL_CPU_ACLNN_ARGSORT_H_
#define ACL_CPU_ACLNN_ARGSORT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArgsort(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_ARGSORT_H_ */
