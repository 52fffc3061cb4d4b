// acl-cpu: aclnnInplaceMaskedFillScalar, CANN's ops-math
// conversion/masked_fill/op_api/aclnn_masked_fill_scalar.cpp (CANN declares
// no out-of-place MaskedFillScalar).  Its checks, in order: null selfRef,
// mask, value (161001); selfRef's dtype in DTYPE_SUPPORT_LIST, mask BOOL;
// ranks <= 8, mask broadcast to selfRef's shape (161002).  An empty selfRef
// or mask hands back an empty executor.  Its graph: Contiguous, Cast(mask,
// BOOL), ConvertToTensor(value, selfRef's dtype), MaskedFill, ViewCopy --
// here the binary engine over (selfRef, mask cast to selfRef's dtype).
// CANN writes through workspaceSize and executor unchecked; acl-cpu checks
// them after the arguments and answers 161001.
#include "aclnnop/aclnn_masked_fill_scalar.h"

#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "fill/masked_fill_kernel.hpp"

namespace aclcpu::ops {
namespace {

/// DTYPE_SUPPORT_LIST (BF16 on 910B and later).
constexpr DtypeList kMaskedFillDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT8, ACL_BOOL, ACL_BF16};

aclnnStatus check_shape(const aclTensor* selfRef, const aclTensor* mask) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{selfRef, "selfRef"}, {mask, "mask"}}));
    return check_broadcasts_onto(selfRef, mask, "mask", "Shape of out should be %s, but current is %s.");
}

aclnnStatus phase1_masked_fill(aclTensor* selfRef, const aclTensor* mask, const aclScalar* value,
                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{selfRef, "selfRef"}, {mask, "mask"}, {value, "value"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(selfRef, "selfRef", kMaskedFillDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(mask, "mask", ACL_BOOL));
    ACLCPU_RETURN_IF_ERROR(check_shape(selfRef, mask));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const aclDataType dtype = view_of(selfRef).dtype;
    const ComputeValue converted = compute_value(value, dtype);
    const MaskedFillParams params{lane_value<float>(converted), converted};
    return hand_back_binary<MaskedFillOp>("aclnnInplaceMaskedFillScalar", {selfRef, "selfRef"}, {mask, "mask"},
                                          selfRef, dtype, params, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                                    const aclScalar* value, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
    return aclcpu::ops::phase1_masked_fill(selfRef, mask, value, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnInplaceMaskedFillScalar)
