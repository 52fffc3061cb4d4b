// acl-cpu: aclnnDiv, aclnnDivs, aclnnDivMod, aclnnDivMods and their
// in-place forms -- out = self / other, and for DivMod the quotient rounded
// as `mode` says (0 none, 1 toward zero, 2 down).
//
// Phase 1 checks in the order of CANN's A2 op_api code (for the tensor
// forms: nulls from out back to self, shapes, dtypes, formats, then the
// mode), and plans its A2 graph:
//   - two of FLOAT16, FLOAT and BF16 go to RealDiv / FloorDiv as they are:
//     computed in fp32, the result in self's dtype when both are alike and
//     FLOAT otherwise;
//   - otherwise a true quotient (Div, DivMod modes 0 and 1) of integers or
//     BOOL is FLOAT -- so is every DivMod mode 0/1 of DOUBLE or of integers
//     other than an INT32 pair rounded toward zero, which stays INT32 --
//     while floor division keeps integers and DOUBLE in their dtype;
//   - complex operands divide only without rounding (modes 1 and 2 ->
//     161002, checked after the empty-tensor return as CANN does).
#include "aclnnop/aclnn_div.h"

#include "arithmetic/arithmetic_phase1.hpp"
#include "common/phase2.hpp"
#include "common/promotion.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kDivDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_INT64, ACL_INT32, ACL_INT16,     ACL_INT8,
                                  ACL_UINT8,   ACL_DOUBLE, ACL_BOOL,  ACL_BF16,  ACL_COMPLEX64, ACL_COMPLEX128};
/// What is asked: a Div's true quotient, or a DivMod's with its mode.
struct Quotient {
    bool divMod = false;
    int mode = 0;  ///< DivMod's: 0 none, 1 trunc, 2 floor; 0 for Div
};
constexpr Quotient kTrueDivision{};

aclnnStatus check_format(const aclTensor* tensor) {
    switch (format_of(tensor)) {
        case ACL_FORMAT_ND: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_HWCN:
        case ACL_FORMAT_NDHWC: case ACL_FORMAT_NCDHW:
            return ACLNN_SUCCESS;
        default:
            return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW.");
    }
}

aclnnStatus check_mode(Quotient quotient) {
    if (!quotient.divMod || (quotient.mode >= 0 && quotient.mode <= 2)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "mode should be between 0 and 2, but current is %d", quotient.mode);
}

aclnnStatus check_not_complex(aclDataType computeDtype, Quotient quotient) {
    if (quotient.mode == 0 || !is_complex(computeDtype)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "promoteType do not support DT_COMPLEX128 or DT_COMPLEX64.");
}

/// The compute dtype of a quotient of promoted dtype `promoted` (not a
/// mixed float pair).
aclDataType quotient_dtype(aclDataType promoted, bool int32Pair, Quotient quotient) {
    if (!quotient.divMod) return is_floating(promoted) || is_complex(promoted) ? promoted : ACL_FLOAT;
    if (quotient.mode == 2) return promoted == ACL_BOOL ? ACL_FLOAT : promoted;
    const bool kept = promoted == ACL_FLOAT || promoted == ACL_FLOAT16 || promoted == ACL_BF16 || is_complex(promoted);
    if (kept) return promoted;
    return int32Pair && quotient.mode == 1 ? ACL_INT32 : ACL_FLOAT;
}

/// The quotient of self and other (a tensor or a scalar) in dtypes.
aclnnStatus hand_back_div(const char* api, const aclTensor* self, const NamedArg& other, const aclTensor* out,
                          BinaryDtypes dtypes, Quotient quotient, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const DivParams params{static_cast<DivRounding>(quotient.mode), dtypes.result};
    return hand_back_arithmetic<DivOp>(api, {self, "self"}, other, out, dtypes, params, workspaceSize, executor);
}

/// Div and DivMod over two tensors.
aclnnStatus div(const char* api, const aclTensor* self, const aclTensor* other, const aclTensor* out,
                uint64_t* workspaceSize, aclOpExecutor** executor, Quotient quotient = kTrueDivision) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{out, "out"}, {other, "other"}, {self, "self"}}));
    ACLCPU_RETURN_IF_ERROR(check_broadcast_into(self, other, out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{other, "other"}, {self, "self"}}, kDivDtypes));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType otherDtype = view_of(other).dtype;
    const aclDataType promoted = promote_types(selfDtype, otherDtype);
    ACLCPU_RETURN_IF_ERROR(check_promotable(selfDtype, otherDtype, promoted));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(promoted, view_of(out).dtype));
    for (const aclTensor* tensor : {self, other, out}) ACLCPU_RETURN_IF_ERROR(check_format(tensor));
    ACLCPU_RETURN_IF_ERROR(check_mode(quotient));
    if (is_empty(self) || is_empty(other)) {
        return hand_back_empty_executor({self, other}, {out}, workspaceSize, executor);
    }
    const NamedArg divisor{other, "other"};
    if (is_mixed_float_pair(selfDtype, otherDtype)) {
        const BinaryDtypes uncast{ACL_FLOAT, selfDtype == otherDtype ? selfDtype : ACL_FLOAT};
        return hand_back_div(api, self, divisor, out, uncast, quotient, workspaceSize, executor);
    }
    const bool int32Pair = selfDtype == ACL_INT32 && otherDtype == ACL_INT32;
    ACLCPU_RETURN_IF_ERROR(check_not_complex(promoted, quotient));
    return hand_back_div(api, self, divisor, out, quotient_dtype(promoted, int32Pair, quotient), quotient,
                         workspaceSize, executor);
}

/// The compute dtype of Divs and DivMods when self and the scalar are no
/// mixed float pair.
aclDataType scalar_quotient_dtype(aclDataType self, aclDataType scalar, Quotient quotient) {
    const bool int32Pair = self == ACL_INT32 && scalar == ACL_INT32;
    if (!quotient.divMod) {
        const aclDataType dtype = is_floating(self) || is_complex(self) ? self : ACL_FLOAT;
        return is_complex(scalar) ? promote_types(dtype, scalar) : dtype;
    }
    const aclDataType promoted = promote_types(self, scalar);
    if (quotient.mode == 2 || is_complex(promoted)) return quotient_dtype(promoted, int32Pair, quotient);
    const bool keepsSelf = self == ACL_FLOAT || self == ACL_FLOAT16 || self == ACL_BF16;
    return quotient_dtype(keepsSelf ? self : promoted, int32Pair, quotient);
}

/// Divs and DivMods: a tensor over a scalar.
aclnnStatus divs(const char* api, const aclTensor* self, const aclScalar* other, const aclTensor* out,
                 uint64_t* workspaceSize, aclOpExecutor** executor, Quotient quotient = kTrueDivision) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {other, "other"}, {out, "out"}}));
    for (const aclTensor* tensor : {out, self}) ACLCPU_RETURN_IF_ERROR(check_format(tensor));
    ACLCPU_RETURN_IF_ERROR(check_scalar_dtype_supported(other, "other", kDivDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kDivDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", self, "self"));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType scalarDtype = dtype_of(other);
    // On A2 CANN checks only that self's dtype casts into out's.
    ACLCPU_RETURN_IF_ERROR(check_can_cast(selfDtype, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_mode(quotient));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    const NamedArg divisor{other, "other"};
    // Divs takes only unlike mixed pairs (and BF16 over DOUBLE) uncast; DivMods every mixed pair.
    const bool mixed = !quotient.divMod
                           ? (is_mixed_float_pair(selfDtype, scalarDtype) && selfDtype != scalarDtype) ||
                                 (selfDtype == ACL_BF16 && scalarDtype == ACL_DOUBLE)
                           : is_mixed_float_pair(selfDtype, scalarDtype);
    if (mixed) {
        // The scalar in its own dtype (DOUBLE as FLOAT); the result in self's
        // dtype, except that a quotient rounded toward zero of unlike dtypes is FLOAT.
        const bool floatResult = quotient.mode == 1 && selfDtype != scalarDtype;
        const BinaryDtypes uncast{ACL_FLOAT, floatResult ? ACL_FLOAT : selfDtype};
        return hand_back_div(api, self, divisor, out, uncast, quotient, workspaceSize, executor);
    }
    const aclDataType computeDtype = scalar_quotient_dtype(selfDtype, scalarDtype, quotient);
    ACLCPU_RETURN_IF_ERROR(check_not_complex(computeDtype, quotient));
    return hand_back_div(api, self, divisor, out, computeDtype, quotient, workspaceSize, executor);
}

/// CANN's A2 runs a mixed float pair in place as RealDiv / FloorDiv into
/// selfRef's dtype; that rounds once to selfRef's dtype, as Div into out =
/// selfRef does, so both take Div's path (out is selfRef).
aclnnStatus inplace_div(const char* api, const aclTensor* selfRef, const aclTensor* other, const aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor, Quotient quotient = kTrueDivision) {
    // aclnn_div.cpp: CheckInplace, then Div's checks.
    ACLCPU_RETURN_IF_ERROR(check_inplace_broadcast(selfRef, other));
    return div(api, selfRef, other, out, workspaceSize, executor, quotient);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

ACLCPU_BINARY_ENTRIES(Div, aclTensor, aclTensor, div, aclTensor, inplace_div)
ACLCPU_BINARY_ENTRIES(Divs, aclScalar, aclTensor, divs, aclTensor, divs)

extern "C" {

aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor* self, const aclTensor* other, int mode, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    return div("aclnnDivMod", self, other, out, workspaceSize, executor, Quotient{true, mode});
}

aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, int mode, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    return divs("aclnnDivMods", self, other, out, workspaceSize, executor, Quotient{true, mode});
}

aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, int mode,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    return inplace_div("aclnnInplaceDivMod", selfRef, other, selfRef, workspaceSize, executor, Quotient{true, mode});
}

aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, int mode,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    return divs("aclnnInplaceDivMods", selfRef, other, selfRef, workspaceSize, executor, Quotient{true, mode});
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnDivMod)
ACLCPU_DEFINE_PHASE2(aclnnDivMods)
ACLCPU_DEFINE_PHASE2(aclnnInplaceDivMod)
ACLCPU_DEFINE_PHASE2(aclnnInplaceDivMods)
