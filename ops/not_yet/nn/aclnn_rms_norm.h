/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_rms_norm.h:
 * out = x / rms(x) * gamma over the dimensions of gamma; also returns 1/rms.
 */
#ifndef ACL_CPU_ACLNN_RMS_NORM_H_
#define ACL_CPU_ACLNN_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                                   const aclTensor* yOut, const aclTensor* rstdOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_RMS_NORM_H_ */
