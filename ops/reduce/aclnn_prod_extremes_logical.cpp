// acl-cpu: more reductions of CANN's ops-math on the reduction engine
// (common/reduction.hpp) -- aclnnProd and aclnnProdDim (math/reduce_prod/
// op_api/aclnn_prod.cpp), aclnnMax (math/reduce_max/op_api/aclnn_max.cpp) and
// aclnnMin (math/reduce_min/op_api/aclnn_min.cpp), aclnnMaxDim
// (math/arg_max_with_value/op_api/aclnn_max_dim.cpp) and aclnnMinDim
// (math/arg_min_with_value/op_api/aclnn_min_dim.cpp), aclnnAny
// (math/reduce_any/op_api/aclnn_any.cpp) and aclnnAll (math/reduce_all/
// op_api/aclnn_all.cpp).  Each is its checks in CANN's order (A2 lists), its
// empty-tensor rule and a ReductionSpec.
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_prod.h"

#include <vector>

#include "common/layout.hpp"
#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/reduction.hpp"
#include "common/typed_lanes.hpp"
#include "reduce/reduce_checks.hpp"

namespace aclcpu::ops {
namespace {

/// Every dim of self (aclnnProd's, aclnnMax's and aclnnMin's dim list).
uint32_t all_dims(const aclTensor* self) {
    const size_t rank = view_of(self).shape.size();
    return rank >= 32 ? ~0u : (1u << rank) - 1u;
}

/// The Cast into out's dtype after the reduce kernel: a dtype without an
/// element type has no Cast (code, as the op_api's CHECK_RET answers).
aclnnStatus check_cast_into(aclnnStatus code, aclDataType from, const aclTensor* out) {
    if (has_element_type(view_of(out).dtype)) return ACLNN_SUCCESS;
    return param_error(code, "Cast from %s to %s is not supported.", dtype_name(from),
                       dtype_name(view_of(out).dtype));
}

// ---- Prod, ProdDim ------------------------------------------------------------

/// ASCEND910B_DTYPE_SUPPORT_LIST and EMPTY_INPUT_DTYPE_SUPPORT_LIST.
constexpr DtypeList kProdDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8,      ACL_UINT8,      ACL_INT16,
                                   ACL_INT32, ACL_INT64,   ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr DtypeList kProdEmptyDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                        ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_BOOL, ACL_BF16};

/// ProdDim's CheckDimValid: a 0-d self takes 0 and -1; otherwise dim in
/// [-rank, rank - 1] (the message prints [0, -1] for a 0-d self).
aclnnStatus prod_dim_mask(const aclTensor* self, int64_t dim, uint32_t* mask) {
    const auto rank = static_cast<int64_t>(view_of(self).shape.size());
    if (rank == 0 && (dim == 0 || dim == -1)) {
        *mask = 0;
        return ACLNN_SUCCESS;
    }
    if (dim >= rank || dim < -rank) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected dim to be in range of [%ld, %ld], but got %ld.",
                           static_cast<long>(-rank), static_cast<long>(rank - 1), static_cast<long>(dim));
    }
    *mask = 1u << (dim < 0 ? dim + rank : dim);
    return ACLNN_SUCCESS;
}

/// CheckParams (the dim already in mask), FillScalar(1) over an empty self,
/// then ExecuteProd: self cast to out's dtype (to FLOAT for a BOOL out or
/// an FLOAT16 -> FLOAT16 product), ReduceProd, the result cast into out.
aclnnStatus prod(const char* api, const aclTensor* self, const int64_t* dim, bool keepDim, aclDataType dtype,
                 const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kProdDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    uint32_t mask = all_dims(self);
    if (dim != nullptr) ACLCPU_RETURN_IF_ERROR(prod_dim_mask(self, *dim, &mask));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) return hand_back_filled_out(api, self, out, kProdEmptyDtypes, 1.0, workspaceSize, executor);
    const aclDataType selfDtype = view_of(self).dtype;
    ACLCPU_RETURN_IF_ERROR(check_cast_into(ACLNN_ERR_INNER_NULLPTR, selfDtype, out));
    ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced_shape(view_of(self).shape, mask, keepDim), out));
    ReductionSpec spec;
    spec.combine = ReduceCombine::prod;
    const bool viaFloat = dtype == ACL_BOOL || (selfDtype == ACL_FLOAT16 && dtype == ACL_FLOAT16);
    spec.castDtype = viaFloat ? ACL_FLOAT : dtype;
    return hand_back_reduction(api, spec, self, mask, out, workspaceSize, executor);
}

