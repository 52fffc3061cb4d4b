/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_trans_matmul_weight.h:
 * Converts a matmul weight into the layout the matmul kernels prefer;
 * CalculateMatmulWeightSize(V2) gives the element count it needs.
 */
#ifndef ACL_CPU_ACLNN_TRANS_MATMUL_WEIGHT_H_
#define ACL_CPU_ACLNN_TRANS_MATMUL_WEIGHT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                                       uint64_t* weightTensorSize);
ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape, uint64_t* weightTensorSize);
ACLNN_API aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(
    aclTensor* mmWeightRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransMatmulWeight(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_TRANS_MATMUL_WEIGHT_H_ */
