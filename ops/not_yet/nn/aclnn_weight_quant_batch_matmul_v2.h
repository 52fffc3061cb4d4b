/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_weight_quant_batch_matmul_v2.h:
 * out = x @ dequantised weight, the weight stored as int8/int4 with
 * per-channel or per-group antiquant scale and offset.
 */
#ifndef ACL_CPU_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_
#define ACL_CPU_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* biasOptional, int antiquantGroupSize, const aclTensor* y, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_ */
