/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_repeat.h:
 * out = self tiled repeats times along each dimension.
 */
#ifndef ACL_CPU_ACLNN_REPEAT_H_
#define ACL_CPU_ACLNN_REPEAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRepeat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_REPEAT_H_ */
