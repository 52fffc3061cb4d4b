/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_softmax_cross_entropy_with_logits.h:
 * The cross-entropy loss of softmax(features) against labels, and its
 * gradient.
 */
#ifndef ACL_CPU_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_
#define ACL_CPU_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor* features, aclTensor* labels, aclTensor* loss, aclTensor* backprop, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftmaxCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize,
                                                         aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_ */
