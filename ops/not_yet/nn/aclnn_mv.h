/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_mv.h:
 * out = self @ vec, matrix times vector.
 */
#ifndef ACL_CPU_ACLNN_MV_H_
#define ACL_CPU_ACLNN_MV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out,
                                              int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_MV_H_ */
