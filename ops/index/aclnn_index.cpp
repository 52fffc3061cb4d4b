// acl-cpu: the index family -- aclnnIndexSelect, aclnnGatherV2,
// aclnnEmbedding (a gather of the index engine each) and aclnnIndexCopy /
// aclnnInplaceIndexCopy (a scatter), each its checks in the order of its A2
// op_api code in hicann/ops-nn (index/gather_v2/op_api/aclnn_index_select.cpp,
// aclnn_gather_v2.cpp, index/embedding/op_api/aclnn_embedding.cpp,
// index/scatter_update/op_api/aclnn_index_copy.cpp) -- and aclnnScatter /
// aclnnScatterValue (the engine's element scatter,
// index/scatter_elements_v2/op_api/aclnn_scatter.cpp), aclnnIndexFillTensor
// (index/index_fill_d/op_api/aclnn_index_fill_tensor.cpp) and
// aclnnRepeatInterleaveInt(WithDim) (index/repeat_interleave/op_api/
// aclnn_repeat_interleave.cpp), whose index maps phase 1 knows: layout steps.
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_scatter.h"

#include "common/index.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/typed_lanes.hpp"

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

/// view with a dim of `size` and stride 0 inserted before dim `at` (its
/// elements repeated along it).
TensorView with_broadcast_dim(const TensorView& view, size_t at, int64_t size = 1) {
    TensorView result = view;
    result.shape.resize(0);
    result.strides.resize(0);
    for (size_t d = 0; d <= view.shape.size(); ++d) {
        if (d == at) {
            result.shape.push_back(size);
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
        copy.other = with_broadcast_dim(copy.other, static_cast<size_t>(copy.dim));
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

/// The layout steps copying self into out, none when they are one tensor
/// (an Inplace form): the base an in-place update of out starts from.
std::vector<CopyStep> copy_unless_same(const aclTensor* self, const aclTensor* out) {
    std::vector<CopyStep> steps;
    if (out == self) return steps;
    const TensorView& from = view_of(self);
    const TensorView& to = view_of(out);
    append_copy(steps, 0, step_dims(from, to), {from.dtype, from.offset}, {to.dtype, to.offset});
    return steps;
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
    return hand_back_index(api, copy, IndexSlots{2, 1}, {self, index, source}, out, workspaceSize, executor,
                           copy_unless_same(self, out));
}

// ---- Scatter (index/scatter_elements_v2/op_api/aclnn_scatter.cpp) ---------

/// ASCEND910B_DTYPE_SUPPORT_LIST.
constexpr DtypeList kScatterDtypes = {ACL_UINT8, ACL_INT8,   ACL_INT16,     ACL_INT32,      ACL_INT64, ACL_BOOL,
                                      ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

/// CheckDtypeValid: index's dtype only when index is non-empty.
aclnnStatus check_scatter_dtypes(const aclTensor* self, const aclTensor* index, const aclTensor* src,
                                 const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kScatterDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(src, "src", view_of(self).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    return is_empty(index) ? ACLNN_SUCCESS : check_dtype_supported(index, "index", kIndexDtypes);
}

/// CompareTensorShape: a.shape[d] <= b.shape[d] over their common dims but `skip`.
bool no_longer_than(const Dims& a, const Dims& b, int64_t skip) {
    for (size_t d = 0; d < std::min(a.size(), b.size()); ++d) {
        if (static_cast<int64_t>(d) != skip && b[d] < a[d]) return false;
    }
    return true;
}

/// CheckParams2: CheckTensorDim, CheckShape, CheckDimRange (A2: a 0-d
/// tensor counts as rank 0, so 0-d goes with 0-d only).
aclnnStatus check_scatter_shapes(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* src,
                                 const aclTensor* out) {
    const Dims& selfShape = view_of(self).shape;
    const Dims& indexShape = view_of(index).shape;
    const Dims& srcShape = view_of(src).shape;
    if (selfShape.size() != indexShape.size() || selfShape.size() != srcShape.size()) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "expect self, index, src have same number of dimensions.");
    }
    // CheckShape skips out's shape when out is 0-d.
    if (!view_of(out).shape.empty()) ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    const auto rank = static_cast<int64_t>(selfShape.size());
    // GetFinalDim: dim clamped into [0, rank - 1].
    const int64_t finalDim = dim < 0 ? std::max<int64_t>(dim + rank, 0) : std::min(dim, rank - 1);
    if (!no_longer_than(indexShape, srcShape, -1)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expect index shape %s should be smaller than src shape %s in each dimension.",
                           shape_string(indexShape).c_str(), shape_string(srcShape).c_str());
    }
    if (!no_longer_than(indexShape, selfShape, finalDim)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Apart from dimension %ld, index shape %s should be smaller than self shape %s in each "
                           "dimension.",
                           dim, shape_string(indexShape).c_str(), shape_string(selfShape).c_str());
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    const int64_t dimMax = std::max(-rank, rank - 1);
    const int64_t dimMin = std::min(-rank, rank - 1);
    if (dim > dimMax || dim < dimMin) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "dim must be in range [%ld, %ld].", dimMin, dimMax);
    }
    return ACLNN_SUCCESS;
}

/// GetReduceStr: 0 none, 1 add, 2 mul, 3..5 max/min/mean (experimental in
/// CANN, refused here), anything else none.
aclnnStatus scatter_reduce_of(int64_t reduce, ScatterReduce* mode) {
    if (reduce >= 3 && reduce <= 5) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "acl-cpu: reduce %ld (max, min, mean) is experimental in CANN and not implemented; "
                           "aclnnScatter documents 0 (none), 1 (add) and 2 (mul).",
                           reduce);
    }
    *mode = reduce == 1 ? ScatterReduce::kAdd : reduce == 2 ? ScatterReduce::kMul : ScatterReduce::kNone;
    return ACLNN_SUCCESS;
}

/// out = self, then ScatterElements of src (or value, over index's shape)
/// into out: ExecScatterBase's checks after CheckParams.  An empty index
/// only copies self (its ViewCopy fails, 561103, when out's shape or dtype
/// is not self's).  A negative index value counts from the end once (LinearIndex),
/// a value outside [0, self.size(dim)) then is skipped (the kernel's
/// `continue`).
/// inputs: {self, index, src}, or {self, index} with a value.
aclnnStatus scatter_elements(const char* api, TensorSpan inputs, const aclTensor* self, int64_t dim,
                             const aclTensor* index, const aclTensor* src, const std::optional<ElementBytes>& value,
                             int64_t reduce, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (is_empty(index)) {
        // ViewCopy copies, it does not reshape or cast.
        if (view_of(self).shape != view_of(out).shape || view_of(self).dtype != view_of(out).dtype ||
            !has_element_type(view_of(self).dtype)) {
            return param_error(ACLNN_ERR_INNER_NULLPTR, "viewCopy self failed!");
        }
        ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
        return hand_back_layout(api, copy_unless_same(self, out), {self}, out, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_scatter_shapes(self, dim, index, src, out));
    ScatterReduce mode = ScatterReduce::kNone;
    ACLCPU_RETURN_IF_ERROR(scatter_reduce_of(reduce, &mode));
    if (view_of(out).shape != view_of(self).shape) {
        return param_error(ACLNN_ERR_INNER_NULLPTR, "viewCopy output failed!");
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {index, "index"}, {src, "src"}, {out, "out"}}));
    if (is_empty(self)) return hand_back_empty_executor(inputs, {out}, workspaceSize, executor);
    IndexedCopy copy;
    copy.direction = IndexDirection::kScatterElements;
    copy.table = at_least_1d(view_of(out));
    copy.dim = view_of(self).shape.empty() ? 0 : wrapped_dim(dim, static_cast<int64_t>(view_of(self).shape.size()));
    copy.index = at_least_1d(view_of(index));
    copy.other = at_least_1d(view_of(src));
    copy.reduce = mode;
    copy.value = value;
    return hand_back_index(api, copy, IndexSlots{2, 1}, inputs, out, workspaceSize, executor,
                           copy_unless_same(self, out));
}

aclnnStatus scatter(const char* api, const aclTensor* self, int64_t dim, const aclTensor* index,
                    const aclTensor* src, int64_t reduce, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {index, "index"}, {src, "src"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_scatter_dtypes(self, index, src, out));
    return scatter_elements(api, {self, index, src}, self, dim, index, src, std::nullopt, reduce, out, workspaceSize,
                            executor);
}

