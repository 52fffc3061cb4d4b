/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_cat.h:
 * out = the tensors of a list concatenated along dim.
 */
#ifndef ACL_CPU_ACLNN_CAT_H_
#define ACL_CPU_ACLNN_CAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_CAT_H_ */
