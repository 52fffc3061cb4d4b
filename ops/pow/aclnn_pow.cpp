// acl-cpu: aclnnPowTensorScalar, aclnnInplacePowTensorScalar,
// aclnnPowScalarTensor, aclnnPowTensorTensor, aclnnInplacePowTensorTensor --
// out = self ^ exponent.
//
// Phase 1 checks in the order of CANN's op_api code (math/pow/op_api/
// aclnn_pow.cpp and aclnn_pow_tensor_tensor.cpp, their A2 branches), then
// computes in the promoted dtype and casts into out.  The in-place forms are
// the out-of-place ones with self as out.
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"

#include "common/binary.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/promotion.hpp"
#include "pow/pow_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kPowDtypes = {ACL_FLOAT, ACL_INT32,  ACL_INT64,     ACL_FLOAT16,    ACL_INT8,  ACL_UINT8,
                                  ACL_DOUBLE, ACL_BOOL, ACL_INT16, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

/// The dtypes Square takes as INT32 (SQUARE_NEED_CAST_DTYPE_LIST).
constexpr DtypeList kSquareViaInt32 = {ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_INT16};

/// aclnn_pow.cpp, CheckDtypeValid: both dtypes listed, promotable, and the
/// promoted dtype castable into out -> 161002.
aclnnStatus check_pow_dtypes(aclDataType self, aclDataType exponent, aclDataType out) {
    if (!contains(kPowDtypes, self)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Self dtype %s should be in dtype support list %s.",
                           dtype_name(self), dtype_list_string(kPowDtypes).c_str());
    }
    if (!contains(kPowDtypes, exponent)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "exp dtype %s should be in dtype support list %s.",
                           dtype_name(exponent), dtype_list_string(kPowDtypes).c_str());
    }
    const aclDataType promoted = promote_types(self, exponent);
    if (promoted == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "self dtype %s and exponent dtype %s can not promote dtype.",
                           dtype_name(self), dtype_name(exponent));
    }
    return check_can_cast(promoted, out);
}

/// aclnn_pow.cpp, CheckPromoteType: the operator's compute dtype exists,
/// not both BOOL, castable into out -> 161002.
aclnnStatus check_pow_compute_dtype(aclDataType self, aclDataType exponent, aclDataType out, aclDataType compute) {
    if (compute == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Self dtype %s and exponent dtype %s can not promote dtype.",
                           dtype_name(self), dtype_name(exponent));
    }
    if (self == ACL_BOOL && exponent == ACL_BOOL) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Self and exponent dtype are bool is not supported.");
    }
    return check_can_cast(compute, out);
}

aclnnStatus pow_tensor_scalar(const char* api, const aclTensor* self, const aclScalar* exponent, const aclTensor* out,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {exponent, "exponent"}, {out, "out"}}));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType exponentDtype = dtype_of(exponent);
    const aclDataType outDtype = view_of(out).dtype;
    ACLCPU_RETURN_IF_ERROR(check_pow_dtypes(selfDtype, exponentDtype, outDtype));
    const aclDataType compute = pow_tensor_scalar_promotion(selfDtype, exponentDtype, outDtype);
    ACLCPU_RETURN_IF_ERROR(check_pow_compute_dtype(selfDtype, exponentDtype, outDtype, compute));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    // The graph's choice compares the exponent as a float: 2.0000001 is Square.
    const float value = to_float(exponent);
    if (takes_pows(compute, value) || value == 1.0f) {
        return hand_back_unary<PowsOp>(api, self, out, compute, {value}, workspaceSize, executor);
    }
    if (value == 2.0f) {
        const aclDataType squareDtype = contains(kSquareViaInt32, compute) ? ACL_INT32 : compute;
        return hand_back_unary<PowsOp>(api, self, out, squareDtype, {value}, workspaceSize, executor);
    }
    return hand_back_binary<PowOp>(api, {self, "self"}, {exponent, "exponent"}, out, compute, {}, workspaceSize,
                                   executor);
}

aclnnStatus pow_scalar_tensor(const aclScalar* self, const aclTensor* exponent, const aclTensor* out,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {exponent, "exponent"}, {out, "out"}}));
    const aclDataType selfDtype = dtype_of(self);
    const aclDataType exponentDtype = view_of(exponent).dtype;
    const aclDataType outDtype = view_of(out).dtype;
    ACLCPU_RETURN_IF_ERROR(check_pow_dtypes(selfDtype, exponentDtype, outDtype));
    const aclDataType compute = pow_scalar_tensor_promotion(selfDtype, exponentDtype, outDtype);
    ACLCPU_RETURN_IF_ERROR(check_pow_compute_dtype(selfDtype, exponentDtype, outDtype, compute));
    ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(exponent, out));
    return hand_back_binary<PowOp>("aclnnPowScalarTensor", {self, "self"}, {exponent, "exponent"}, out, compute, {},
                                   workspaceSize, executor);
}

/// aclnn_pow_tensor_tensor.cpp, CheckParams.
aclnnStatus pow_tensor_tensor(const char* api, const aclTensor* self, const aclTensor* exponent, const aclTensor* out,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {exponent, "exponent"}, {out, "out"}}));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType exponentDtype = view_of(exponent).dtype;
    if (selfDtype == ACL_BOOL && exponentDtype == ACL_BOOL) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Self and exponent dtype are bool is not supported.");
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {exponent, "exponent"}}, kPowDtypes));
    const aclDataType compute = promote_types(selfDtype, exponentDtype);
    if (compute == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "self dtype %s and exponent dtype %s can not promote dtype.",
                           dtype_name(selfDtype), dtype_name(exponentDtype));
    }
    ACLCPU_RETURN_IF_ERROR(check_can_cast(compute, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_broadcast_into(self, exponent, out, "out"));
    return hand_back_binary<PowOp>(api, {self, "self"}, {exponent, "exponent"}, out, compute, {}, workspaceSize,
                                   executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

ACLCPU_BINARY_ENTRIES(PowTensorScalar, aclScalar, const aclTensor, pow_tensor_scalar, const aclTensor,
                      pow_tensor_scalar)
ACLCPU_BINARY_ENTRIES(PowTensorTensor, aclTensor, aclTensor, pow_tensor_tensor, const aclTensor, pow_tensor_tensor)

extern "C" aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* exponent,
                                                            const aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    return pow_scalar_tensor(self, exponent, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnPowScalarTensor)