/// ExecScatterValueGetWorkspaceSize: value converted to self's dtype
/// (ConvertToTensor) stands for a src of index's shape; an empty index
/// copies self before any dtype check.
aclnnStatus scatter_value(const char* api, const aclTensor* self, int64_t dim, const aclTensor* index,
                          const aclScalar* value, int64_t reduce, const aclTensor* out, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (self == nullptr || index == nullptr || value == nullptr || out == nullptr) {
        return param_error(ACLNN_ERR_PARAM_NULLPTR, "self, index, value, out cannot be nullptr!");
    }
    if (is_complex(dtype_of(value)) && !is_complex(view_of(self).dtype)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "When value is COMPLEX, the data type of self must be COMPLEX.");
    }
    if (!is_empty(index)) {
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kScatterDtypes));
        ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported(index, "index", kIndexDtypes));
    }
    // The broadcast src has index's shape: the shape checks see index for src.
    const std::optional<ElementBytes> element =
        is_empty(index) ? std::nullopt : std::optional<ElementBytes>(element_of(value, view_of(self).dtype));
    return scatter_elements(api, {self, index}, self, dim, index, index, element, reduce, out, workspaceSize,
                            executor);
}

// ---- IndexFillTensor (index/index_fill_d/op_api/aclnn_index_fill_tensor.cpp)

/// DTYPE_910B_SUPPORT_LIST.
constexpr DtypeList kIndexFillDtypes = {ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_BOOL, ACL_BF16};

/// CheckShape (nothing for an empty self): dim in [-rank, rank) ([-1, 0]
/// for a 0-d self), every index value in [-size(dim), size(dim)).
aclnnStatus check_index_fill_shape(const aclTensor* self, const aclIntArray* index, int64_t dim,
                                   const aclTensor* out) {
    if (is_empty(self)) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    const Dims& shape = view_of(self).shape;
    const auto rank = static_cast<int64_t>(shape.size());
    if ((dim != 0 && dim >= rank) || (dim == 0 && dim > rank)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Dim value error, input dim[%ld] is greater than self dim[%ld].",
                           dim, rank);
    }
    if ((dim < 0 && -dim > rank && rank > 0) || (dim < 0 && -dim > 1 && rank == 0)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Dim value error, abs(input dim[%ld]) is greater than self dim[%ld].", dim, rank);
    }
    const int64_t size = rank == 0 ? 1 : shape[wrapped_dim(dim, rank)];
    for (const int64_t value : values_of(index)) {
        if (value >= size || value < -size) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Index value[%ld] is out of range, it should be smaller than [%ld].", value, size);
        }
    }
    return ACLNN_SUCCESS;
}

/// value as CANN fills it: value->ToFloat(), then a Cast of the FLOAT fill
/// matrix to dtype (an INT32/INT64 value rounds to a float first).
ElementBytes fill_element(const aclScalar* value, aclDataType dtype) {
    const auto fill = static_cast<float>(to_double(value));
    ElementBytes bytes{};
    visit_element(dtype, [&](auto tag) {
        const auto element = cast_element<decltype(tag)>(fill);
        std::memcpy(bytes.data(), &element, sizeof(element));
    });
    return bytes;
}