// ---- Max, Min -------------------------------------------------------------------

/// Every dim reduced in self's dtype (BOOL as FLOAT), the result cast into
/// out (any listed dtype, one element); an empty self or out launches
/// nothing.
aclnnStatus extremum_all(const char* api, ReduceCombine combine, const aclTensor* self, const aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kExtremumDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self) || is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    const uint32_t mask = all_dims(self);
    ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced_shape(view_of(self).shape, mask, false), out));
    ReductionSpec spec;
    spec.combine = combine;
    spec.castDtype = view_of(self).dtype == ACL_BOOL ? ACL_FLOAT : view_of(self).dtype;
    return hand_back_reduction(api, spec, self, mask, out, workspaceSize, executor);
}

// ---- MaxDim, MinDim -------------------------------------------------------------

/// DTYPE_SUPPORT_GE910B_LIST of aclnn_max_dim.cpp and aclnn_min_dim.cpp.
constexpr DtypeList kValueIndexDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BOOL, ACL_BF16};

/// ArgMaxWithValue / ArgMinWithValue: the value and the INT32 index of the
/// first largest (smallest) element along dim, NaN beating any number; the
/// index cast into indices' dtype (a failed Cast answers 161001, as the
/// op_api's CHECK_RET does), the value into out (of self's dtype).
aclnnStatus value_index(const char* api, ReduceCombine combine, const aclTensor* self, int64_t dim, bool keepdim,
                        const aclTensor* out, const aclTensor* indices, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}, {indices, "indices"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kValueIndexDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}, {indices, "indices"}}));
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(single_dim_mask(self, dim, "dim should within the range of [[%ld], [%ld]].", &mask));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out, indices}, workspaceSize, executor);
    const Dims reduced = reduced_shape(view_of(self).shape, mask, keepdim);
    ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced, indices));
    ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced, out));
    ACLCPU_RETURN_IF_ERROR(check_cast_into(ACLNN_ERR_PARAM_NULLPTR, ACL_INT32, indices));
    ReductionSpec spec;
    spec.combine = combine;
    spec.castDtype = view_of(self).dtype == ACL_BOOL ? ACL_FLOAT : view_of(self).dtype;
    return hand_back_reduction(api, spec, self, mask, indices, workspaceSize, executor, out);
}

// ---- Any, All -------------------------------------------------------------------

/// ASCEND910B lists of aclnn_any.cpp and aclnn_all.cpp (one set), and
/// their outs'.
constexpr DtypeList kLogicalDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8, ACL_INT8,   ACL_INT16,
                                      ACL_INT32, ACL_INT64,   ACL_BOOL,  ACL_DOUBLE, ACL_BF16};
constexpr DtypeList kLogicalOutDtypes = {ACL_UINT8, ACL_BOOL};

/// The dim lists of Any and All: an empty list reduces every dim.  Any
/// checks ranges only ("Dimension out of range.", a repeated dim reduced
/// once); All words the range and refuses a repeated dim.
aclnnStatus logical_dims_mask(const aclIntArray* dims, const aclTensor* self, bool allWording, uint32_t* mask) {
    const size_t rank = view_of(self).shape.size();
    const int64_t dimCount = rank == 0 ? 1 : static_cast<int64_t>(rank);
    uint32_t result = 0;
    for (const int64_t dim : values_of(dims)) {
        if (dim < -dimCount || dim >= dimCount) {
            if (!allWording) return param_error(ACLNN_ERR_PARAM_INVALID, "Dimension out of range.");
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Dimension out of range (expected to be in range of [-%ld, %ld], but got %ld)",
                               static_cast<long>(dimCount), static_cast<long>(dimCount - 1), static_cast<long>(dim));
        }
        const int64_t index = dim < 0 ? dim + dimCount : dim;
        if (allWording && index < 32 && (result >> index & 1u) != 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Dim %lu appears multiple times in the list of dims.",
                               static_cast<unsigned long>(index));
        }
        if (index < 32) result |= 1u << index;
    }
    *mask = rank == 0 ? 0 : (values_of(dims).empty() ? all_dims(self) : result);
    return ACLNN_SUCCESS;
}

