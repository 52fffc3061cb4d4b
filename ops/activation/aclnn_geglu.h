/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_geglu.h:
 * out = GELU(one half of self along dim) * the other half; V3 chooses which
 * half is activated.
 */
#ifndef ACL_CPU_ACLNN_GEGLU_H_
#define ACL_CPU_ACLNN_GEGLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                                 aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate,
                                                   bool activateLeft, aclTensor* out, aclTensor* outGelu,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnGeGluV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_GEGLU_H_ */
