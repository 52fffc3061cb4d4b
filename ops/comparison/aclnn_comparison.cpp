// acl-cpu: aclnnEqTensor, aclnnInplaceEqTensor (math/equal/op_api/
// aclnn_eq_tensor.cpp) and aclnnGtScalar, aclnnInplaceGtScalar
// (math/greater/op_api/aclnn_gt_scalar.cpp): 1 where self == other / self >
// other, 0 elsewhere, in out's dtype.
//
// Checks in the order of CANN's A2 branch.  EqTensor on A2 checks out's
// dtype, not the inputs', against its list, then requires the promoted
// dtype to be in it.  GtScalar compares in the promoted dtype, BOOL as INT8,
// and keeps a floating self's dtype for a DOUBLE scalar that its dtype holds
// within FLT_EPSILON.
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"

#include <cfloat>
#include <cmath>

#include "aclcpu/half.hpp"
#include "common/binary.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "comparison/comparison_kernel.hpp"

namespace aclcpu::ops {
namespace {

// ---- EqTensor -------------------------------------------------------------

constexpr DtypeList kEqDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16,     ACL_INT8,
                                 ACL_UINT8, ACL_BF16,  ACL_BOOL,  ACL_DOUBLE,  ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus eq_tensor(const char* api, const aclTensor* self, const aclTensor* other, const aclTensor* out,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {other, "other"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kEqDtypes));
    aclDataType promoted = ACL_DT_UNDEFINED;
    ACLCPU_RETURN_IF_ERROR(check_promote_dtype(self, "Self", other, "other", kEqDtypes, &promoted));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(ACL_BOOL, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_broadcast_into(self, other, out, "out"));
    return hand_back_binary<EqualOp>(api, {self, "self"}, {other, "other"}, out, promoted, {}, workspaceSize,
                                     executor);
}

/// InplaceEqTensor: CheckInplace first -- selfRef (which is out) must
/// already have the broadcast shape.
aclnnStatus inplace_eq_tensor(const char* api, const aclTensor* selfRef, const aclTensor* other, const aclTensor* out,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_inplace_broadcast(selfRef, other));
    return eq_tensor(api, selfRef, other, out, workspaceSize, executor);
}

// ---- GtScalar -------------------------------------------------------------

constexpr DtypeList kGtDtypes = {ACL_FLOAT,  ACL_INT32,  ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                 ACL_INT8,   ACL_UINT8,  ACL_DOUBLE, ACL_UINT64,  ACL_UINT16,
                                 ACL_UINT32, ACL_BOOL,   ACL_BF16};
constexpr DtypeList kGtOutDtypes = {ACL_FLOAT,  ACL_INT32,  ACL_INT64, ACL_FLOAT16,   ACL_INT16,
                                    ACL_INT8,   ACL_UINT8,  ACL_DOUBLE, ACL_UINT64,   ACL_UINT16,
                                    ACL_UINT32, ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

/// The scalar as self's floating dtype holds it (GetCastedDouble).
double as_self_dtype(aclDataType self, const aclScalar* scalar) {
    switch (self) {
        case ACL_FLOAT: return to_float(scalar);
        case ACL_FLOAT16: return static_cast<float>(half_t::from_float(to_float(scalar)));
        case ACL_BF16: return static_cast<float>(bf16_t::from_float(to_float(scalar)));
        default: return to_double(scalar);
    }
}

/// aclnn_gt_scalar.cpp, CheckPromoteType (A2).
aclDataType gt_scalar_promotion(aclDataType self, const aclScalar* other) {
    aclDataType promoted = promote_types(self, dtype_of(other));
    if (promoted == ACL_BOOL) promoted = ACL_INT8;
    if (dtype_of(other) == ACL_DOUBLE && is_floating(self) &&
        std::abs(as_self_dtype(self, other) - to_double(other)) <= FLT_EPSILON) {
        promoted = self;
    }
    return promoted;
}

aclnnStatus gt_scalar(const char* api, const aclTensor* self, const aclScalar* other, const aclTensor* out,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {other, "other"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kGtDtypes));
    ACLCPU_RETURN_IF_ERROR(check_scalar_dtype_supported(other, "other", kGtDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kGtOutDtypes));
    const aclDataType promoted = gt_scalar_promotion(view_of(self).dtype, other);
    if (promoted == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Self dtype %s and other dtype %s can not promote dtype.",
                           dtype_name(view_of(self).dtype), dtype_name(dtype_of(other)));
    }
    ACLCPU_RETURN_IF_ERROR(check_can_cast(ACL_BOOL, view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", self, "self"));
    return hand_back_binary<GreaterOp>(api, {self, "self"}, {other, "other"}, out, promoted, {}, workspaceSize,
                                       executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

ACLCPU_BINARY_ENTRIES(EqTensor, aclTensor, aclTensor, eq_tensor, const aclTensor, inplace_eq_tensor)
ACLCPU_BINARY_ENTRIES(GtScalar, aclScalar, aclTensor, gt_scalar, aclTensor, gt_scalar)
