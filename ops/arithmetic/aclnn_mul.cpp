// acl-cpu: aclnnMul, aclnnMuls, aclnnInplaceMul, aclnnInplaceMuls --
// out = self * other.
//
// Phase 1 checks in the order of CANN's A2 op_api code: Mul is the one
// family member that checks out's dtype against its list; on A2, Muls and
// InplaceMuls check neither promotion nor the cast into out (an integer out
// of a FLOAT product takes CANN's Cast: toward zero, saturating).  The
// product is computed in the promoted dtype (Muls: CANN's
// InferTensorScalarDtype) and cast into out.  On BOOL it is a logical and.
// CANN leaves Muls' and InplaceMul's rank unchecked; acl-cpu refuses more
// than 8 dims there too, as every other entry does, rather than fault.
#include "aclnnop/aclnn_mul.h"

#include "arithmetic/arithmetic_phase1.hpp"
#include "common/phase2.hpp"
#include "common/promotion.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kMulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE,     ACL_INT8,      ACL_UINT8,
                                  ACL_INT16, ACL_INT64,   ACL_BOOL,  ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};

aclnnStatus check_mul_promotable(const char* api, aclDataType self, aclDataType other, aclDataType promoted) {
    if (promoted != ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "Expected %s self dtype [%s] and other dtype [%s] to be promotable but check failed.", api,
                       dtype_name(self), dtype_name(other));
}

/// Mul's phase 1, and InplaceMul's (CANN checks it on its own, on
/// selfRef): checked holds the tensors checked for null and dtype --
/// InplaceMul's selfRef and other, its out being selfRef, which the
/// broadcast check names outName.
aclnnStatus mul_tensors(const char* api, NamedArgs checked, const aclTensor* self, const aclTensor* other,
                        const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null(checked));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(checked, kMulDtypes));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType otherDtype = view_of(other).dtype;
    const aclDataType promoted = promote_types(selfDtype, otherDtype);
    ACLCPU_RETURN_IF_ERROR(check_mul_promotable(api, selfDtype, otherDtype, promoted));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(promoted, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_broadcast_into(self, other, out, outName));
    return hand_back_arithmetic<MulOp>(api, {self, "self"}, {other, "other"}, out, promoted, {}, workspaceSize,
                                       executor);
}

aclnnStatus mul(const char* api, const aclTensor* self, const aclTensor* other, const aclTensor* out,
                uint64_t* workspaceSize, aclOpExecutor** executor) {
    return mul_tensors(api, {{self, "self"}, {other, "other"}, {out, "out"}}, self, other, out, "out", workspaceSize,
                       executor);
}

aclnnStatus inplace_mul(const char* api, const aclTensor* selfRef, const aclTensor* other, const aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    return mul_tensors(api, {{selfRef, "selfRef"}, {other, "other"}}, selfRef, other, out, "selfRef", workspaceSize,
                       executor);
}

aclnnStatus muls(const char* api, const aclTensor* self, const aclScalar* other, const aclTensor* out,
                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {other, "other"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kMulDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType computeDtype = muls_compute_dtype(selfDtype, dtype_of(other), view_of(out).dtype);
    // CANN's A2 Muls kernel for a BF16 self and a DOUBLE scalar: BF16 in and
    // out, the scalar a float attribute.
    const BinaryDtypes dtypes = selfDtype == ACL_BF16 && dtype_of(other) == ACL_DOUBLE
                                    ? BinaryDtypes(ACL_FLOAT, ACL_BF16)
                                    : BinaryDtypes(computeDtype);
    return hand_back_arithmetic<MulOp>(api, {self, "self"}, {other, "other"}, out, dtypes, {}, workspaceSize,
                                       executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

ACLCPU_BINARY_ENTRIES(Mul, aclTensor, aclTensor, mul, aclTensor, inplace_mul)
// CANN's A2 InplaceMuls checks only the nulls and selfRef's dtype.
ACLCPU_BINARY_ENTRIES(Muls, aclScalar, aclTensor, muls, aclTensor, muls)
