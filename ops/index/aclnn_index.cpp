// acl-cpu: the index family -- aclnnIndexSelect, aclnnGatherV2 and
// aclnnEmbedding, each its checks in the order of its A2 op_api code in
// hicann/ops-nn (index/gather_v2/op_api/aclnn_index_select.cpp,
// aclnn_gather_v2.cpp, index/embedding/op_api/aclnn_embedding.cpp) and one
// gather of the index engine.
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
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

bool is_private_format(aclFormat format) {
    switch (format) {
        case ACL_FORMAT_ND: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_HWCN:
        case ACL_FORMAT_NDHWC: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NCL:
            return false;
        default:
            return true;
    }
}

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
aclnnStatus check_public_formats(NamedArgs tensors) {
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
    ACLCPU_RETURN_IF_ERROR(check_public_formats({{self, "self"}, {index, "index"}, {out, "out"}}));
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

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnIndexSelect)
ACLCPU_DEFINE_PHASE2(aclnnGatherV2)
ACLCPU_DEFINE_PHASE2(aclnnEmbedding)
