/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_swi_glu.h:
 * out = Swish(first half of x along dim) * second half.
 */
#ifndef ACL_CPU_ACLNN_SWI_GLU_H_
#define ACL_CPU_ACLNN_SWI_GLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwiGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SWI_GLU_H_ */
