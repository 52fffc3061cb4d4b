/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_constant_pad_nd.h:
 * out = self padded with a constant value; pad lists (before, after) pairs
 * from the last dimension.
 */
#ifndef ACL_CPU_ACLNN_CONSTANT_PAD_ND_H_
#define ACL_CPU_ACLNN_CONSTANT_PAD_ND_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad,
                                                         const aclScalar* value, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConstantPadNd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_CONSTANT_PAD_ND_H_ */
