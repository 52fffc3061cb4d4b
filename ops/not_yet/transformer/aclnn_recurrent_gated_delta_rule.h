/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_recurrent_gated_delta_rule.h:
 * The recurrent gated delta rule of linear attention: updates the state in
 * place and returns the output of each step.
 */
#ifndef ACL_CPU_ACLNN_RECURRENT_GATED_DELTA_RULE_H_
#define ACL_CPU_ACLNN_RECURRENT_GATED_DELTA_RULE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRecurrentGatedDeltaRuleGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* beta, aclTensor* stateRef,
    const aclTensor* actualSeqLengths, const aclTensor* ssmStateIndices, const aclTensor* g, const aclTensor* gk,
    const aclTensor* numAcceptedTokens, float scaleValue, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRecurrentGatedDeltaRule(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_RECURRENT_GATED_DELTA_RULE_H_ */
