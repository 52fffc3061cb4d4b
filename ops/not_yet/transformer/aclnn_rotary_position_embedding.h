/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_rotary_position_embedding.h:
 * out = the rotary position embedding of x with the cos and sin tables, mode
 * 0 rotating halves, 1 interleaved pairs.
 */
#ifndef ACL_CPU_ACLNN_ROTARY_POSITION_EMBEDDING_H_
#define ACL_CPU_ACLNN_ROTARY_POSITION_EMBEDDING_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(
    const aclTensor* x, const aclTensor* cos, const aclTensor* sin, int64_t mode, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRotaryPositionEmbedding(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_ROTARY_POSITION_EMBEDDING_H_ */
