// acl-cpu: the fill family of CANN's ops-math -- aclnnInplaceFillScalar
// (conversion/fill/op_api/aclnn_fill_scalar.cpp), aclnnInplaceZero
// (math/zero_op/op_api/aclnn_zero.cpp) and aclnnArange
// (math/range/op_api/aclnn_arange.cpp with l0op::Arange in arange.cpp and the
// Range kernel's tiling, op_host/arch35/range_tiling.cpp).  Each writes every
// element of its (possibly strided) out view without reading one
// (fill_kernel.hpp).
//
// CANN writes through workspaceSize and executor unchecked in all three;
// acl-cpu checks them after the arguments, where CANN would crash, and
// answers 161001.
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "fill/fill_kernel.hpp"

namespace aclcpu::ops {
namespace {

/// A constant written over all of target.
FillPlan constant_plan(const aclTensor* target, const ComputeValue& value) {
    FillPlan plan;
    plan.computeDtype = view_of(target).dtype;
    plan.value = value;
    plan.out = StridedLayout::of(view_of(target));
    plan.count = plan.out.numel();
    return plan;
}

// ---- InplaceFillScalar ------------------------------------------------------

/// DTYPE_SUPPORT_GE910B_LIST.
constexpr DtypeList kFillDtypes = {ACL_FLOAT,     ACL_INT32,      ACL_INT64, ACL_FLOAT16, ACL_INT16,
                                   ACL_INT8,      ACL_UINT8,      ACL_DOUBLE, ACL_BOOL,   ACL_COMPLEX64,
                                   ACL_COMPLEX128, ACL_BF16,      ACL_UINT16, ACL_UINT32, ACL_UINT64};

aclnnStatus phase1_fill_scalar(aclTensor* selfRef, const aclScalar* value, uint64_t* workspaceSize,
                               aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{selfRef, "selfRef"}, {value, "value"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(selfRef, "selfRef", kFillDtypes));
    const aclDataType dtype = view_of(selfRef).dtype;
    if (promote_types(dtype, dtype_of(value)) == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Self dtype %s and value dtype %s can not promote dtype.",
                           dtype_name(dtype), dtype_name(dtype_of(value)));
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim(selfRef, "selfRef"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (!is_empty(selfRef)) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(selfRef, "selfRef"));
    // ConvertToTensor(value, selfRef's dtype), then Fill and ViewCopy.
    return hand_back_fill("aclnnInplaceFillScalar", constant_plan(selfRef, compute_value(value, dtype)), {selfRef},
                          selfRef, workspaceSize, executor);
}

// ---- InplaceZero -------------------------------------------------------------

/// DTYPE_SUPPORT_LIST (A2 is not RegBase).
constexpr DtypeList kZeroDtypes = {ACL_INT8, ACL_INT32,  ACL_INT64,      ACL_UINT8,     ACL_FLOAT16,
                                   ACL_FLOAT, ACL_BOOL,  ACL_DOUBLE,     ACL_INT16,     ACL_UINT16,
                                   ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};

aclnnStatus phase1_zero(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null(selfRef, "selfRef"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(selfRef, "selfRef", kZeroDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(selfRef, "selfRef"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (!is_empty(selfRef)) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(selfRef, "selfRef"));
    return hand_back_fill("aclnnInplaceZero", constant_plan(selfRef, ComputeValue{}), {selfRef}, selfRef,
                          workspaceSize, executor);
}

// ---- Arange ------------------------------------------------------------------

/// ASCEND910B_INPUT_DTYPE_SUPPORT_LIST (the scalars) and _OUTPUT_ (out).
constexpr DtypeList kArangeScalarDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16,
                                           ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,   ACL_BF16};
constexpr DtypeList kArangeOutDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT64, ACL_INT32, ACL_BF16};

aclnnStatus check_scalar_dtype(const aclScalar* scalar, const char* name) {
    if (contains(kArangeScalarDtypes, dtype_of(scalar))) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "%s not implemented for %s, should be in dtype support list %s.",
                       name, dtype_name(dtype_of(scalar)), dtype_list_string(kArangeScalarDtypes).c_str());
}

/// CheckStep: step nonzero (a NaN step is neither > 0 nor < 0), and end on
/// step's side of start.
template <class T>
aclnnStatus check_step(T start, T end, T step) {
    if (!(step > T(0) || step < T(0))) return param_error(ACLNN_ERR_PARAM_INVALID, "step must be nonzero.");
    if ((step > T(0) && start > end) || (step < T(0) && start < end)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "upper bound and lower bound inconsistent with step sign.");
    }
    return ACLNN_SUCCESS;
}

