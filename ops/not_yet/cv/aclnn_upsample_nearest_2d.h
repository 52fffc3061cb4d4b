/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_upsample_nearest_2d.h:
 * out = self resized to outputSize by nearest-neighbour sampling (NCHW).
 */
#ifndef ACL_CPU_ACLNN_UPSAMPLE_NEAREST_2D_H_
#define ACL_CPU_ACLNN_UPSAMPLE_NEAREST_2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* outputSize, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_UPSAMPLE_NEAREST_2D_H_ */
