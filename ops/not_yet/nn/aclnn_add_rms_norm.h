/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_add_rms_norm.h:
 * x1 + x2, then RMS normalisation of the sum scaled by gamma; returns the
 * sum, the normalised result and 1/rms.
 */
#ifndef ACL_CPU_ACLNN_ADD_RMS_NORM_H_
#define ACL_CPU_ACLNN_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                                      double epsilon, aclTensor* yOut, aclTensor* rstdOut,
                                                      aclTensor* xOut, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_ADD_RMS_NORM_H_ */
