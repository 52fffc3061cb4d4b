// acl-cpu: the index family -- aclnnIndexSelect, aclnnGatherV2,
// aclnnEmbedding (a gather of the index engine each) and aclnnIndexCopy /
// aclnnInplaceIndexCopy (a scatter), each its checks in the order of its A2
// op_api code in hicann/ops-nn (index/gather_v2/op_api/aclnn_index_select.cpp,
// aclnn_gather_v2.cpp, index/embedding/op_api/aclnn_embedding.cpp,
// index/scatter_update/op_api/aclnn_index_copy.cpp).
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_select.h"

#include "common/index.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kIndexDtypes = {ACL_INT32, ACL_INT64};

/// The DAV_2201 (A2) lists: IndexSelect's DTYPE_SUPPORT_LIST, GatherV2's
/// DTYPE_SUPPORT_LIST_WITH_BF16, Embedding's WEIGHT_DTYPE_SUPPORT_LIST_WITH_COMPLEX_AND_BF16.
constexpr DtypeList kIndexSelectDtypes = {ACL_FLOAT,  ACL_INT32,  ACL_INT64,  ACL_FLOAT16,   ACL_INT16,
                                          ACL_INT8,   ACL_UINT8,  ACL_BOOL,   ACL_UINT64,    ACL_UINT32,
                                          ACL_UINT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
constexpr DtypeList kGatherDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16,   ACL_INT16,      ACL_INT8,
                                     ACL_UINT8, ACL_BOOL,  ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

/// The first element of view as a [1] view: the only position a 0-d view
/// (or a 0-d self's gather) takes.
TensorView first_element(TensorView view) {
    view.shape = Dims{1};
    view.strides = Dims{0};
    return view;
}

/// view as [1] when it is 0-d (CANN's UnsqueezeNd of a 0-d self or index).
TensorView at_least_1d(const TensorView& view) { return view.shape.empty() ? first_element(view) : view; }

/// view with a dim of size 1 inserted before dim `at`.
TensorView with_unit_dim(const TensorView& view, size_t at) {
    TensorView result = view;
    result.shape.resize(0);
    result.strides.resize(0);
    for (size_t d = 0; d <= view.shape.size(); ++d) {
        if (d == at) {
            result.shape.push_back(1);
            result.strides.push_back(0);
        }
        if (d == view.shape.size()) break;
        result.shape.push_back(view.shape[d]);
        result.strides.push_back(view.strides[d]);
    }
    return result;
}

/// A dim in [-rank, rank) as a dim in [0, rank).
int64_t wrapped_dim(int64_t dim, int64_t rank) { return dim < 0 ? dim + rank : dim; }

/// The gather out = self[.., index[p], ..] along dim, after the checks: an
/// empty self or index computes nothing (CANN's HasEmptyTensor ending); a
/// 0-d self gathers from [1] into one element (only index's first value counts).
aclnnStatus hand_back_gather(const char* api, const aclTensor* self, int64_t dim, const aclTensor* index,
                             const aclTensor* out, bool wrapsNegative, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {index, "index"}, {out, "out"}}));
    if (is_empty(self) || is_empty(index)) return hand_back_empty_executor({self, index}, {out}, workspaceSize, executor);
    IndexedCopy copy;
    copy.table = at_least_1d(view_of(self));
    copy.dim = wrapped_dim(dim, static_cast<int64_t>(copy.table.shape.size()));
    copy.index = at_least_1d(view_of(index));
    copy.other = view_of(out);
    if (view_of(self).shape.empty()) {
        copy.index = first_element(view_of(index));
        copy.other = first_element(copy.other);
    } else if (view_of(index).shape.empty() && copy.other.shape.size() < copy.table.shape.size()) {
        // Embedding's out has no dim for a 0-d index: one of size 1 stands for it.
        copy.other = with_unit_dim(copy.other, static_cast<size_t>(copy.dim));
    }
    copy.wrapsNegative = wrapsNegative;
    return hand_back_index(api, copy, IndexSlots{0, 1}, {self, index}, out, workspaceSize, executor);
}

// ---- IndexSelect (index/gather_v2/op_api/aclnn_index_select.cpp) ----------

/// CheckFormat.
aclnnStatus check_no_private_format(NamedArgs tensors) {
    for (const NamedArg& arg : tensors) {
        if (is_private_format(format_of(arg.tensor))) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW.");
        }
    }
    return ACLNN_SUCCESS;
}

/// CheckShape.
aclnnStatus check_index_select_shape(const aclTensor* self, int64_t dim, const aclTensor* index,
                                     const aclTensor* out) {
    const Dims& shape = view_of(self).shape;
    auto rank = static_cast<int64_t>(shape.size());
    if (rank == 0) {
        rank = 1;
        if (!view_of(out).shape.empty()) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "self is scalar, and out should also be scalar");
        }
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    if (dim < -rank || dim >= rank) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "IndexError: Dimension out of range (expected to be in range of [%ld, %ld], but got %ld)",
                           -rank, rank - 1, dim);
    }
    const Dims& indexShape = view_of(index).shape;
    if (indexShape.size() > 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "index dimNum is %zu, should not greater than 1",
                           indexShape.size());
    }
    if (shape.empty() || is_empty(self) || is_empty(index)) return ACLNN_SUCCESS;
    Dims expected = shape;
    expected[wrapped_dim(dim, rank)] = indexShape.empty() ? 1 : indexShape[0];
    if (view_of(out).shape != expected) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of out should be %s, but current is %s.",
                           shape_string(expected).c_str(), shape_string(view_of(out).shape).c_str());
    }
    return ACLNN_SUCCESS;
}

aclnnStatus index_select(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {index, "index"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kIndexSelectDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(index, "index", kIndexDtypes));
    ACLCPU_RETURN_IF_ERROR(check_no_private_format({{self, "self"}, {index, "index"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_index_select_shape(self, dim, index, out));
    // GatherV3 without negative_index_support: a negative value is out of range.
    return hand_back_gather("aclnnIndexSelect", self, dim, index, out, false, workspaceSize, executor);
}

// ---- GatherV2 (index/gather_v2/op_api/aclnn_gather_v2.cpp) ----------------

/// CheckShape and CheckOutShape: out is self's shape with dim replaced by
/// index's (a 0-d index counting as [1]); a 0-d self gives a 0-d out.
aclnnStatus check_gather_shape(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {index, "index"}}));
    const Dims& shape = view_of(self).shape;
    const int64_t rank = shape.empty() ? 1 : static_cast<int64_t>(shape.size());
    if (dim < -rank || dim >= rank) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "dim %ld not in valid range: [%ld, %ld)", dim, -rank, rank);
    }
    Dims expected;
    if (!shape.empty()) {
        const int64_t axis = wrapped_dim(dim, rank);
        const Dims& indexShape = view_of(index).shape;
        for (int64_t d = 0; d < axis; ++d) expected.push_back(shape[d]);
        if (indexShape.empty()) expected.push_back(1);
        for (const int64_t size : indexShape) expected.push_back(size);
        for (int64_t d = axis + 1; d < rank; ++d) expected.push_back(shape[d]);
    }
    return check_shape_is(out, "out", expected);
}

aclnnStatus gather_v2(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {index, "index"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kGatherDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(index, "index", kIndexDtypes));
    ACLCPU_RETURN_IF_ERROR(check_gather_shape(self, dim, index, out));
    // l0op::GatherV2(..., 0, true): negative values count from the end.
    return hand_back_gather("aclnnGatherV2", self, dim, index, out, true, workspaceSize, executor);
}

// ---- Embedding (index/embedding/op_api/aclnn_embedding.cpp) ---------------

/// CheckMaxDimension and CheckDimension: out has one dim more than
/// indices, its leading dims indices' sizes.  CANN checks no more; its
/// ViewCopy of the gather into out then needs out's other dims to be
/// weight's trailing ones, which acl-cpu checks here (161002).
aclnnStatus check_embedding_shape(const aclTensor* weight, const aclTensor* indices, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{weight, "weight"}, {indices, "indices"}, {out, "out"}}));
    const Dims& outShape = view_of(out).shape;
    const Dims& indicesShape = view_of(indices).shape;
    if (outShape.size() != indicesShape.size() + 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "out dim [%zu] should be one larger than indices dim [%zu].",
                           outShape.size(), indicesShape.size());
    }
    for (size_t d = 0; d < indicesShape.size(); ++d) {
        if (outShape[d] != indicesShape[d]) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "out shape [%s] is not match with indices shape [%s].",
                               shape_string(outShape).c_str(), shape_string(indicesShape).c_str());
        }
    }
    Dims expected = indicesShape;
    const Dims& weightShape = view_of(weight).shape;
    for (size_t d = 1; d < weightShape.size(); ++d) expected.push_back(weightShape[d]);
    return check_shape_is(out, "out", expected);
}

aclnnStatus embedding(const aclTensor* weight, const aclTensor* indices, const aclTensor* out,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{weight, "weight"}, {indices, "indices"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(weight, "weight", kGatherDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(weight, "weight", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(indices, "indices", kIndexDtypes));
    ACLCPU_RETURN_IF_ERROR(check_embedding_shape(weight, indices, out));
    // l0op::GatherV2 along dim 0 without negative_index_support.
    return hand_back_gather("aclnnEmbedding", weight, 0, indices, out, false, workspaceSize, executor);
}

// ---- IndexCopy (index/scatter_update/op_api/aclnn_index_copy.cpp) --------

/// SELF_DTYPE_SUPPORT_LIST_910B.
constexpr DtypeList kIndexCopyDtypes = {ACL_DOUBLE, ACL_INT16,   ACL_INT8,  ACL_UINT8, ACL_COMPLEX64, ACL_COMPLEX128,
                                        ACL_BOOL,   ACL_FLOAT,   ACL_FLOAT16, ACL_INT32, ACL_INT64,   ACL_BF16};

/// CheckDtypeValid.
aclnnStatus check_index_copy_dtypes(const aclTensor* self, const aclTensor* index, const aclTensor* source,
                                    const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kIndexCopyDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(index, "index", kIndexDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", source, "source"));
    return check_same_dtype(self, "self", out, "out");
}

/// CheckShape, then CheckElementNum.  A 0-d source is read as [1] (CANN's
/// Reshape to {-1}); acl-cpu takes it only where that is self's slice shape
/// (a 0-d or 1-D self), where CANN's slice comparison reads past the 0-d
/// source's dims.
aclnnStatus check_index_copy_shape(const aclTensor* self, int64_t dim, const aclTensor* index,
                                   const aclTensor* source, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(source, "source"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(index, "index", 1));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    const Dims& selfShape = view_of(self).shape;
    const Dims& sourceShape = view_of(source).shape;
    const int64_t positions = view_of(index).numel();
    if (sourceShape.empty() && positions != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "When source is scalar,index should have one element,but got %ld.", positions);
    }
    if (selfShape.size() != sourceShape.size() && !selfShape.empty() && !sourceShape.empty()) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "When source and self are not scalars,their dimensionality must match,but got self "
                           "dimensionality %s,source dimensionlity %s",
                           shape_string(selfShape).c_str(), shape_string(sourceShape).c_str());
    }
    const auto rank = static_cast<int64_t>(selfShape.size());
    if (rank == 0 && dim != 0 && dim != -1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Dimension out of range (expected to be in range of [-1, 0], but got %ld)", dim);
    }
    if (rank > 0 && (dim < -rank || dim >= rank)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Dimension out of range (expected to be in range of [-%ld, %ld],but got %ld)", rank,
                           rank - 1, dim);
    }
    const Dims sourceSlices = sourceShape.empty() ? Dims{1} : sourceShape;
    const bool sliceRanksDiffer = sourceShape.empty() && rank > 1;
    for (int64_t d = 0; d < rank && !sliceRanksDiffer; ++d) {
        if (d != wrapped_dim(dim, rank) && selfShape[d] != sourceSlices[d]) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Self and source must have same slice shapes");
        }
    }
    if (sliceRanksDiffer) return param_error(ACLNN_ERR_PARAM_INVALID, "Self and source must have same slice shapes");
    if (!sourceShape.empty()) {
        const int64_t axis = wrapped_dim(dim, static_cast<int64_t>(sourceShape.size()));
        if (positions != sourceShape[axis]) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "The element num of index (%ld) should be equal to source size in dimension %ld, "
                               "actual is %ld",
                               positions, axis, sourceShape[axis]);
        }
    }
    return ACLNN_SUCCESS;
}

/// CheckFormat.
aclnnStatus check_same_format(const aclTensor* self, const aclTensor* out) {
    if (format_of(self) == format_of(out)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Format of input and output should be same. self [%s], out [%s].",
                       format_name(format_of(self)), format_name(format_of(out)));
}

/// Whether copy.other has table's shape with dim replaced by index's.
bool slices_match(const IndexedCopy& copy) {
    const Dims& table = copy.table.shape;
    const Dims& other = copy.other.shape;
    const Dims& positions = copy.index.shape;
    if (other.size() != table.size() - 1 + positions.size()) return false;
    const auto dim = static_cast<size_t>(copy.dim);
    for (size_t d = 0; d < other.size(); ++d) {
        const bool atPositions = d >= dim && d < dim + positions.size();
        const int64_t expected = d < dim ? table[d] : atPositions ? positions[d - dim] : table[d + 1 - positions.size()];
        if (other[d] != expected) return false;
    }
    return true;
}

/// selfRef[.., index[i], ..] = source[.., i, ..] into out (selfRef itself
/// in place; else out = selfRef first, CANN's copy of self that the
/// scatter updates).  An index value outside [0, size(dim)) writes nothing
/// (ScatterUpdate's kernel skips it; negative values too).
aclnnStatus index_copy(const char* api, const aclTensor* self, int64_t dim, const aclTensor* index,
                       const aclTensor* source, const aclTensor* out, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(
        check_not_null({{self, "self"}, {index, "index"}, {source, "source"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_index_copy_dtypes(self, index, source, out));
    ACLCPU_RETURN_IF_ERROR(check_index_copy_shape(self, dim, index, source, out));
    ACLCPU_RETURN_IF_ERROR(check_same_format(self, out));
    ACLCPU_RETURN_IF_ERROR(
        check_view_in_storage({{self, "self"}, {index, "index"}, {source, "source"}, {out, "out"}}));
    if (is_empty(self) || is_empty(index)) {
        return hand_back_empty_executor({self, index, source}, {out}, workspaceSize, executor);
    }
    IndexedCopy copy;
    copy.direction = IndexDirection::kScatter;
    copy.table = at_least_1d(view_of(out));
    copy.dim = wrapped_dim(dim, static_cast<int64_t>(copy.table.shape.size()));
    copy.index = at_least_1d(view_of(index));
    copy.other = at_least_1d(view_of(source));
    if (!slices_match(copy)) {
        // A 0-d self passes CANN's slice comparison with a source of any rank.
        return param_error(ACLNN_ERR_PARAM_INVALID, "Self and source must have same slice shapes");
    }
    std::vector<CopyStep> base;
    if (out != self) {
        const TensorView& from = view_of(self);
        const TensorView& to = view_of(out);
        append_copy(base, 0, step_dims(from, to), {from.dtype, from.offset}, {to.dtype, to.offset});
    }
    return hand_back_index(api, copy, IndexSlots{2, 1}, {self, index, source}, out, workspaceSize, executor,
                           std::move(base));
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu::ops;

extern "C" {

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                             aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return index_select(self, dim, index, out, workspaceSize, executor);
}

aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                          aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return gather_v2(self, dim, index, out, workspaceSize, executor);
}

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices, const aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    return embedding(weight, indices, out, workspaceSize, executor);
}

aclnnStatus aclnnIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                           const aclTensor* source, aclTensor* outRef, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
    return index_copy("aclnnIndexCopy", selfRef, dim, index, source, outRef, workspaceSize, executor);
}

aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                  const aclTensor* source, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    return index_copy("aclnnInplaceIndexCopy", selfRef, dim, index, source, selfRef, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnIndexCopy)
ACLCPU_DEFINE_PHASE2(aclnnInplaceIndexCopy)
ACLCPU_DEFINE_PHASE2(aclnnIndexSelect)
ACLCPU_DEFINE_PHASE2(aclnnGatherV2)
ACLCPU_DEFINE_PHASE2(aclnnEmbedding)
