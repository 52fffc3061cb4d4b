// acl-cpu: the layout family of CANN's ops-math on the layout engine --
// aclnnCast, aclnnInplaceCopy, aclnnPermute.
//
// Each operator is its checks, in the order of its A2 op_api code
// (math/cast, conversion/view_copy, conversion/transpose in hicann/ops-math),
// and its copy steps: the source view as the operator reads it (permuted,
// broadcast) and the output's view.  The layout engine (common/layout.hpp)
// does the rest.
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_permute.h"

#include <vector>

#include "common/layout.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

/// Cast's A2 list (DTYPE_SUPPORT_LIST_DEFAULT), for self and for dtype.
constexpr DtypeList kCastDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_DOUBLE, ACL_INT8,   ACL_UINT8,
                                   ACL_INT16,   ACL_INT32,  ACL_INT64,  ACL_UINT16, ACL_UINT32,
                                   ACL_UINT64,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
/// InplaceCopy's list: Cast's and the 8-bit floats, which it copies but
/// cannot cast (a copy between two of one dtype moves the bytes).
constexpr DtypeList kCopyDtypes = {ACL_INT8,      ACL_INT16,  ACL_INT32,  ACL_INT64,      ACL_UINT8,
                                   ACL_UINT16,    ACL_UINT32, ACL_UINT64, ACL_FLOAT16,    ACL_FLOAT,
                                   ACL_BOOL,      ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16,
                                   ACL_FLOAT8_E5M2, ACL_FLOAT8_E4M3FN, ACL_HIFLOAT8, ACL_FLOAT8_E8M0};
/// Permute's list (its kernel moves elements without casting them).
constexpr DtypeList kPermuteDtypes = {ACL_FLOAT,     ACL_FLOAT16,   ACL_INT8,       ACL_INT16,  ACL_INT32,
                                      ACL_INT64,     ACL_UINT8,     ACL_UINT16,     ACL_UINT32, ACL_UINT64,
                                      ACL_BOOL,      ACL_DOUBLE,    ACL_COMPLEX64,  ACL_COMPLEX128, ACL_BF16,
                                      ACL_HIFLOAT8,  ACL_FLOAT8_E5M2, ACL_FLOAT8_E4M3FN};

/// One step copying self (read over `source`) into out's view.
std::vector<CopyStep> one_step(const StridedLayout& source, const aclTensor* out) {
    return {CopyStep{0, source, StridedLayout::of(view_of(out))}};
}

// ---- Cast (math/cast/op_api/aclnn_cast.cpp) -------------------------------

/// dtype arrives as a C caller passed it: any int, read as a code.
aclnnStatus check_cast_dtype(int64_t dtype) {
    if (is_dtype_code(dtype) && contains(kCastDtypes, dtype_from_code(dtype))) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "The param dtype not implemented for %s, should be in dtype support list %s.",
                       dtype_name(dtype), dtype_list_string(kCastDtypes).c_str());
}

aclnnStatus cast(const aclTensor* self, int64_t dtypeCode, const aclTensor* out, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kCastDtypes));
    ACLCPU_RETURN_IF_ERROR(check_cast_dtype(dtypeCode));
    const aclDataType dtype = dtype_from_code(dtypeCode);
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", self, "self"));
    // CANN's graph ends in a ViewCopy of the dtype-typed result into out,
    // which copies between tensors of one dtype.
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", dtype));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    return hand_back_layout("aclnnCast", one_step(StridedLayout::of(view_of(self)), out), {self}, out, workspaceSize,
                            executor);
}

// ---- InplaceCopy (conversion/view_copy/op_api/aclnn_copy.cpp) -------------

/// A cast between two dtypes the engine cannot convert (the 8-bit floats)
/// -> 161002; a copy within one dtype moves its bytes.
aclnnStatus check_copy_castable(const aclTensor* selfRef, const aclTensor* src) {
    const aclDataType to = view_of(selfRef).dtype;
    const aclDataType from = view_of(src).dtype;
    if (from == to || (has_element_type(from) && has_element_type(to))) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Copy from %s to %s needs a cast acl-cpu does not have.",
                       dtype_name(from), dtype_name(to));
}

