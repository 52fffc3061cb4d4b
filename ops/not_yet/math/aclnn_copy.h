/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_copy.h:
 * selfRef = src, converting dtype and honouring both tensors' views.
 */
#ifndef ACL_CPU_ACLNN_COPY_H_
#define ACL_CPU_ACLNN_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_COPY_H_ */
