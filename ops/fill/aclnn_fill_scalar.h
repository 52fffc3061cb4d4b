/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_fill_scalar.h:
 * selfRef = value, every element.
 */
#ifndef ACL_CPU_ACLNN_FILL_SCALAR_H_
#define ACL_CPU_ACLNN_FILL_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(
    aclTensor* selfRef, const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceFillScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_FILL_SCALAR_H_ */
