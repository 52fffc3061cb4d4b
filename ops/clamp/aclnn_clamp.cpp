// acl-cpu: the clamp family of CANN's ops-math (conversion/clip_by_value_v2/
// op_api/aclnn_clamp.cpp) -- aclnnClamp, aclnnClampMin, aclnnClampMax,
// aclnnInplaceClampMax with scalar bounds; aclnnClampTensor,
// aclnnClampMinTensor, aclnnClampMaxTensor and their in-place forms with
// tensor bounds.
//
// The A2 graphs (DAV_2201, not RegBase):
//   scalar bounds  CheckParams (nulls, self's and out's dtypes in the list,
//                  same shape, rank <= 8); empty self ends; CanCast(self,
//                  out); self cast to OUT's dtype, both bounds converted into
//                  it, ClipByValueV2 there, ViewCopy into out.
//   tensor bounds  CheckParams (nulls, dtypes, ranks); any empty operand
//                  ends; the promotion of self and the given bounds (CanCast
//                  into out, in the list, out in the list); the broadcast of
//                  the three equal to out's shape; ClipByValueV2 in the
//                  promoted dtype, Cast into out.
// A missing bound is the promoted dtype's limit (NormalizeMinScalar /
// NormalizeMaxScalar): -inf / +inf for the floats, the integer's range.
//
// CANN writes through workspaceSize and executor unchecked; acl-cpu checks
// them after the arguments, where CANN would crash, and answers 161001.
#include "aclnnop/aclnn_clamp.h"

#include <cstdint>
#include <limits>
#include <type_traits>

#include "clamp/clamp_kernel.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/unary.hpp"

namespace aclcpu::ops {
namespace {

/// Ascend910B_dtype_support_list.
constexpr DtypeList kClampDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32,  ACL_INT64, ACL_INT16,
                                    ACL_INT8,    ACL_UINT8, ACL_DOUBLE, ACL_BF16};

enum class Bound : uint8_t { min, max };

/// NormalizeMinScalar / NormalizeMaxScalar: the bound a missing one stands
/// for in dtype.
ComputeValue missing_bound(Bound bound, aclDataType dtype) {
    const bool isMax = bound == Bound::max;
    ComputeValue value;
    switch (dtype) {
        case ACL_INT8: value.integer = isMax ? INT8_MAX : INT8_MIN; break;
        case ACL_UINT8: value.integer = isMax ? UINT8_MAX : 0; break;
        case ACL_INT16: value.integer = isMax ? INT16_MAX : INT16_MIN; break;
        case ACL_INT32: value.integer = isMax ? INT32_MAX : INT32_MIN; break;
        case ACL_INT64: value.integer = isMax ? INT64_MAX : INT64_MIN; break;
        default: value.real = (isMax ? 1 : -1) * std::numeric_limits<double>::infinity();
    }
    return value;
}

/// A scalar bound converted into dtype, or the missing bound's limit.
ComputeValue bound_value(const aclScalar* scalar, Bound bound, aclDataType dtype) {
    return scalar == nullptr ? missing_bound(bound, dtype) : compute_value(scalar, dtype);
}

/// CheckNotNull: self, out, then at least one bound -> 161001.
aclnnStatus check_clamp_not_null(const aclTensor* self, const void* min, const void* max, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    if (min != nullptr || max != nullptr) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_NULLPTR, "clamp: At least one of 'min' or 'max' must not be None.");
}

/// aclnnClampCommon.
aclnnStatus phase1_clamp(const char* api, const aclTensor* self, const aclScalar* min, const aclScalar* max,
                         const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_clamp_not_null(self, min, max, out));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kClampDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    const aclDataType computeDtype = view_of(out).dtype;
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, computeDtype));
    const ClampBounds bounds{bound_value(min, Bound::min, computeDtype), bound_value(max, Bound::max, computeDtype)};
    return hand_back_unary<ClampOp>(api, self, out, computeDtype, bounds, workspaceSize, executor);
}

/// ClampTensorPromoteType.
aclnnStatus check_clamp_promotion(const aclTensor* self, const aclTensor* min, const aclTensor* max,
                                  const aclTensor* out, aclDataType* promoted) {
    aclDataType dtype = view_of(self).dtype;
    if (min != nullptr) dtype = promote_types(dtype, view_of(min).dtype);
    if (max != nullptr) dtype = promote_types(dtype, view_of(max).dtype);
    if (dtype == ACL_DT_UNDEFINED) return param_error(ACLNN_ERR_PARAM_INVALID, "promote type fail.");
    ACLCPU_RETURN_IF_ERROR(check_can_cast(dtype, view_of(out).dtype));
    if (!contains(kClampDtypes, dtype)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "promote dtype not implemented for %s, should be in dtype support list %s.",
                           dtype_name(dtype), dtype_list_string(kClampDtypes).c_str());
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kClampDtypes));
    *promoted = dtype;
    return ACLNN_SUCCESS;
}

/// ClampTensorPromoteShape: self with min, that with max, equal to out's shape.
aclnnStatus check_clamp_broadcast(const aclTensor* self, const aclTensor* min, const aclTensor* max,
                                  const aclTensor* out, Dims* shape) {
    *shape = view_of(self).shape;
    for (const NamedArg& bound : {NamedArg(min, "min"), NamedArg(max, "max")}) {
        if (bound.tensor == nullptr) continue;
        const Dims before = *shape;
        if (!broadcast_shapes(before, view_of(bound.tensor).shape, shape)) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "the size of tensor self must match the size of tensor %s.",
                               bound.name);
        }
    }
    if (*shape == view_of(out).shape) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "expected tensor for out to have same size as tensor for broadcast, but they differ.");
}

