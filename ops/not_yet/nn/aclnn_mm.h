/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_mm.h:
 * out = self @ mat2, two matrices.
 */
#ifndef ACL_CPU_ACLNN_MM_H_
#define ACL_CPU_ACLNN_MM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                              int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_MM_H_ */
