// acl-cpu: the reductions of CANN's ops-math on the reduction engine
// (common/reduction.hpp) -- aclnnReduceSum (math/reduce_sum/op_api/
// aclnn_reduce_sum.cpp), aclnnMean and aclnnMeanV2 (math/reduce_mean/op_api/
// aclnn_mean.cpp), aclnnAmax (math/reduce_max/op_api/aclnn_amax.cpp) and
// aclnnAmin (math/reduce_min/op_api/aclnn_amin.cpp), aclnnArgMax
// (math/arg_max_v2/op_api/aclnn_argmax.cpp), and the scans aclnnCumsum and
// aclnnCumsumV2 (math/cumsum/op_api/aclnn_cumsum.cpp).  Each is its checks in
// CANN's order (A2 lists), its empty-tensor rule and a ReductionSpec.
//
// CANN writes through workspaceSize and executor unchecked; acl-cpu checks
// them after the arguments, where CANN would crash, and answers 161001.
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"

#include <algorithm>
#include <cmath>

#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/reduction.hpp"
#include "common/typed_lanes.hpp"
#include "fill/fill_kernel.hpp"
#include "reduce/reduce_checks.hpp"

namespace aclcpu::ops {

/// FillScalar of the op_apis' empty-input branch: out's dtype in
/// emptyDtypes (else 161002), then value written over all of out -- at most
/// 8 dims, as Fill takes (161002 past them: ReduceSum does not check out's
/// rank before).
aclnnStatus hand_back_filled_out(const char* api, const aclTensor* self, const aclTensor* out, DtypeList emptyDtypes,
                                 double value, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", emptyDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(out, "out"));
    if (!is_empty(out)) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(out, "out"));
    FillPlan plan;
    plan.computeDtype = view_of(out).dtype;
    plan.value.real = value;
    plan.value.integer = std::isnan(value) ? 0 : static_cast<int64_t>(value);
    plan.out = StridedLayout::of(view_of(out));
    plan.count = plan.out.numel();
    return hand_back_fill(api, plan, {self}, out, workspaceSize, executor);
}

/// CheckShapeAndScalarSame (common/inc/op_api/aclnn_check.h): the reduced
/// shape and out's are equal, or both hold one element -> else 161002.
aclnnStatus check_shape_or_scalar(const Dims& reduced, const aclTensor* out) {
    const Dims& outShape = view_of(out).shape;
    const auto one_element = [](const Dims& shape) {
        return std::all_of(shape.begin(), shape.end(), [](int64_t size) { return size == 1; });
    };
    if (reduced == outShape || (one_element(reduced) && one_element(outShape))) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "The tensor's shape[%s] is not equal with shape[%s].",
                       shape_string(reduced).c_str(), shape_string(outShape).c_str());
}

aclnnStatus single_dim_mask(const aclTensor* self, int64_t dim, const char* message, uint32_t* mask) {
    const auto rank = static_cast<int64_t>(view_of(self).shape.size());
    const int64_t minimum = rank == 0 ? -1 : -rank;
    const int64_t maximum = rank == 0 ? 0 : rank - 1;
    if (dim < minimum || dim > maximum) {
        return param_error(ACLNN_ERR_PARAM_INVALID, message, static_cast<long>(minimum), static_cast<long>(maximum),
                           static_cast<long>(dim));
    }
    *mask = rank == 0 ? 0 : 1u << (dim < 0 ? dim + rank : dim);
    return ACLNN_SUCCESS;
}

namespace {

/// The check of a `dtype` argument against an operator's list.
aclnnStatus check_dtype_argument(aclDataType dtype, DtypeList supported) {
    if (contains(supported, dtype)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "type %s should be in dtype support list %s.", dtype_name(dtype),
                       dtype_list_string(supported).c_str());
}

// ---- ReduceSum -------------------------------------------------------------

/// ASCEND910B_DTYPE_SUPPORT_LIST and EMPTY_INPUT_DTYPE_SUPPORT_LIST.
constexpr DtypeList kSumDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_INT8,      ACL_INT16,      ACL_INT32, ACL_INT64,
                                  ACL_UINT8,   ACL_BOOL,   ACL_DOUBLE,    ACL_COMPLEX64,  ACL_COMPLEX128, ACL_BF16};
