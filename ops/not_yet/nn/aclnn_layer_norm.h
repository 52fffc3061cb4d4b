/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_layer_norm.h:
 * Layer normalisation over the trailing normalizedShape dimensions, with
 * optional weight/bias; also returns the mean and 1/std. WithImplMode chooses
 * the precision mode; FastLayerNorm is a faster variant.
 */
#ifndef ACL_CPU_ACLNN_LAYER_NORM_H_
#define ACL_CPU_ACLNN_LAYER_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                                     const aclTensor* weightOptional, const aclTensor* biasOptional,
                                                     double eps, aclTensor* out, aclTensor* meanOutOptional,
                                                     aclTensor* rstdOutOptional, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
    int32_t implMode, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFastLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                                         const aclTensor* weightOptional, const aclTensor* biasOptional,
                                                         double eps, aclTensor* out, aclTensor* meanOutOptional,
                                                         aclTensor* rstdOutOptional, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLayerNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);
ACLNN_API aclnnStatus aclnnLayerNormWithImplMode(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);
ACLNN_API aclnnStatus aclnnFastLayerNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_LAYER_NORM_H_ */