/// out = self, then out's slice along dim at each index value (negative
/// ones from the end) = value.  The values are host data, so phase 1 plans
/// the map itself: a fill step per value on the layout engine.
aclnnStatus index_fill_tensor(const char* api, const aclTensor* self, int64_t dim, const aclIntArray* index,
                              const aclScalar* value, const aclTensor* out, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null(self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_not_null(index, "index"));
    ACLCPU_RETURN_IF_ERROR(check_not_null(value, "value"));
    ACLCPU_RETURN_IF_ERROR(check_not_null(out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kIndexFillDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_index_fill_shape(self, index, dim, out));
    if (is_complex(dtype_of(value))) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Type of value do not support complex type");
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    std::vector<CopyStep> steps = copy_unless_same(self, out);
    const TensorView& to = view_of(out);
    const auto rank = static_cast<int64_t>(to.shape.size());
    const size_t axis = rank == 0 ? 0 : static_cast<size_t>(wrapped_dim(dim, rank));
    const TensorView slice = rank == 0 ? to : slice_of(to, axis, 1);
    const std::vector<StepDim> dims = step_dims(slice, slice);
    const std::vector<int64_t> values = values_of(index);
    ACLCPU_RETURN_IF_ERROR(check_step_count(
        api, static_cast<int64_t>(steps.size()) + steps_needed(dims) * static_cast<int64_t>(values.size())));
    const ElementBytes element = fill_element(value, to.dtype);
    const int64_t size = rank == 0 ? 1 : to.shape[axis];
    const int64_t stride = rank == 0 ? 0 : to.strides[axis];
    for (const int64_t v : values) {
        const int64_t row = v < 0 ? v + size : v;
        append_fill(steps, dims, {to.dtype, to.offset + row * stride}, element);
    }
    return hand_back_layout(api, std::move(steps), {self}, out, workspaceSize, executor);
}

// ---- RepeatInterleave (index/repeat_interleave/op_api/aclnn_repeat_interleave.cpp)

/// ASCEND910B_DTYPE_SUPPORT_LIST.
constexpr DtypeList kRepeatDtypes = {ACL_UINT8, ACL_INT8,    ACL_INT16, ACL_INT32, ACL_INT64,
                                     ACL_BOOL,  ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

/// CheckParamsInt / CheckParamsDimInt (hasDim): dtypes, repeats >= 0, dim, rank;
/// then acl-cpu's storage guard.
aclnnStatus check_repeat_int(const aclTensor* self, int64_t repeats, const int64_t* dim, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kRepeatDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", view_of(self).dtype));
    if (repeats < 0) return param_error(ACLNN_ERR_PARAM_INVALID, "repeats %ld can not be negative.", repeats);
    if (dim != nullptr) {
        const auto rank = static_cast<int64_t>(view_of(self).shape.size());
        if (rank == 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "dimension specified as %ld but tensor has no dimensions.",
                               *dim);
        }
        if (*dim < -rank || *dim > rank - 1) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Dimension out of range (expected to be in range of [%ld, %ld], but got %ld).", -rank,
                               rank - 1, *dim);
        }
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    // Before the shortcuts that skip the kernel, as everywhere else in acl-cpu.
    return check_view_in_storage({{self, "self"}, {out, "out"}});
}

/// view with its dim `at` split into `sizes` (row-major within it).
TensorView split_dim(const TensorView& view, size_t at, const Dims& sizes) {
    TensorView result = view;
    result.shape.resize(0);
    result.strides.resize(0);
    for (size_t d = 0; d < view.shape.size(); ++d) {
        if (d != at) {
            result.shape.push_back(view.shape[d]);
            result.strides.push_back(view.strides[d]);
            continue;
        }
        int64_t stride = view.strides[d];
        for (const int64_t size : sizes) stride *= size;
        for (const int64_t size : sizes) {
            stride /= size;
            result.shape.push_back(size);
            result.strides.push_back(stride);
        }
    }
    return result;
}

/// The repeat as a broadcast copy: out, its dim `at` split as `split`
/// (self's elements r times each), takes self with a stride-0 dim of r
/// inserted before `insertAt`.  CheckRepeatresOutShape first: out must be
/// `expected`; acl-cpu also needs outputSize = size x repeats (CANN's doc
/// requires it, its kernel does not check).
aclnnStatus hand_back_repeat(const char* api, const aclTensor* self, int64_t repeats, int64_t outputSize,
                             int64_t repeated, const Dims& expected, size_t at, Dims split, size_t insertAt,
                             const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (view_of(out).shape != expected) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected tensor for repeatRes to have same size as tensor for out, but %s does not equal "
                           "%s.",
                           shape_string(expected).c_str(), shape_string(view_of(out).shape).c_str());
    }
    int64_t total = 0;
    if (repeats != 1 && (__builtin_mul_overflow(repeated, repeats, &total) || outputSize != total)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "acl-cpu: outputSize %ld should be the size repeated (%ld) times repeats (%ld).",
                           outputSize, repeated, repeats);
    }
    const TensorView source = with_broadcast_dim(view_of(self), insertAt, repeats);
    const TensorView destination = split_dim(view_of(out), at, split);
    std::vector<CopyStep> steps;
    append_copy(steps, 0, step_dims(source, destination), {source.dtype, source.offset},
                {destination.dtype, destination.offset});
    return hand_back_layout(api, std::move(steps), {self}, out, workspaceSize, executor);
}

