/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_embedding.h:
 * out = the rows of weight selected by indices.
 */
#ifndef ACL_CPU_ACLNN_EMBEDDING_H_
#define ACL_CPU_ACLNN_EMBEDDING_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                                     const aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbedding(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_EMBEDDING_H_ */