aclnnStatus inplace_copy(const aclTensor* selfRef, const aclTensor* src, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{selfRef, "self"}, {src, "src"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{selfRef, "self"}, {src, "src"}}, kCopyDtypes));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{selfRef, "self"}, {src, "src"}}));
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(selfRef, "self", src, "src", &shape));
    if (shape != view_of(selfRef).shape) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of broadcast result should be %s, but self is %s.",
                           shape_string(shape).c_str(), shape_string(view_of(selfRef).shape).c_str());
    }
    ACLCPU_RETURN_IF_ERROR(check_copy_castable(selfRef, src));
    if (is_empty(selfRef) || is_empty(src)) return hand_back_empty_executor({src}, {selfRef}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{selfRef, "self"}, {src, "src"}}));
    return hand_back_layout("aclnnInplaceCopy", one_step(StridedLayout::broadcast_to(view_of(src), shape), selfRef),
                            {src}, selfRef, workspaceSize, executor);
}

// ---- Permute (conversion/transpose/op_api/aclnn_permute.cpp) --------------

aclnnStatus check_permute_shapes(const aclTensor* self, const std::vector<int64_t>& dims, const aclTensor* out) {
    const size_t rank = view_of(self).shape.size();
    if (rank != view_of(out).shape.size()) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Permute does not support self shape: %s, output shape: %s",
                           shape_string(view_of(self).shape).c_str(), shape_string(view_of(out).shape).c_str());
    }
    if (dims.size() != rank) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The dimension of the dims:%zu and the dimension of the input shape:%zu are inconsistent",
                           dims.size(), rank);
    }
    for (size_t i = 0; i < dims.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            if (dims[i] == dims[j]) {
                return param_error(ACLNN_ERR_PARAM_INVALID, "Invalid dims and it contains duplicate elements");
            }
        }
    }
    return check_max_dim(self, "self");
}

/// CheckDimsRange: each dim in [-rank, rank - 1], no dim named twice once
/// the negative ones are wrapped.  *perm receives the wrapped dims.
aclnnStatus check_dims_range(size_t rank, const std::vector<int64_t>& dims, std::vector<int64_t>* perm) {
    const auto n = static_cast<int64_t>(rank);
    const int64_t high = std::max(-n, n - 1);
    const int64_t low = std::min(-n, n - 1);
    std::vector<bool> named(rank, false);
    for (int64_t dim : dims) {
        if (dim > high || dim < low) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "The values of dims should be in range [%ld, %ld].", low,
                               high);
        }
        const int64_t wrapped = dim < 0 ? dim + n : dim;
        if (named[static_cast<size_t>(wrapped)]) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Each dimension in perm should not be repeated.");
        }
        named[static_cast<size_t>(wrapped)] = true;
        perm->push_back(wrapped);
    }
    return ACLNN_SUCCESS;
}

aclnnStatus permute(const aclTensor* self, const aclIntArray* dims, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {dims, "dims"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kPermuteDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    const std::vector<int64_t>& values = values_of(dims);
    ACLCPU_RETURN_IF_ERROR(check_permute_shapes(self, values, out));
    std::vector<int64_t> perm;
    ACLCPU_RETURN_IF_ERROR(check_dims_range(view_of(self).shape.size(), values, &perm));
    const TensorView& selfView = view_of(self);
    TensorView permuted = selfView;
    for (size_t i = 0; i < perm.size(); ++i) {
        permuted.shape[i] = selfView.shape[static_cast<size_t>(perm[i])];
        permuted.strides[i] = selfView.strides[static_cast<size_t>(perm[i])];
    }
    if (is_empty(self) && !is_empty(out)) {
        // ProcessEmptyTensor: an empty self needs an empty out.
        report_error(ACLNN_ERR_INNER_NULLPTR, kAclnnInnerTag, "Output should be empty when self is empty");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", permuted.shape));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    return hand_back_layout("aclnnPermute", one_step(StridedLayout::of(permuted), out), {self}, out, workspaceSize,
                            executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" {

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::cast(self, aclcpu::code_of(dtype), out, workspaceSize, executor);
}

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    return aclcpu::ops::inplace_copy(selfRef, src, workspaceSize, executor);
}

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::permute(self, dims, out, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnCast)
ACLCPU_DEFINE_PHASE2(aclnnInplaceCopy)
ACLCPU_DEFINE_PHASE2(aclnnPermute)
