/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_logit_grad.h -- out = dy / (x*(1-x)) inside [eps, 1-eps]
 * (inside [0, 1] when eps < 0), and 0 (eps >= 0) or NaN (eps < 0) outside.
 */
#ifndef ACL_CPU_ACLNN_LOGIT_GRAD_H_
#define ACL_CPU_ACLNN_LOGIT_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor* x, const aclTensor* dy, double eps,
                                                     const aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnLogitGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_LOGIT_GRAD_H_ */
