/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_abs.h:
 * out = |self|, elementwise.
 */
#ifndef ACL_CPU_ACLNN_ABS_H_
#define ACL_CPU_ACLNN_ABS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest rank an aclnn tensor may have. */
#define ACLNN_MAX_SHAPE_RANK 8

ACLNN_API aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAbs(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_ABS_H_ */
