// acl-cpu: aclnnSub, aclnnSubs, aclnnInplaceSub, aclnnInplaceSubs
// (out = self - alpha * other) and aclnnRsub, aclnnRsubs
// (out = other - alpha * self).
//
// Phase 1 checks in the order of CANN's A2 op_api code and plans its A2
// graph: Sub when alpha is 1; otherwise Sub computes FLOAT16 and BF16 in
// FLOAT and uses Axpy(-alpha) for the floats, Mul then Sub for the rest;
// Subs keeps its compute dtype; Rsub and Rsubs always Mul then Sub.  On BOOL
// a subtraction is an exclusive or.
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_sub.h"

#include "arithmetic/arithmetic_phase1.hpp"
#include "common/phase2.hpp"
#include "common/promotion.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kSubDtypes = {ACL_FLOAT, ACL_INT32,  ACL_INT64, ACL_FLOAT16, ACL_INT16,     ACL_INT8,
                                  ACL_UINT8, ACL_DOUBLE, ACL_BF16,  ACL_BOOL,    ACL_COMPLEX64, ACL_COMPLEX128};
constexpr DtypeList kRsubDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64,     ACL_INT32,      ACL_INT8, ACL_UINT8,
                                   ACL_INT16, ACL_DOUBLE,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr DtypeList kAxpyDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kNoAxpy = {};

/// CheckPromoteType of the Sub family; Rsub has no BOOL rule for alpha.
aclnnStatus check_sub_dtypes(aclDataType self, aclDataType other, const aclScalar* alpha, const aclTensor* out,
                             aclDataType promoted, bool reversed) {
    ACLCPU_RETURN_IF_ERROR(check_promotable(self, other, promoted));
    if (reversed) {
        ACLCPU_RETURN_IF_ERROR(check_can_cast(dtype_of(alpha), promoted));
    } else {
        ACLCPU_RETURN_IF_ERROR(check_alpha_castable(alpha, promoted));
    }
    return check_can_cast(promoted, view_of(out).dtype);
}

/// Rsub's test of alpha == 1 (IsScalarOne): exact, and never for a BOOL or
/// complex alpha.
bool rsub_alpha_is_one(const aclScalar* alpha) {
    const aclDataType dtype = dtype_of(alpha);
    if (dtype == ACL_BOOL || is_complex(dtype)) return false;
    return is_integral(dtype) ? to_int64(alpha) == 1 : to_float(alpha) == 1.0f;
}

/// Sub's graph, or with reversed Rsub's: other - alpha * self, Mul then Sub
/// whenever alpha is not 1.
aclnnStatus hand_back_sub(const char* api, const NamedArg& self, const NamedArg& other, const aclScalar* alpha,
                          const aclTensor* out, aclDataType computeDtype, bool reversed, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    const AxpyParams params = reversed
                                  ? axpy_params(computeDtype, alpha, rsub_alpha_is_one(alpha), kNoAxpy, true, true)
                                  : axpy_params(computeDtype, alpha, alpha_is_one(alpha), kAxpyDtypes, true);
    return hand_back_arithmetic<AxpyOp>(api, self, other, out, computeDtype, params, workspaceSize, executor);
}

/// Sub with reversed == false, Rsub (other - alpha * self) with reversed == true.
template <bool reversed>
aclnnStatus sub(const char* api, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {other, "other"}, {alpha, "alpha"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {other, "other"}}, reversed ? kRsubDtypes : kSubDtypes));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType otherDtype = view_of(other).dtype;
    aclDataType promoted = promote_types(selfDtype, otherDtype);
    ACLCPU_RETURN_IF_ERROR(check_sub_dtypes(selfDtype, otherDtype, alpha, out, promoted, reversed));
    ACLCPU_RETURN_IF_ERROR(check_broadcast_into(self, other, out, "out"));
    // With alpha != 1, CANN's A2 Sub computes FLOAT16 and BF16 in FLOAT.
    if (!reversed && !alpha_is_one(alpha) && is_floating(promoted) && promoted != ACL_DOUBLE) promoted = ACL_FLOAT;
    return hand_back_sub(api, {self, "self"}, {other, "other"}, alpha, out, promoted, reversed, workspaceSize,
                         executor);
}

/// Subs with reversed == false, Rsubs (other - alpha * self) with reversed == true.
template <bool reversed>
aclnnStatus subs(const char* api, const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                 const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {other, "other"}, {alpha, "alpha"}, {out, "out"}}));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType otherDtype = dtype_of(other);
    const aclDataType outDtype = view_of(out).dtype;
    if (reversed) {
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kRsubDtypes));
        ACLCPU_RETURN_IF_ERROR(check_scalar_dtype_supported(other, "other", kRsubDtypes));
    } else {
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSubDtypes));
    }
    const aclDataType promoted = reversed ? rsub_scalar_promotion(selfDtype, otherDtype)
                                          : add_sub_scalar_promotion(selfDtype, otherDtype, outDtype);
    ACLCPU_RETURN_IF_ERROR(check_sub_dtypes(selfDtype, otherDtype, alpha, out, promoted, reversed));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", self, "self"));
    return hand_back_sub(api, {self, "self"}, {other, "other"}, alpha, out, promoted, reversed, workspaceSize,
                         executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

ACLCPU_ALPHA_ENTRY(aclnnSub, aclTensor, sub<false>)
ACLCPU_ALPHA_ENTRY(aclnnSubs, aclScalar, subs<false>)
// CANN's own in-place check never fails (it returns false, which is
// ACLNN_SUCCESS); Sub's checks on out = selfRef give the codes.
ACLCPU_INPLACE_ALPHA_ENTRY(aclnnInplaceSub, aclTensor, aclTensor, sub<false>)
ACLCPU_INPLACE_ALPHA_ENTRY(aclnnInplaceSubs, aclTensor, aclScalar, subs<false>)
ACLCPU_ALPHA_ENTRY(aclnnRsub, aclTensor, sub<true>)
ACLCPU_ALPHA_ENTRY(aclnnRsubs, aclScalar, subs<true>)