/// aclnnClampTensorCommon.
aclnnStatus phase1_clamp_tensor(const char* api, const aclTensor* self, const aclTensor* min, const aclTensor* max,
                                const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_clamp_not_null(self, min, max, out));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kClampDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    if (min != nullptr) ACLCPU_RETURN_IF_ERROR(check_max_dim(min, "clipValueMin"));
    if (max != nullptr) ACLCPU_RETURN_IF_ERROR(check_max_dim(max, "clipValueMax"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self) || (min != nullptr && is_empty(min)) || (max != nullptr && is_empty(max))) {
        return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    }
    aclDataType promoted = ACL_DT_UNDEFINED;
    ACLCPU_RETURN_IF_ERROR(check_clamp_promotion(self, min, max, out, &promoted));
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(check_clamp_broadcast(self, min, max, out, &shape));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    if (min != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(min, "clipValueMin"));
    if (max != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(max, "clipValueMax"));
    const auto over = [&shape](const aclTensor* t) { return StridedLayout::broadcast_to(view_of(t), shape); };
    const ClampBounds bounds{missing_bound(Bound::min, promoted), missing_bound(Bound::max, promoted)};
    if (min != nullptr && max != nullptr) {
        return hand_back_elementwise<3, ClampTensorsOp>(api, {self, min, max}, {over(self), over(min), over(max)},
                                                        out, promoted, bounds, workspaceSize, executor);
    }
    if (min != nullptr) {
        return hand_back_elementwise<2, ClampMinTensorOp>(api, {self, min}, {over(self), over(min)}, out, promoted,
                                                          bounds, workspaceSize, executor);
    }
    return hand_back_elementwise<2, ClampMaxTensorOp>(api, {self, max}, {over(self), over(max)}, out, promoted,
                                                      bounds, workspaceSize, executor);
}

/// A one-bound form (ClampMin, ClampMaxTensor ...): its bound checked
/// first (OP_CHECK_NULL), then the common path with the other bound missing.
template <class BoundArg>
aclnnStatus phase1_one_bound(const char* api, const aclTensor* self, Bound which, const BoundArg* bound,
                             const char* name, const aclTensor* out, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(bound, name));
    const BoundArg* min = which == Bound::min ? bound : nullptr;
    const BoundArg* max = which == Bound::max ? bound : nullptr;
    if constexpr (std::is_same_v<BoundArg, aclScalar>) {
        return phase1_clamp(api, self, min, max, out, workspaceSize, executor);
    } else {
        return phase1_clamp_tensor(api, self, min, max, out, workspaceSize, executor);
    }
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                                  const aclScalar* clipValueMax, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_clamp("aclnnClamp", self, clipValueMin, clipValueMax, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnClamp)

extern "C" aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
                                                        const aclTensor* clipValueMax, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_clamp_tensor("aclnnClampTensor", self, clipValueMin, clipValueMax, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnClampTensor)

/// A one-bound form writing out: its bound checked first (OP_CHECK_NULL),
/// then the common path with the other bound missing.
#define ACLCPU_CLAMP_ONE_BOUND(api, BoundArg, bound, which)                                                       \
    extern "C" aclnnStatus api##GetWorkspaceSize(const aclTensor* self, const BoundArg* bound, aclTensor* out,     \
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {             \
        return phase1_one_bound(#api, self, which, bound, #bound, out, workspaceSize, executor);                  \
    }                                                                                                             \
    ACLCPU_DEFINE_PHASE2(api)

/// A one-bound form in place: the same with selfRef as self and out.
#define ACLCPU_INPLACE_CLAMP_ONE_BOUND(api, SelfRef, BoundArg, bound, which)                                      \
    extern "C" aclnnStatus api##GetWorkspaceSize(SelfRef* selfRef, const BoundArg* bound, uint64_t* workspaceSize, \
                                                 aclOpExecutor** executor) {                                      \
        return phase1_one_bound(#api, selfRef, which, bound, #bound, selfRef, workspaceSize, executor);           \
    }                                                                                                             \
    ACLCPU_DEFINE_PHASE2(api)

ACLCPU_CLAMP_ONE_BOUND(aclnnClampMin, aclScalar, clipValueMin, Bound::min)
ACLCPU_CLAMP_ONE_BOUND(aclnnClampMax, aclScalar, clipValueMax, Bound::max)
ACLCPU_INPLACE_CLAMP_ONE_BOUND(aclnnInplaceClampMax, const aclTensor, aclScalar, clipValueMax, Bound::max)
ACLCPU_CLAMP_ONE_BOUND(aclnnClampMinTensor, aclTensor, clipValueMin, Bound::min)
ACLCPU_INPLACE_CLAMP_ONE_BOUND(aclnnInplaceClampMinTensor, aclTensor, aclTensor, clipValueMin, Bound::min)
ACLCPU_CLAMP_ONE_BOUND(aclnnClampMaxTensor, aclTensor, max, Bound::max)
ACLCPU_INPLACE_CLAMP_ONE_BOUND(aclnnInplaceClampMaxTensor, aclTensor, aclTensor, max, Bound::max)