/// Range's element count, ceil((end - start) / step) (CalculateOutputSize:
/// in int64 for an INT64 out, in double otherwise), bounded by out's
/// elements.  A count past int64 (an infinite end, a difference that
/// overflows) is out's elements; a NaN count (a NaN end) none -- where CANN's
/// static_cast of the double count is undefined.
int64_t arange_count(const aclScalar* start, const aclScalar* end, const aclScalar* step, aclDataType outDtype,
                     int64_t numel) {
    if (outDtype == ACL_INT64) {
        const int64_t delta = to_int64(step);
        int64_t span = 0;
        if (__builtin_sub_overflow(to_int64(end), to_int64(start), &span) || (delta == -1 && span == INT64_MIN)) {
            return numel;
        }
        const int64_t quotient = span / delta;
        const int64_t count = quotient + ((span % delta != 0) && ((span < 0) == (delta < 0)) ? 1 : 0);
        return std::clamp<int64_t>(count, 0, numel);
    }
    const double count = std::ceil((to_double(end) - to_double(start)) / to_double(step));
    if (count >= static_cast<double>(numel)) return numel;
    return count > 0 ? static_cast<int64_t>(count) : 0;
}

/// The plan of Arange into out (its checks passed): the start and step of
/// Range's tiling and its element count -- when out holds another number of
/// elements, the smaller of the two (the tiling only warns).
FillPlan arange_plan(const aclScalar* start, const aclScalar* end, const aclScalar* step, const aclTensor* out) {
    FillPlan plan;
    plan.kind = FillPlan::Kind::arange;
    plan.out = StridedLayout::of(view_of(out));
    const aclDataType outDtype = view_of(out).dtype;
    if (outDtype == ACL_INT64 || outDtype == ACL_INT32) {
        plan.computeDtype = ACL_INT64;
        plan.start.integer = to_int64(start);
        plan.step.integer = to_int64(step);
    } else {
        plan.computeDtype = outDtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
        const bool narrow = plan.computeDtype == ACL_FLOAT;
        plan.start.real = narrow ? static_cast<float>(to_double(start)) : to_double(start);
        plan.step.real = narrow ? static_cast<float>(to_double(step)) : to_double(step);
    }
    plan.count = arange_count(start, end, step, outDtype, plan.out.numel());
    return plan;
}

aclnnStatus phase1_arange(const aclScalar* start, const aclScalar* end, const aclScalar* step, const aclTensor* out,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{start, "start"}, {end, "end"}, {step, "step"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_scalar_dtype(start, "start"));
    ACLCPU_RETURN_IF_ERROR(check_scalar_dtype(end, "end"));
    ACLCPU_RETURN_IF_ERROR(check_scalar_dtype(step, "step"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kArangeOutDtypes));
    // CheckStepCorrect, in the type out's dtype selects.
    switch (view_of(out).dtype) {
        case ACL_DOUBLE: ACLCPU_RETURN_IF_ERROR(check_step(to_double(start), to_double(end), to_double(step))); break;
        case ACL_INT32:
        case ACL_INT64: ACLCPU_RETURN_IF_ERROR(check_step(to_int64(start), to_int64(end), to_int64(step))); break;
        default: ACLCPU_RETURN_IF_ERROR(check_step(to_float(start), to_float(end), to_float(step))); break;
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim(out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (!is_empty(out)) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(out, "out"));
    return hand_back_fill("aclnnArange", arange_plan(start, end, step, out), {}, out, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    return phase1_fill_scalar(selfRef, value, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceFillScalar)

extern "C" aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    return phase1_zero(selfRef, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnInplaceZero)

extern "C" aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                   const aclScalar* step, aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    return phase1_arange(start, end, step, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnArange)
