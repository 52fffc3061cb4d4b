// acl-cpu: aclnnAdd, aclnnAdds, aclnnInplaceAdd, aclnnInplaceAdds,
// aclnnAddV3 and aclnnInplaceAddV3 -- out = self + alpha * other.
//
// Phase 1 checks in the order of CANN's A2 op_api code (null arguments, the
// support list, promotion with alpha and out, shapes), hands back an empty
// executor for empty tensors, and plans the graph CANN runs on A2: both
// operands cast to the promoted dtype, then Add when alpha is 1, Axpy in
// fp32 for FLOAT and FLOAT16, else Mul(other, alpha) and Add in the promoted
// dtype; the result cast into out.
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_v3.h"

#include "arithmetic/arithmetic_phase1.hpp"
#include "common/phase2.hpp"
#include "common/promotion.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kAddDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,     ACL_INT8,
                                  ACL_UINT8, ACL_DOUBLE, ACL_BOOL, ACL_BF16,    ACL_COMPLEX64, ACL_COMPLEX128};
constexpr DtypeList kAddV3Dtypes = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_BF16, ACL_INT8};
/// Where CANN's A2 graph uses Axpy.  CANN lists INT32 too; with the integer
/// alpha its checks demand, Mul then Add computes the same exactly.
constexpr DtypeList kAxpyDtypes = {ACL_FLOAT, ACL_FLOAT16};

/// CheckPromoteType of Add, Adds and AddV3.
aclnnStatus check_add_dtypes(aclDataType self, aclDataType other, const aclScalar* alpha, const aclTensor* out,
                             aclDataType promoted) {
    ACLCPU_RETURN_IF_ERROR(check_promotable(self, other, promoted));
    ACLCPU_RETURN_IF_ERROR(check_alpha_castable(alpha, promoted));
    const aclDataType outDtype = view_of(out).dtype;
    if (can_cast(promoted, outDtype)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Promote dtype %s can't be cast to the desired output type %s.",
                       dtype_name(promoted), dtype_name(outDtype));
}

/// Add's, Adds' and AddV3's graph: a + alpha*b in computeDtype.
aclnnStatus hand_back_add(const char* api, const NamedArg& a, const NamedArg& b, const aclScalar* alpha,
                          const aclTensor* out, aclDataType computeDtype, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    return hand_back_arithmetic<AxpyOp>(api, a, b, out, computeDtype,
                                        axpy_params(computeDtype, alpha, alpha_is_one(alpha), kAxpyDtypes, false),
                                        workspaceSize, executor);
}

aclnnStatus add(const char* api, const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {other, "other"}, {alpha, "alpha"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {other, "other"}}, kAddDtypes));
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType otherDtype = view_of(other).dtype;
    const aclDataType promoted = promote_types(selfDtype, otherDtype);
    ACLCPU_RETURN_IF_ERROR(check_add_dtypes(selfDtype, otherDtype, alpha, out, promoted));
    ACLCPU_RETURN_IF_ERROR(check_broadcast_into(self, other, out, "out"));
    return hand_back_add(api, {self, "self"}, {other, "other"}, alpha, out, promoted, workspaceSize, executor);
}

/// common/promotion.hpp's rules of a tensor and a scalar operand: (self's
/// dtype, other's dtype, out's dtype) -> the compute dtype.
using ScalarPromotion = aclDataType (*)(aclDataType self, aclDataType other, aclDataType out) noexcept;

/// Adds (a tensor self, a scalar other) and AddV3 (a scalar self, a tensor
/// other): the tensor's dtype from supported, the compute dtype
/// promote(self's dtype, other's dtype, out's dtype); CANN names the tensor
/// self in the shape check either way.
aclnnStatus add_with_scalar(const char* api, const NamedArg& self, const NamedArg& other, const aclScalar* alpha,
                            const aclTensor* out, DtypeList supported, ScalarPromotion promote,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({self, other, {alpha, "alpha"}, {out, "out"}}));
    const NamedArg& tensor = self.isScalar ? other : self;
    const aclDataType scalarDtype = dtype_of(self.isScalar ? self.scalar : other.scalar);
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(tensor.tensor, tensor.name, supported));
    const aclDataType tensorDtype = view_of(tensor.tensor).dtype;
    const aclDataType outDtype = view_of(out).dtype;
    const aclDataType promoted = self.isScalar ? promote(scalarDtype, tensorDtype, outDtype)
                                               : promote(tensorDtype, scalarDtype, outDtype);
    ACLCPU_RETURN_IF_ERROR(check_add_dtypes(tensorDtype, scalarDtype, alpha, out, promoted));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(tensor.tensor, tensor.name));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(tensor.tensor, "self", out, "out"));
    return hand_back_add(api, self, other, alpha, out, promoted, workspaceSize, executor);
}

aclnnStatus adds(const char* api, const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                 const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return add_with_scalar(api, {self, "self"}, {other, "other"}, alpha, out, kAddDtypes, add_sub_scalar_promotion,
                           workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

ACLCPU_ALPHA_ENTRY(aclnnAdd, aclTensor, add)
ACLCPU_ALPHA_ENTRY(aclnnAdds, aclScalar, adds)
ACLCPU_INPLACE_ALPHA_ENTRY(aclnnInplaceAdds, const aclTensor, aclScalar, adds)

extern "C" aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                                       const aclScalar* alpha, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    // aclnn_add.cpp: CheckInplace, then aclnnAddGetWorkspaceSize's checks.
    ACLCPU_RETURN_IF_ERROR(check_inplace_broadcast(selfRef, other));
    return add("aclnnInplaceAdd", selfRef, other, alpha, selfRef, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceAdd)

extern "C" aclnnStatus aclnnAddV3GetWorkspaceSize(const aclScalar* self, const aclTensor* other,
                                                  const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    return add_with_scalar("aclnnAddV3", {self, "self"}, {other, "other"}, alpha, out, kAddV3Dtypes, add_v3_promotion,
                           workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnAddV3)

extern "C" aclnnStatus aclnnInplaceAddV3GetWorkspaceSize(const aclScalar* selfRef, const aclTensor* other,
                                                         const aclScalar* alpha, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    return add_with_scalar("aclnnInplaceAddV3", {selfRef, "self"}, {other, "other"}, alpha, other, kAddV3Dtypes,
                           add_v3_promotion, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceAddV3)
