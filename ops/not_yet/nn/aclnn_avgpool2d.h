/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_avgpool2d.h:
 * 2-D average pooling over NCHW input.
 */
#ifndef ACL_CPU_ACLNN_AVGPOOL2D_H_
#define ACL_CPU_ACLNN_AVGPOOL2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                     const aclIntArray* strides, const aclIntArray* paddings,
                                                     const bool ceilMode, const bool countIncludePad,
                                                     const int64_t divisorOverride, const int8_t cubeMathType,
                                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAvgPool2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_AVGPOOL2D_H_ */