/// aclnnRepeatInterleaveInt: self flattened, each element repeats times.
aclnnStatus repeat_interleave_int(const aclTensor* self, int64_t repeats, int64_t outputSize, const aclTensor* out,
                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_repeat_int(self, repeats, nullptr, out));
    if (is_empty(self) || is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    const Dims& shape = view_of(self).shape;
    const int64_t numel = view_of(self).numel();
    // repeats 1 copies the flattened self as it is (outputSize unread).
    const Dims expected{repeats == 1 ? numel : outputSize};
    Dims split = shape;
    split.push_back(repeats);
    return hand_back_repeat("aclnnRepeatInterleaveInt", self, repeats, outputSize, numel, expected, 0,
                            std::move(split), shape.size(), out, workspaceSize, executor);
}

/// aclnnRepeatInterleaveIntWithDim: each slice along dim repeats times.
/// An outputSize of 0 returns before anything (CANN's "self non-empty but
/// repeats 0" shortcut), leaving out as it was.
aclnnStatus repeat_interleave_int_with_dim(const aclTensor* self, int64_t repeats, int64_t dim, int64_t outputSize,
                                           const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_repeat_int(self, repeats, &dim, out));
    if (is_empty(self) || outputSize == 0) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    const Dims& shape = view_of(self).shape;
    const auto axis = static_cast<size_t>(wrapped_dim(dim, static_cast<int64_t>(shape.size())));
    Dims expected = shape;
    if (repeats != 1) expected[axis] = outputSize;
    return hand_back_repeat("aclnnRepeatInterleaveIntWithDim", self, repeats, outputSize, shape[axis], expected,
                            axis, Dims{shape[axis], repeats}, axis + 1, out, workspaceSize, executor);
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

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                         const aclTensor* src, int64_t reduce, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    return scatter("aclnnScatter", self, dim, index, src, reduce, out, workspaceSize, executor);
}

aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                const aclTensor* src, int64_t reduce, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    return scatter("aclnnInplaceScatter", selfRef, dim, index, src, reduce, selfRef, workspaceSize, executor);
}

aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                              const aclScalar* value, int64_t reduce, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    return scatter_value("aclnnScatterValue", self, dim, index, value, reduce, out, workspaceSize, executor);
}

aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                     const aclScalar* value, int64_t reduce, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    return scatter_value("aclnnInplaceScatterValue", selfRef, dim, index, value, reduce, selfRef, workspaceSize,
                         executor);
}

aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclIntArray* index,
                                                 const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    return index_fill_tensor("aclnnIndexFillTensor", self, dim, index, value, out, workspaceSize, executor);
}

aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclIntArray* index,
                                                        const aclScalar* value, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    return index_fill_tensor("aclnnInplaceIndexFillTensor", selfRef, dim, index, value, selfRef, workspaceSize,
                             executor);
}

aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor* self, int64_t repeats, int64_t outputSize,
                                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return repeat_interleave_int(self, repeats, outputSize, out, workspaceSize, executor);
}

aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor* self, int64_t repeats, int64_t dim,
                                                            int64_t outputSize, aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    return repeat_interleave_int_with_dim(self, repeats, dim, outputSize, out, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnScatter)
ACLCPU_DEFINE_PHASE2(aclnnInplaceScatter)
ACLCPU_DEFINE_PHASE2(aclnnScatterValue)
ACLCPU_DEFINE_PHASE2(aclnnInplaceScatterValue)
ACLCPU_DEFINE_PHASE2(aclnnIndexFillTensor)
ACLCPU_DEFINE_PHASE2(aclnnInplaceIndexFillTensor)
ACLCPU_DEFINE_PHASE2(aclnnRepeatInterleaveInt)
ACLCPU_DEFINE_PHASE2(aclnnRepeatInterleaveIntWithDim)
ACLCPU_DEFINE_PHASE2(aclnnIndexCopy)
ACLCPU_DEFINE_PHASE2(aclnnInplaceIndexCopy)
ACLCPU_DEFINE_PHASE2(aclnnIndexSelect)
ACLCPU_DEFINE_PHASE2(aclnnGatherV2)
ACLCPU_DEFINE_PHASE2(aclnnEmbedding)
