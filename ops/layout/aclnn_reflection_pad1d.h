/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_reflection_pad1d.h:
 * out = self padded by reflection along its last dimension.
 */
#ifndef ACL_CPU_ACLNN_REFLECTION_PAD1D_H_
#define ACL_CPU_ACLNN_REFLECTION_PAD1D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                           aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReflectionPad1d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_REFLECTION_PAD1D_H_ */
