// acl-cpu: aclnnApplyAdamWV2 -- CANN's checks
// (optim/apply_adam_w_v2/op_host/op_api/aclnn_apply_adam_w_v2.cpp of ops-nn)
// and one launch of the tensor-list engine updating var, m, v (and
// maxGradNorm) in place.
#include "common/internal.hpp"

#include <vector>

#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "optim/adam_w_kernel.hpp"

namespace aclcpu::ops {
namespace {

/// ASCEND910B_DTYPE_SUPPORT_LIST (DAV_2201) and STEP_DTYPE_SUPPORT_LIST.
constexpr DtypeList kAdamWDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kStepDtypes = {ACL_FLOAT, ACL_INT64};

/// CheckParams: not null (maxGradNorm only with amsgrad) -> 161001; the
/// dtypes, then the shapes (all of var's, step one element) -> 161002.
aclnnStatus check_adam_w(const aclTensor* var, const aclTensor* m, const aclTensor* v, const aclTensor* maxGradNorm,
                         const aclTensor* grad, const aclTensor* step, bool amsgrad) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{var, "varRef"}, {m, "mRef"}, {v, "vRef"}}));
    if (amsgrad) ACLCPU_RETURN_IF_ERROR(check_not_null(maxGradNorm, "maxGradNormOptionalRef"));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{grad, "grad"}, {step, "step"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{var, "varRef"}, {m, "mRef"}, {v, "vRef"}}, kAdamWDtypes));
    if (maxGradNorm != nullptr) {
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported(maxGradNorm, "maxGradNormOptionalRef", kAdamWDtypes));
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(grad, "grad", kAdamWDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(step, "step", kStepDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(m, "mRef", var, "varRef"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(v, "vRef", var, "varRef"));
    if (maxGradNorm != nullptr) {
        ACLCPU_RETURN_IF_ERROR(check_same_shape(maxGradNorm, "maxGradNormOptionalRef", var, "varRef"));
    }
    ACLCPU_RETURN_IF_ERROR(check_same_shape(grad, "grad", var, "varRef"));
    if (view_of(step).numel() != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Numel of step must be 1, but got %ld.", view_of(step).numel());
    }
    return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu;
using namespace aclcpu::ops;

/// Every operand keeps its dtype: CANN's mixed forms (an FLOAT var, m, v with
/// FLOAT16 or BF16 grad and maxGradNorm, its MixType kernel) and the Cast to
/// FLOAT of every other mix both compute in fp32 and round each result once
/// into its tensor's dtype, which the engine's gather/scatter do.
extern "C" aclnnStatus aclnnApplyAdamWV2GetWorkspaceSize(aclTensor* varRef, aclTensor* mRef, aclTensor* vRef,
                                                         aclTensor* maxGradNormOptionalRef, const aclTensor* grad,
                                                         const aclTensor* step, float lr, float beta1, float beta2,
                                                         float weightDecay, float eps, bool amsgrad, bool maximize,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_adam_w(varRef, mRef, vRef, maxGradNormOptionalRef, grad, step, amsgrad));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(
        {{varRef, "varRef"}, {mRef, "mRef"}, {vRef, "vRef"}, {grad, "grad"}, {step, "step"}}));
    // CANN copies a given maxGradNorm back even without amsgrad.
    if (maxGradNormOptionalRef != nullptr) {
        ACLCPU_RETURN_IF_ERROR(check_view_in_storage(maxGradNormOptionalRef, "maxGradNormOptionalRef"));
    }
    if (is_empty(varRef)) return hand_back_empty_executor({}, {}, workspaceSize, executor);
    // Without amsgrad the kernel neither reads nor writes maxGradNorm.
    const bool withMax = amsgrad;
    TensorLists lists{{{varRef}, {mRef}, {vRef}, {grad}}, {{varRef}, {mRef}, {vRef}}};
    if (withMax) {
        lists.inputs.push_back({maxGradNormOptionalRef});
        lists.outputs.push_back({maxGradNormOptionalRef});
    }
    const AdamWParams params{lr, beta1, beta2, weightDecay, eps, maximize, view_of(step).dtype, view_of(step).offset};
    const char* api = "aclnnApplyAdamWV2";
    const aclDataType blockDtype = view_of(varRef).dtype;
    const std::vector<const aclTensor*> inputs = lists.flat_inputs({step});
    const std::vector<const aclTensor*> outputs = lists.flat_outputs();
    if (withMax) {
        return hand_back_kernel<TensorListKernel<AdamWParams, adam_w_amsgrad_block>>(
            inputs, outputs, 0, workspaceSize, executor, api, lists.operands(), blockDtype, params, 1);
    }
    return hand_back_kernel<TensorListKernel<AdamWParams, adam_w_block>>(inputs, outputs, 0, workspaceSize, executor,
                                                                         api, lists.operands(), blockDtype, params, 1);
}
ACLCPU_DEFINE_PHASE2(aclnnApplyAdamWV2)