constexpr DtypeList kSumEmptyDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8,   ACL_INT16, ACL_INT32,
                                       ACL_INT64,   ACL_UINT8, ACL_BOOL,   ACL_DOUBLE, ACL_BF16};

aclnnStatus reduce_sum(const aclTensor* self, const aclIntArray* dims, bool keepDims, aclDataType dtype,
                       const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {dims, "dims"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kSumDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_argument(dtype, kSumDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(reduced_dims_mask(dims, view_of(self).shape, DimListRules{}, &mask));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) {
        return hand_back_filled_out("aclnnReduceSum", self, out, kSumEmptyDtypes, 0.0, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced_shape(view_of(self).shape, mask, keepDims), out));
    // Self is cast to dtype and summed in it; a BOOL dtype is ReduceAny.
    ReductionSpec spec;
    spec.combine = dtype == ACL_BOOL ? ReduceCombine::max : ReduceCombine::sum;
    spec.castDtype = dtype;
    return hand_back_reduction("aclnnReduceSum", spec, self, mask, out, workspaceSize, executor);
}

// ---- Mean, MeanV2 ----------------------------------------------------------

/// ASCEND910B_DTYPE_SUPPORT_LIST and EMPTY_INPUT_DTYPE_SUPPORT_LIST.
constexpr DtypeList kMeanDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16,     ACL_INT8,
                                   ACL_UINT8, ACL_DOUBLE, ACL_BF16, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr DtypeList kMeanEmptyDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                        ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BF16,    ACL_BOOL};

constexpr DimListRules kMeanDimRules = {true, true, false};

/// What Mean and MeanV2 share after their checks: NaN over an empty input,
/// otherwise ReduceMean in castDtype.
aclnnStatus hand_back_mean(const char* api, const aclTensor* self, uint32_t mask, bool keepDim,
                           aclDataType castDtype, const aclTensor* out, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) return hand_back_filled_out(api, self, out, kMeanEmptyDtypes, NAN, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced_shape(view_of(self).shape, mask, keepDim), out));
    ReductionSpec spec;
    spec.mean = true;
    spec.castDtype = castDtype;
    return hand_back_reduction(api, spec, self, mask, out, workspaceSize, executor);
}

aclnnStatus mean(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, const aclTensor* out,
                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {dim, "dim"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kMeanDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_argument(dtype, kMeanDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kMeanDtypes));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, dtype));
    ACLCPU_RETURN_IF_ERROR(check_can_cast(dtype, view_of(out).dtype));
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(reduced_dims_mask(dim, view_of(self).shape, kMeanDimRules, &mask));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    return hand_back_mean("aclnnMean", self, mask, keepDim, dtype, out, workspaceSize, executor);
}

/// CheckParamsONNX: out of self's dtype; an empty dim list with
/// noopWithEmptyAxes copies self into out (a reduction over no dim).
aclnnStatus mean_v2(const aclTensor* self, const aclIntArray* dim, bool keepDim, bool noopWithEmptyAxes,
                    const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {dim, "dim"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kMeanDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    DimListRules rules = kMeanDimRules;
    rules.emptyMeansAll = !noopWithEmptyAxes;
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(reduced_dims_mask(dim, view_of(self).shape, rules, &mask));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    return hand_back_mean("aclnnMeanV2", self, mask, keepDim, view_of(self).dtype, out, workspaceSize, executor);
}

// ---- Amax, Amin ------------------------------------------------------------

/// out of self's dtype, the dims valid and non-empty, out of the reduced
/// shape; an empty self launches nothing; BOOL is reduced as FLOAT.
aclnnStatus extremum(const char* api, ReduceCombine combine, const aclTensor* self, const aclIntArray* dim,
                     bool keepDim, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {dim, "dim"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kExtremumDtypes));
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(reduced_dims_mask(dim, view_of(self).shape, DimListRules{true, false, true}, &mask));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", reduced_shape(view_of(self).shape, mask, keepDim)));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    ReductionSpec spec;
    spec.combine = combine;
    spec.castDtype = view_of(self).dtype == ACL_BOOL ? ACL_FLOAT : view_of(self).dtype;
    return hand_back_reduction(api, spec, self, mask, out, workspaceSize, executor);
}

// ---- ArgMax ----------------------------------------------------------------

/// ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST (DAV_2201).
constexpr DtypeList kArgMaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                     ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BF16};

/// ArgMaxV2 writes INT32 indices on A2 (the first of the largest, NaN the
/// largest), which Cast turns into out's dtype; an empty self or out
/// launches nothing.
aclnnStatus arg_max(const aclTensor* self, int64_t dim, bool keepdim, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kArgMaxDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(
        single_dim_mask(self, dim, "dim must be within the range of [%ld, %ld], but it is %ld.", &mask));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self) || is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced_shape(view_of(self).shape, mask, keepdim), out));
    if (!has_element_type(view_of(out).dtype)) {
        return param_error(ACLNN_ERR_INNER_NULLPTR, "Cast from DT_INT32 to %s is not supported.",
                           dtype_name(view_of(out).dtype));
    }
    ReductionSpec spec;
    spec.combine = ReduceCombine::argmax;
    spec.castDtype = view_of(self).dtype;
    return hand_back_reduction("aclnnArgMax", spec, self, mask, out, workspaceSize, executor);
}

// ---- Cumsum, CumsumV2 -------------------------------------------------------

/// ASCEND910B_DTYPE_SUPPORT_LIST.
constexpr DtypeList kCumsumDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE,    ACL_UINT8,     ACL_INT8,
                                     ACL_INT16, ACL_INT64,   ACL_BF16,  ACL_COMPLEX64, ACL_COMPLEX128};

/// CheckShape then CheckDim: out of self's shape, self's rank at most 8,
/// dim in [-rank, rank - 1] (a 0-d self as 1-D); then an empty self launches
/// nothing, and the rest is Cast(self, out's dtype) and the scan.
aclnnStatus scan(const char* api, ScanSpec spec, const aclTensor* self, int64_t dim, const aclTensor* out,
                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    const auto rank = static_cast<int64_t>(view_of(self).shape.size());
    const int64_t dims = rank == 0 ? 1 : rank;
    if (dim >= dims || dim < -dims) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "expected dim to be in range of [%ld, %ld], but got %ld.",
                           static_cast<long>(-dims), static_cast<long>(dims - 1), static_cast<long>(dim));
    }
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    if (!has_element_type(view_of(self).dtype)) {
        return param_error(ACLNN_ERR_INNER_NULLPTR, "Cast from %s to %s is not supported.",
                           dtype_name(view_of(self).dtype), dtype_name(view_of(out).dtype));
    }
    spec.castDtype = view_of(out).dtype;
    return hand_back_scan(api, spec, self, dim < 0 ? dim + dims : dim, out, workspaceSize, executor);
}

/// CheckParams: out's dtype listed and equal to dtype; self's dtype is not
/// checked (Cast takes it into out's).
aclnnStatus cumsum(const aclTensor* self, int64_t dim, aclDataType dtype, const aclTensor* out,
                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kCumsumDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", dtype));
    return scan("aclnnCumsum", ScanSpec{}, self, dim, out, workspaceSize, executor);
}

/// CheckParamsWithoutDtype: self and out listed and of one dtype.
aclnnStatus cumsum_v2(const aclTensor* self, int64_t dim, bool exclusive, bool reverse, const aclTensor* out,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kCumsumDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    ScanSpec spec;
    spec.exclusive = exclusive;
    spec.reverse = reverse;
    return scan("aclnnCumsumV2", spec, self, dim, out, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                                      aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    return reduce_sum(self, dims, keepDims, dtype_argument(dtype), out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnReduceSum)

extern "C" aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    return mean(self, dim, keepDim, dtype_argument(dtype), out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnMean)

extern "C" aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                   bool noopWithEmptyAxes, aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    return mean_v2(self, dim, keepDim, noopWithEmptyAxes, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnMeanV2)

extern "C" aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return extremum("aclnnAmax", ReduceCombine::max, self, dim, keepDim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnAmax)

extern "C" aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return extremum("aclnnAmin", ReduceCombine::min, self, dim, keepDim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnAmin)

extern "C" aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    return arg_max(self, dim, keepdim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnArgMax)

extern "C" aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    return cumsum(self, dim, dtype_argument(dtype), out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnCumsum)

extern "C" aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim, bool exclusive,
                                                     bool reverse, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    return cumsum_v2(self, dim, exclusive, reverse, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnCumsumV2)
