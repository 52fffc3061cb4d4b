// acl-cpu: aclnnNorm of CANN's ops-nn (norm/lp_norm_v2/op_api/aclnn_norm.cpp)
// on the reduction engine (common/reduction.hpp): its checks in CANN's
// order, FillScalar(0) over an empty self, and LpNormV2 in fp32 -- self cast
// to FLOAT, the norm's map, sum / max / min and root, the result cast into
// out -- as the A2 path (aclnnLinalgVectorA3) computes it.
#include "aclnnop/aclnn_norm.h"

#include <climits>
#include <cmath>
#include <vector>

#include "common/op_checks.hpp"
#include "common/phase2.hpp"
#include "common/reduction.hpp"
#include "common/scalar_value.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

/// CheckPromoteType: self's and out's dtypes promote (A2 checks no list).
aclnnStatus check_norm_dtypes(const aclTensor* self, const aclTensor* out) {
    const aclDataType selfDtype = view_of(self).dtype;
    const aclDataType outDtype = view_of(out).dtype;
    if (promote_types(selfDtype, outDtype) != ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Input dtype %s and output dtype %s can not promote dtype.",
                       dtype_name(selfDtype), dtype_name(outDtype));
}

/// CheckDimValid: every dim in range first, then no dim twice (the message
/// prints the dim as passed); an empty list reduces every dim.
aclnnStatus norm_dims_mask(const aclIntArray* dims, const aclTensor* self, uint32_t* mask) {
    const std::vector<int64_t>& list = values_of(dims);
    const size_t rank = view_of(self).shape.size();
    const int64_t dimCount = rank == 0 ? 1 : static_cast<int64_t>(rank);
    for (const int64_t dim : list) {
        if (dim >= dimCount || dim < -dimCount) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "provided dim %ld not in the range of input tensor size %ld.",
                               static_cast<long>(dim), static_cast<long>(dimCount));
        }
    }
    std::vector<bool> seen(static_cast<size_t>(dimCount));
    uint32_t result = 0;
    for (const int64_t dim : list) {
        const int64_t index = dim < 0 ? dim + dimCount : dim;
        if (seen[static_cast<size_t>(index)]) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Dim %ld appears multiple times in the list of dims",
                               static_cast<long>(dim));
        }
        seen[static_cast<size_t>(index)] = true;
        if (index < 32) result |= 1u << index;
    }
    if (list.empty()) result = rank >= 32 ? ~0u : (1u << rank) - 1u;
    *mask = rank == 0 ? 0 : result;
    return ACLNN_SUCCESS;
}

/// CalculateValP then LpNormV2's choice of kernel: inf (or INT_MAX) -> the
/// largest |x|, -inf (or INT_MIN) -> the smallest, 0, 1, 2 their own, any
/// other p the general sum(|x|^p)^(1/p).
ReductionSpec norm_spec(const aclScalar* pScalar) {
    constexpr auto kIntMax = static_cast<float>(INT_MAX);
    constexpr auto kIntMin = static_cast<float>(INT_MIN);
    const auto p = static_cast<float>(compute_value(pScalar, ACL_FLOAT).real);
    const auto near = [&](float value) { return std::fabs(p - value) < 1e-6f; };
    ReductionSpec spec;
    spec.castDtype = ACL_FLOAT;
    spec.p = p;
    if ((std::isinf(p) && p > 0) || near(kIntMax)) {
        spec.norm = LpNorm::inf;
        spec.combine = ReduceCombine::max;
    } else if ((std::isinf(p) && p < 0) || near(kIntMin)) {
        spec.norm = LpNorm::ninf;
        spec.combine = ReduceCombine::min;
    } else {
        spec.norm = p == 0.0f ? LpNorm::p0 : p == 1.0f ? LpNorm::p1 : p == 2.0f ? LpNorm::p2 : LpNorm::other;
    }
    return spec;
}

aclnnStatus norm(const aclTensor* self, const aclScalar* pScalar, const aclIntArray* dim, bool keepdim,
                 const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {pScalar, "pScalar"}, {dim, "dim"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_norm_dtypes(self, out));
    uint32_t mask = 0;
    ACLCPU_RETURN_IF_ERROR(norm_dims_mask(dim, self, &mask));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", reduced_shape(view_of(self).shape, mask, keepdim)));
    if (is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    if (!has_element_type(view_of(self).dtype) || !has_element_type(view_of(out).dtype)) {
        return param_error(ACLNN_ERR_INNER_NULLPTR, "Cast from %s to %s is not supported.",
                           dtype_name(view_of(self).dtype), dtype_name(view_of(out).dtype));
    }
    // An empty self fills out with 0: the sum of no element.
    const ReductionSpec spec = is_empty(self) ? ReductionSpec{} : norm_spec(pScalar);
    return hand_back_reduction("aclnnNorm", spec, self, mask, out, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar,
                                                 const aclIntArray* dim, bool keepdim, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    return norm(self, pScalar, dim, keepdim, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnNorm)
