/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_roll.h:
 * out = self rolled by shifts along dims.
 */
#ifndef ACL_CPU_ACLNN_ROLL_H_
#define ACL_CPU_ACLNN_ROLL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRoll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_ROLL_H_ */