/// What Any and All share after their checks: FillScalar(false / true)
/// over an empty self, otherwise ReduceAny / ReduceAll -- Max / Min over
/// self cast to BOOL -- cast into out.
aclnnStatus hand_back_logical(const char* api, ReduceCombine combine, const aclTensor* self, uint32_t mask,
                              const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const double emptyValue = combine == ReduceCombine::min ? 1.0 : 0.0;
    if (is_empty(self)) {
        return hand_back_filled_out(api, self, out, kLogicalOutDtypes, emptyValue, workspaceSize, executor);
    }
    ReductionSpec spec;
    spec.combine = combine;
    spec.castDtype = ACL_BOOL;
    return hand_back_reduction(api, spec, self, mask, out, workspaceSize, executor);
}

aclnnStatus any(const aclTensor* self, const aclIntArray* dim, bool keepdim, const aclTensor* out,
                uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {dim, "dim"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kLogicalDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kLogicalOutDtypes));
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(logical_dims_mask(dim, self, false, &mask));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (!is_empty(self)) {
        ACLCPU_RETURN_IF_ERROR(check_shape_or_scalar(reduced_shape(view_of(self).shape, mask, keepdim), out));
    }
    return hand_back_logical("aclnnAny", ReduceCombine::max, self, mask, out, workspaceSize, executor);
}

/// All checks out's shape exactly (CheckShape's "Expect out shape"), before
/// the empty case.
aclnnStatus all(const aclTensor* self, const aclIntArray* dim, bool keepdim, const aclTensor* out,
                uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {dim, "dim"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kLogicalDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kLogicalOutDtypes));
    if (is_private_format(format_of(self))) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW, self [%s]",
                           format_name(format_of(self)));
    }
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(logical_dims_mask(dim, self, true, &mask));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    const Dims expected = reduced_shape(view_of(self).shape, mask, keepdim);
    if (expected != view_of(out).shape) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expect out shape [%s], but got: [%s].",
                           shape_string(expected).c_str(), shape_string(view_of(out).shape).c_str());
    }
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    return hand_back_logical("aclnnAll", ReduceCombine::min, self, mask, out, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    return prod("aclnnProd", self, nullptr, false, dtype_argument(dtype), out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnProd)

extern "C" aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                    const aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    return prod("aclnnProdDim", self, &dim, keepDim, dtype_argument(dtype), out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnProdDim)

extern "C" aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    return extremum_all("aclnnMax", ReduceCombine::max, self, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnMax)

extern "C" aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    return extremum_all("aclnnMin", ReduceCombine::min, self, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnMin)

/// MaxDim and MinDim: one signature, the combine apart.
#define ACLCPU_VALUE_INDEX_API(api, combine)                                                                        \
    extern "C" aclnnStatus api##GetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,  \
                                                 aclTensor* indices, uint64_t* workspaceSize,                        \
                                                 aclOpExecutor** executor) {                                         \
        return value_index(#api, ReduceCombine::combine, self, dim, keepdim, out, indices, workspaceSize, executor); \
    }                                                                                                                \
    ACLCPU_DEFINE_PHASE2(api)

ACLCPU_VALUE_INDEX_API(aclnnMaxDim, argmax)
ACLCPU_VALUE_INDEX_API(aclnnMinDim, argmin)

extern "C" aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return any(self, dim, keepdim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnAny)

extern "C" aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return all(self, dim, keepdim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnAll)
