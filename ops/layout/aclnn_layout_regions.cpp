// acl-cpu: the layout family's operators that copy regions of a view --
// aclnnRepeat, aclnnCat, aclnnSlice, aclnnConstantPadNd, aclnnReflectionPad1d,
// aclnnRoll, aclnnTril/Triu and their in-place forms.
//
// Each is its checks, in the order of its A2 op_api code in hicann/ops-math
// (math/tile, conversion/concat_d, conversion/slice, conversion/pad_v3,
// conversion/mirror_pad, conversion/roll, conversion/tril, conversion/triu),
// and its steps: the regions of out, each copied from a region of an input
// (through strides that may be zero or negative) or filled with one element.
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"

#include <algorithm>
#include <vector>

#include "common/layout.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"

namespace aclcpu::ops {
namespace {

/// The origin of a view: its dtype and offset.
StepOrigin origin_of(const TensorView& view) { return {view.dtype, view.offset}; }

/// CANN's early success when there is nothing to compute: an executor doing
/// nothing -- once the views lie in their storage (acl-cpu's guard: no
/// executor holds a tensor reaching outside its memory).
aclnnStatus hand_back_nothing(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
}

/// OP_CHECK_DTYPE_NOT_MATCH: out must have self's dtype.
aclnnStatus check_out_dtype(const aclTensor* self, const aclTensor* out) {
    return check_dtype_is(out, "out", view_of(self).dtype);
}

/// Formats of two tensors must be equal (Tril, Triu, ReflectionPad1d).
aclnnStatus check_same_format(const aclTensor* self, const aclTensor* out) {
    if (format_of(self) == format_of(out)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "self format is different with out format, self [%s], out [%s].",
                       format_name(format_of(self)), format_name(format_of(out)));
}

// ---- Repeat (math/tile/op_api/aclnn_repeat.cpp) ----------------------------

/// DTYPE_SUPPORT_910B310P_LIST.
constexpr DtypeList kRepeatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128,
                                     ACL_UINT8, ACL_INT8,    ACL_INT16,  ACL_INT32,     ACL_INT64,
                                     ACL_BOOL,  ACL_BF16,    ACL_UINT32, ACL_UINT64,    ACL_UINT16};

/// CheckRepeatsSize, CheckRepeatsValue, CheckTensorDimSize.
aclnnStatus check_repeats(const aclTensor* self, const std::vector<int64_t>& repeats) {
    const size_t rank = view_of(self).shape.size();
    if (rank > repeats.size()) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Number of dimensions of repeat dims can not be smaller than number of dimensions of input "
                           "tensor, self %zu, repeats %zu.",
                           rank, repeats.size());
    }
    for (size_t i = 0; i < repeats.size(); ++i) {
        if (repeats[i] < 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "repeats expected %zuth value > 0, but got %ld", i + 1,
                               repeats[i]);
        }
    }
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    if (repeats.size() > kMaxDims) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "repeats size should not be larger than 8. self %zu, repeats %zu",
                           rank, repeats.size());
    }
    return ACLNN_SUCCESS;
}

/// out[k * s + j] = self[j] along each dim (self's shape aligned to the
/// repeats' count with leading 1s): per dim a repeat dim walking self with
/// stride 0 and out with stride s * outStride, then self's own dim.
aclnnStatus repeat(const aclTensor* self, const aclIntArray* repeatsArray, const aclTensor* out,
                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {repeatsArray, "repeats"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kRepeatDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    const std::vector<int64_t>& repeats = values_of(repeatsArray);
    ACLCPU_RETURN_IF_ERROR(check_repeats(self, repeats));
    const bool anyZero = std::find(repeats.begin(), repeats.end(), 0) != repeats.end();
    if (is_empty(self) || is_empty(out) || anyZero) return hand_back_nothing(self, out, workspaceSize, executor);
    const TensorView& source = view_of(self);
    const TensorView& target = view_of(out);
    const size_t lead = repeats.size() - source.shape.size();
    const auto sizeAt = [&](size_t d) { return d < lead ? 1 : source.shape[d - lead]; };
    Dims shape;
    shape.resize(repeats.size());
    for (size_t d = 0; d < repeats.size(); ++d) {
        int64_t repeated = 0;
        shape[d] = __builtin_mul_overflow(repeats[d], sizeAt(d), &repeated) ? -1 : repeated;
    }
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", shape));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    // out's view lies in its storage: its strides times its sizes fit.
    std::vector<StepDim> dims;
    for (size_t d = 0; d < repeats.size(); ++d) {
        const int64_t stride = d < lead ? 0 : source.strides[d - lead];
        dims.push_back({repeats[d], 0, sizeAt(d) * target.strides[d]});
        dims.push_back({sizeAt(d), stride, target.strides[d]});
    }
    ACLCPU_RETURN_IF_ERROR(check_step_count("aclnnRepeat", steps_needed(dims)));
    std::vector<CopyStep> steps;
    append_copy(steps, 0, dims, origin_of(source), origin_of(target));
    return hand_back_layout("aclnnRepeat", std::move(steps), {self}, out, workspaceSize, executor);
}

// ---- Cat (conversion/concat_d/op_api/aclnn_cat.cpp) -----------------------

/// ASCEND910B_DTYPE_SUPPORT_LIST.
constexpr DtypeList kCatDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,     ACL_FLOAT16, ACL_INT16, ACL_INT8,
                                  ACL_UINT8, ACL_DOUBLE, ACL_COMPLEX64, ACL_BF16,    ACL_BOOL};

/// EraseDim1EmptyTensor: CANN drops the 1-D tensors of shape [0] first.
std::vector<const aclTensor*> without_1d_empties(const std::vector<const aclTensor*>& tensors) {
    std::vector<const aclTensor*> kept;
    for (const aclTensor* tensor : tensors) {
        if (tensor != nullptr && view_of(tensor).shape == Dims{0}) continue;
        kept.push_back(tensor);
    }
    return kept;
}

aclnnStatus check_cat_not_null(const std::vector<const aclTensor*>& tensors, const aclTensor* out) {
    for (const aclTensor* tensor : tensors) ACLCPU_RETURN_IF_ERROR(check_not_null(tensor, "tensors"));
    return check_not_null(out, "out");
}

aclnnStatus check_cat_dtypes(const std::vector<const aclTensor*>& tensors, const aclTensor* out) {
    for (size_t i = 0; i < tensors.size(); ++i) {
        const aclDataType dtype = view_of(tensors[i]).dtype;
        if (!contains(kCatDtypes, dtype)) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "tensor %zu not implemented for %s, should be in dtype support list %s.", i,
                               dtype_name(dtype), dtype_list_string(kCatDtypes).c_str());
        }
    }
    return check_dtype_supported(out, "out", kCatDtypes);
}

/// CheckPromoteType: the inputs' dtypes promote to one (not COMPLEX128)
/// that casts to out's.
aclnnStatus check_cat_promotion(const std::vector<const aclTensor*>& tensors, const aclTensor* out) {
    aclDataType promoted = view_of(tensors[0]).dtype;
    for (size_t i = 1; i < tensors.size(); ++i) {
        const aclDataType dtype = view_of(tensors[i]).dtype;
        promoted = promote_types(dtype, promoted);
        if (promoted == ACL_DT_UNDEFINED) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "tensor %zu dtype %s and dtype %s can not promote dtype.", i,
                               dtype_name(dtype), dtype_name(promoted));
        }
        if (promoted == ACL_COMPLEX128) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "tensor dtype has been promoted to %s, which has not been implemented yet.",
                               dtype_name(promoted));
        }
    }
    return check_can_cast(promoted, view_of(out).dtype);
}

aclnnStatus check_cat_formats(const std::vector<const aclTensor*>& tensors, const aclTensor* out) {
    const aclFormat format = format_of(tensors[0]);
    if (is_private_format(format)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW.");
    }
    for (size_t i = 1; i < tensors.size(); ++i) {
        if (format_of(tensors[i]) != format) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Format of tensors should be equal, tensor %zu [%s], tensor 0 [%s].", i,
                               format_name(format_of(tensors[i])), format_name(format));
        }
    }
    if (format_of(out) != format) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of input and output should be equal, tensor 0 [%s] out [%s].",
                           format_name(format), format_name(format_of(out)));
    }
    return ACLNN_SUCCESS;
}

/// CheckShape: tensor 0 of at most 8 dims, dim in [-rank, rank), every
/// tensor of its rank and of its sizes but along dim.  *wrapped gets dim.
aclnnStatus check_cat_shapes(const std::vector<const aclTensor*>& tensors, int64_t dim, int64_t* wrapped) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim(tensors[0], "tensors"));
    const Dims& first = view_of(tensors[0]).shape;
    const auto rank = static_cast<int64_t>(first.size());
    *wrapped = dim < 0 ? dim + rank : dim;
    if (*wrapped < 0 || *wrapped >= rank) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "dimnum %ld exceed the dim range of the tensor %ld.", dim, rank);
    }
    for (size_t i = 1; i < tensors.size(); ++i) {
        const Dims& shape = view_of(tensors[i]).shape;
        if (shape.size() != first.size()) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "dimnum of tensor %zu is [%zu], should be equal to tensor 0 [%ld].",
                               i, shape.size(), rank);
        }
        for (int64_t j = 0; j < rank; ++j) {
            if (j != *wrapped && shape[j] != first[j]) {
                return param_error(ACLNN_ERR_PARAM_INVALID,
                                   "dim %ld of tensor %zu is [%ld], should be equal to tensor 0 [%ld].", j, i,
                                   shape[j], first[j]);
            }
        }
    }
    return ACLNN_SUCCESS;
}

/// CANN's executor for a list with nothing to concatenate: out is not
/// looked at (it may even be null).
aclnnStatus hand_back_without_inputs(const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (out == nullptr) return hand_back_empty_executor({}, {}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(out, "out"));
    return hand_back_empty_executor({}, {out}, workspaceSize, executor);
}

/// A step per non-empty input into out's slice along dim, each cast from
/// its dtype to out's.
aclnnStatus cat(const aclTensorList* list, int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    if (list == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a proper TensorList but got null.");
    const std::vector<const aclTensor*> tensors = without_1d_empties(tensors_of(list));
    if (tensors.empty()) return hand_back_without_inputs(out, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_cat_not_null(tensors, out));
    ACLCPU_RETURN_IF_ERROR(check_cat_dtypes(tensors, out));
    ACLCPU_RETURN_IF_ERROR(check_cat_promotion(tensors, out));
    ACLCPU_RETURN_IF_ERROR(check_cat_formats(tensors, out));
    int64_t axis = 0;
    ACLCPU_RETURN_IF_ERROR(check_cat_shapes(tensors, dim, &axis));
    for (const aclTensor* tensor : tensors) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(tensor, "tensors"));
    // SplitToConcat concatenates the non-empty ones; none left: nothing to do.
    std::vector<const aclTensor*> inputs;
    for (const aclTensor* tensor : tensors) {
        if (!is_empty(tensor)) inputs.push_back(tensor);
    }
    if (inputs.empty()) return hand_back_without_inputs(out, workspaceSize, executor);
    Dims shape = view_of(inputs[0]).shape;
    shape[axis] = 0;
    for (const aclTensor* tensor : inputs) shape[axis] += view_of(tensor).shape[axis];
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", shape));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(out, "out"));
    const TensorView& target = view_of(out);
    std::vector<CopyStep> steps;
    int64_t at = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const TensorView& source = view_of(inputs[i]);
        TensorView slice = target;
        slice.shape = source.shape;
        slice.offset += at * target.strides[axis];
        append_copy(steps, static_cast<int>(i), step_dims(source, slice), origin_of(source), origin_of(slice));
        at += source.shape[axis];
    }
    return hand_back_layout("aclnnCat", std::move(steps), inputs, out, workspaceSize, executor);
}

// ---- Slice (conversion/slice/op_api/aclnn_slice.cpp) ----------------------

constexpr DtypeList kSliceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT8,
                                    ACL_INT32, ACL_UINT8,   ACL_BOOL,  ACL_BF16};

/// start and end as CANN clamps them (CalculateValuesSliceUpper/Lower):
/// negative ones count from the end, then both inside [0, size], end >= start.
void clamp_slice(int64_t size, int64_t* start, int64_t* end) {
    if (*start < 0) *start += size;
    if (*end < 0) *end += size;
    *start = std::clamp<int64_t>(*start, 0, size);
    *end = *end < *start ? *start : std::min(*end, size);
}

/// CheckShape: rank in [1, 8], dim in range, step > 0, out's shape the slice's.
/// *view gets self's view of the slice.
aclnnStatus check_slice(const aclTensor* self, int64_t dim, int64_t start, int64_t end, int64_t step,
                        const aclTensor* out, TensorView* view) {
    const TensorView& source = view_of(self);
    const auto rank = static_cast<int64_t>(source.shape.size());
    if (rank > static_cast<int64_t>(kMaxDims)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected aclnnSlice self len %ld to not be greater than 8 but check failed.", rank);
    }
    if (rank <= 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected aclnnSlice self len %ld to not be less than one but check failed.", rank);
    }
    if (dim < -rank || dim > rank - 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected aclnnSlice dim value %ld to be in range [%ld, %ld] but check failed.", dim, -rank,
                           rank - 1);
    }
    if (step <= 0) return param_error(ACLNN_ERR_PARAM_INVALID, "aclnnSlice step must be positive.");
    const auto axis = static_cast<size_t>(dim < 0 ? dim + rank : dim);
    clamp_slice(source.shape[axis], &start, &end);
    *view = source;
    view->shape[axis] = end == start ? 0 : 1 + (end - start - 1) / step;
    view->offset += start * source.strides[axis];
    if (view->shape[axis] > 1) view->strides[axis] *= step;
    return check_shape_is(out, "out", view->shape);
}

aclnnStatus slice(const aclTensor* self, int64_t dim, int64_t start, int64_t end, int64_t step, const aclTensor* out,
                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_out_dtype(self, out));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSliceDtypes));
    TensorView view;
    ACLCPU_RETURN_IF_ERROR(check_slice(self, dim, start, end, step, out, &view));
    if (is_empty(self) || is_empty(out)) return hand_back_nothing(self, out, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    std::vector<CopyStep> steps;
    append_copy(steps, 0, step_dims(view, view_of(out)), origin_of(view), origin_of(view_of(out)));
    return hand_back_layout("aclnnSlice", std::move(steps), {self}, out, workspaceSize, executor);
}

// ---- ConstantPadNd (conversion/pad_v3/op_api/aclnn_constant_pad_nd.cpp) ---

/// DTYPE_SUPPORT_910B_LIST.
constexpr DtypeList kPadDtypes = {ACL_FLOAT,  ACL_INT32,  ACL_FLOAT16, ACL_INT8,      ACL_DOUBLE,
                                  ACL_INT16,  ACL_INT64,  ACL_UINT64,  ACL_UINT32,    ACL_UINT16,
                                  ACL_UINT8,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

/// Checkformat: a non-ND self must have out's format.
aclnnStatus check_pad_format(const aclTensor* self, const aclTensor* out) {
    if (format_of(self) == format_of(out) || format_of(self) == ACL_FORMAT_ND) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "If Input tensor's format not ND, Input tensor's format[%s] should be same with output's "
                       "format[%s].",
                       format_name(format_of(self)), format_name(format_of(out)));
}

/// The pads of each dim, outer first (CANN's GetRealPad): pad holds pairs
/// from the last dim backwards; dims it does not reach get (0, 0).
std::vector<std::pair<int64_t, int64_t>> pads_per_dim(size_t rank, const std::vector<int64_t>& pad) {
    std::vector<std::pair<int64_t, int64_t>> pads(rank, {0, 0});
    for (size_t i = 0; 2 * i + 1 < pad.size(); ++i) pads[rank - 1 - i] = {pad[2 * i], pad[2 * i + 1]};
    return pads;
}

/// CheckShape of ConstantPadNd.
aclnnStatus check_pad_shape(const aclTensor* self, const std::vector<int64_t>& pad, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    const Dims& in = view_of(self).shape;
    const Dims& result = view_of(out).shape;
    if (in.size() != result.size()) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Dim of self[%zu] and out[%zu] can't be different.", in.size(),
                           result.size());
    }
    if (pad.size() % 2 != 0) return param_error(ACLNN_ERR_PARAM_INVALID, "Pad len must be divisible by 2");
    if (pad.size() / 2 > in.size()) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected aclnnConstantPadNd pad len [%zu] to not be greater than twice of [%zu] but check "
                           "failed.",
                           pad.size(), in.size());
    }
    bool hasZero = false;
    bool positive = false;
    const auto pads = pads_per_dim(in.size(), pad);
    for (size_t i = 0; i < in.size(); ++i) {
        const size_t d = in.size() - 1 - i;
        const auto [begin, end] = pads[d];
        // In 128 bits: the pads are any int64 a caller passes.
        const __int128 sum = static_cast<__int128>(begin) + end;
        if (in[d] + std::min<__int128>({begin, end, sum}) < 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "The input size %ld plus padding %ld and %ld resulted in a negative output size, which "
                               "is invalid. Check dimension %zu of your input.",
                               in[d], begin, end, d);
        }
        positive = positive || begin > 0 || end > 0;
        const __int128 size = in[d] + sum;
        if (size != result[d]) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "output shape at dim %zu check failed,The output shape you provided is %ld at dim %zu, "
                               "and the expected one is %ld at dim %zu based on the infershape.",
                               d, result[d], d, static_cast<int64_t>(size), d);
        }
        hasZero = hasZero || (i < pad.size() / 2 && size == 0);
    }
    if (hasZero && positive) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The output size %s with zero element is invalid, please check your input.",
                           shape_string(result).c_str());
    }
    return ACLNN_SUCCESS;
}

/// Appends fill steps for every element of out outside the box [first[d],
/// first[d] + length[d]) of each dim: per dim, the slabs before and after
/// the box's range there, inside the box's ranges of the outer dims.
void fill_outside_box(std::vector<CopyStep>& steps, const TensorView& out, const std::vector<int64_t>& first,
                      const std::vector<int64_t>& length,
                      const ElementBytes& value) {
    const size_t rank = out.shape.size();
    for (size_t d = 0; d < rank; ++d) {
        for (const auto& [from, to] : {std::pair<int64_t, int64_t>{0, first[d]}, {first[d] + length[d], out.shape[d]}}) {
            std::vector<StepDim> dims;
            int64_t offset = out.offset;
            for (size_t e = 0; e < rank; ++e) {
                const int64_t begin = e < d ? first[e] : e == d ? from : 0;
                const int64_t size = e < d ? length[e] : e == d ? to - from : out.shape[e];
                offset += begin * out.strides[e];
                dims.push_back({size, 0, out.strides[e]});
            }
            append_fill(steps, dims, {out.dtype, offset}, value);
        }
    }
}

/// out = self placed at the pads' offsets (a negative pad crops self), the
/// rest filled with value cast to out's dtype.
aclnnStatus constant_pad_nd(const aclTensor* self, const aclIntArray* padArray, const aclScalar* value,
                            const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {padArray, "pad"}, {value, "value"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kPadDtypes));
    ACLCPU_RETURN_IF_ERROR(check_pad_format(self, out));
    const std::vector<int64_t>& pad = values_of(padArray);
    ACLCPU_RETURN_IF_ERROR(check_pad_shape(self, pad, out));
    if (is_empty(out)) return hand_back_nothing(self, out, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    const TensorView& source = view_of(self);
    const TensorView& target = view_of(out);
    const auto pads = pads_per_dim(source.shape.size(), pad);
    // The box of out that self covers, and where it starts in self.
    std::vector<int64_t> first;
    std::vector<int64_t> length;
    TensorView covered = source;
    TensorView box = target;
    for (size_t d = 0; d < source.shape.size(); ++d) {
        const auto [begin, end] = pads[d];
        first.push_back(std::max<int64_t>(begin, 0));
        length.push_back(std::max<int64_t>(source.shape[d] + std::min<int64_t>(begin, 0) + std::min<int64_t>(end, 0), 0));
        covered.offset += std::max<int64_t>(-begin, 0) * source.strides[d];
        box.offset += first[d] * target.strides[d];
        box.shape[d] = length[d];
    }
    std::vector<CopyStep> steps;
    append_copy(steps, 0, step_dims(covered, box), origin_of(covered), origin_of(box));
    fill_outside_box(steps, target, first, length, element_of(value, target.dtype));
    return hand_back_layout("aclnnConstantPadNd", std::move(steps), {self}, out, workspaceSize, executor);
}


// ---- ReflectionPad1d (conversion/mirror_pad/op_api/aclnn_reflection_pad1d.cpp)

/// ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST.
constexpr DtypeList kReflectionDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16,     ACL_DOUBLE,
                                         ACL_INT8,  ACL_UINT8, ACL_BOOL,  ACL_BF16,    ACL_COMPLEX64, ACL_COMPLEX128};

/// CheckShape of ReflectionPad1d, then out's whole shape (CANN's
/// CheckShapeAndScalarSame after the pad).
aclnnStatus check_reflection_shape(const aclTensor* self, const std::vector<int64_t>& padding, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_min_dim(self, "self", 2));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self", 3));
    const Dims& in = view_of(self).shape;
    if (in.size() != view_of(out).shape.size()) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "self, out dim should be same.");
    }
    if (padding.size() != 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "padding length should be 2, but got %zu.", padding.size());
    }
    const int64_t width = in[in.size() - 1];
    if (padding[0] >= width || padding[1] >= width) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "padding size should be less than the corresponding self dimention.");
    }
    const Dims& result = view_of(out).shape;
    // In 128 bits: a pad may be any negative int64.
    if (result[result.size() - 1] != static_cast<__int128>(width) + padding[0] + padding[1]) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "wrong out shape.");
    }
    return ACLNN_SUCCESS;
}

/// The empty-tensor rule: only the batch dim of a 3-D self may be 0.
aclnnStatus check_reflection_empty(const aclTensor* self) {
    const Dims& in = view_of(self).shape;
    if (in.size() == 3 && in[1] != 0 && in[2] != 0) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "Expected 2D or 3D tensor with possibly 0 batch size and other non-zero dimentions for input.");
}

/// out[..., j] = self[..., reflect(j - left)], reflect mirroring at both
/// edges without repeating them: the left pad read backwards from column
/// left, the middle as it is, the right pad backwards from column width - 2.
/// A negative pad crops.
aclnnStatus reflection_pad1d(const aclTensor* self, const aclIntArray* paddingArray, const aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {paddingArray, "padding"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kReflectionDtypes));
    ACLCPU_RETURN_IF_ERROR(check_out_dtype(self, out));
    ACLCPU_RETURN_IF_ERROR(check_same_format(self, out));
    const std::vector<int64_t>& padding = values_of(paddingArray);
    ACLCPU_RETURN_IF_ERROR(check_reflection_shape(self, padding, out));
    if (is_empty(self) || is_empty(out)) {
        ACLCPU_RETURN_IF_ERROR(check_reflection_empty(self));
        return hand_back_nothing(self, out, workspaceSize, executor);
    }
    const TensorView& source = view_of(self);
    const TensorView& target = view_of(out);
    Dims shape = source.shape;
    shape[shape.size() - 1] = target.shape[target.shape.size() - 1];
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", shape));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    const int64_t width = source.shape[source.shape.size() - 1];
    const int64_t left = padding[0];
    const int64_t right = padding[1];
    const int64_t column = source.strides[source.strides.size() - 1];
    const int64_t outColumn = target.strides[target.strides.size() - 1];
    std::vector<CopyStep> steps;
    const int64_t outWidth = target.shape[target.shape.size() - 1];
    // Columns [outFirst, outFirst + count) of out from self's column
    // sourceFirst on, walking direction (1 or -1); what a negative pad
    // moves outside out's columns is cropped.
    const auto columns = [&](int64_t outFirst, int64_t count, int64_t sourceFirst, int64_t direction) {
        const int64_t cropped = std::max<int64_t>(-outFirst, 0);
        outFirst += cropped;
        sourceFirst += cropped * direction;
        count = std::min(count - cropped, outWidth - outFirst);
        if (count <= 0) return;
        std::vector<StepDim> dims = step_dims(source, target);
        dims[dims.size() - 1] = {count, direction * column, outColumn};
        append_copy(steps, 0, dims, {source.dtype, source.offset + sourceFirst * column},
                    {target.dtype, target.offset + outFirst * outColumn});
    };
    columns(0, left, left, -1);
    const int64_t skipped = std::max<int64_t>(-left, 0);
    columns(std::max<int64_t>(left, 0), width - skipped - std::max<int64_t>(-right, 0), skipped, 1);
    columns(left + width, right, width - 2, -1);
    return hand_back_layout("aclnnReflectionPad1d", std::move(steps), {self}, out, workspaceSize, executor);
}

// ---- Roll (conversion/roll/op_api/aclnn_roll.cpp) -------------------------

constexpr DtypeList kRollDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_INT32,
                                   ACL_UINT32, ACL_BOOL,   ACL_INT64, ACL_BF16, ACL_INT16};

/// CheckArraySize: one shift per dim, or one shift and no dim.
aclnnStatus check_roll_sizes(const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims) {
    if (shifts.size() != dims.size() && !dims.empty()) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The size of shifts and dims should be the same when the size of dims is not 0.");
    }
    if (dims.empty() && shifts.size() != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The size of shifts must be 1 if the size of dims is 0.");
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_roll_dims_range(size_t rank, const std::vector<int64_t>& dims) {
    const auto n = static_cast<int64_t>(rank);
    const int64_t high = std::max(-n, n - 1);
    const int64_t low = std::min(-n, n - 1);
    for (int64_t dim : dims) {
        if (dim > high || dim < low) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "The values of dims should be in range [%ld, %ld].", low,
                               high);
        }
    }
    return ACLNN_SUCCESS;
}

/// A run along one dim: out's indices [outFirst, outFirst + length) read
/// from the input's [sourceFirst, ...).
struct Segment {
    int64_t outFirst;
    int64_t sourceFirst;
    int64_t length;
};
using Box = std::vector<Segment>;

/// A roll of n elements by shift (in [0, n)): the two runs it moves.
std::vector<Segment> rolled_runs(int64_t n, int64_t shift) {
    std::vector<Segment> runs = {{shift, 0, n - shift}};
    if (shift != 0) runs.push_back({0, n - shift, shift});
    return runs;
}

/// The boxes of a roll of dims [0, k] of shape, flattened, by shift (in
/// [0, product of those dims)): along dim k the runs of a roll by shift's
/// remainder, each with the outer dims rolled by its quotient (one more for
/// the run that wrapped).
std::vector<Box> flat_roll_boxes(const Dims& shape, int k, int64_t shift) {
    if (k < 0) return {Box{}};
    const int64_t width = shape[static_cast<size_t>(k)];
    int64_t outer = 1;
    for (int d = 0; d < k; ++d) outer *= shape[static_cast<size_t>(d)];
    const int64_t quotient = shift / width;
    std::vector<Box> boxes;
    for (const Segment& run : rolled_runs(width, shift % width)) {
        const int64_t carry = run.outFirst == 0 && run.sourceFirst != 0 ? 1 : 0;
        for (Box box : flat_roll_boxes(shape, k - 1, (quotient + carry) % outer)) {
            box.push_back(run);
            boxes.push_back(std::move(box));
        }
    }
    return boxes;
}

/// The boxes of a roll of each dim by its shift (0: not rolled): the
/// product of each dim's runs.
std::vector<Box> per_dim_roll_boxes(const Dims& shape, const std::vector<int64_t>& shifts) {
    std::vector<Box> boxes = {Box{}};
    for (size_t d = 0; d < shape.size(); ++d) {
        std::vector<Box> grown;
        for (const Segment& run : rolled_runs(shape[d], shifts[d])) {
            for (Box box : boxes) {
                box.push_back(run);
                grown.push_back(std::move(box));
            }
        }
        boxes = std::move(grown);
    }
    return boxes;
}

/// A shift as a roll of n elements does it: in [0, n).
int64_t wrapped_shift(int64_t shift, int64_t n) { return (shift % n + n) % n; }

/// out = x rolled: along each of dims by its shift (a dim named twice rolls
/// by the sum), or, with no dims, over the flattened tensor by shifts[0].
aclnnStatus roll(const aclTensor* x, const aclIntArray* shiftsArray, const aclIntArray* dimsArray, const aclTensor* out,
                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{x, "x"}, {shiftsArray, "shifts"}, {dimsArray, "dims"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{x, "x"}, {out, "out"}}, kRollDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(x, "x", view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(x, "x", out, "out"));
    const std::vector<int64_t>& shifts = values_of(shiftsArray);
    const std::vector<int64_t>& dims = values_of(dimsArray);
    ACLCPU_RETURN_IF_ERROR(check_roll_sizes(shifts, dims));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(x, "x"));
    if (is_empty(x)) return hand_back_nothing(x, out, workspaceSize, executor);
    const TensorView& source = view_of(x);
    const TensorView& target = view_of(out);
    const Dims& shape = source.shape;
    if (shape.empty() && (!dims.empty() || shifts.size() != 1)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "When tensor x has no dimensions, shifts should be size 1, dims should be size 0.");
    }
    ACLCPU_RETURN_IF_ERROR(check_roll_dims_range(shape.size(), dims));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{x, "x"}, {out, "out"}}));
    std::vector<Box> boxes;
    if (dims.empty()) {
        boxes = flat_roll_boxes(shape, static_cast<int>(shape.size()) - 1, wrapped_shift(shifts[0], source.numel()));
    } else {
        std::vector<int64_t> perDim(shape.size(), 0);
        for (size_t i = 0; i < dims.size(); ++i) {
            const auto d = static_cast<size_t>(dims[i] < 0 ? dims[i] + static_cast<int64_t>(shape.size()) : dims[i]);
            perDim[d] = wrapped_shift(perDim[d] + wrapped_shift(shifts[i], shape[d]), shape[d]);
        }
        boxes = per_dim_roll_boxes(shape, perDim);
    }
    std::vector<CopyStep> steps;
    for (const Box& box : boxes) {
        std::vector<StepDim> stepDims;
        StepOrigin from = origin_of(source);
        StepOrigin to = origin_of(target);
        for (size_t d = 0; d < box.size(); ++d) {
            stepDims.push_back({box[d].length, source.strides[d], target.strides[d]});
            from.offset += box[d].sourceFirst * source.strides[d];
            to.offset += box[d].outFirst * target.strides[d];
        }
        append_copy(steps, 0, stepDims, from, to);
    }
    return hand_back_layout("aclnnRoll", std::move(steps), {x}, out, workspaceSize, executor);
}

// ---- Tril, Triu (conversion/tril, conversion/triu op_api) -----------------

/// DTYPE_SUPPORT_LIST_910B of both.
constexpr DtypeList kTriangleDtypes = {ACL_UINT8, ACL_INT8,   ACL_INT16,  ACL_INT32,  ACL_INT64,
                                       ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BOOL,  ACL_BF16,
                                       ACL_UINT16, ACL_UINT32, ACL_UINT64};

aclnnStatus check_tril(const aclTensor* self, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kTriangleDtypes));
    ACLCPU_RETURN_IF_ERROR(check_out_dtype(self, out));
    ACLCPU_RETURN_IF_ERROR(check_same_format(self, out));
    if (view_of(self).shape.size() <= 1) return param_error(ACLNN_ERR_PARAM_INVALID, "Dim of self should be last 2 dims.");
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    return check_same_shape(self, "self", out, "out");
}

aclnnStatus check_triu(const aclTensor* self, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kTriangleDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(self, "self", view_of(out).dtype));
    if (is_private_format(format_of(self))) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW, self [%s]",
                           format_name(format_of(self)));
    }
    ACLCPU_RETURN_IF_ERROR(check_same_format(self, out));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    if (!is_empty(self)) ACLCPU_RETURN_IF_ERROR(check_min_dim(self, "self", 2));
    return check_same_shape(self, "self", out, "out");
}

/// The columns row i keeps, [first, last): j <= i + diagonal for the lower
/// triangle, j >= i + diagonal for the upper (in 128 bits: diagonal is any int64).
std::pair<int64_t, int64_t> kept_columns(int64_t row, int64_t diagonal, int64_t columns, bool lower) {
    const __int128 edge = static_cast<__int128>(row) + diagonal;
    if (lower) return {0, static_cast<int64_t>(std::clamp<__int128>(edge + 1, 0, columns))};
    return {static_cast<int64_t>(std::clamp<__int128>(edge, 0, columns)), columns};
}

/// The rows [first, last) cut by the diagonal (each keeping other columns);
/// the rows before keep all columns or none, so do the rows after.
std::pair<int64_t, int64_t> rows_cut(int64_t diagonal, int64_t rows, int64_t columns, bool lower) {
    // lower: row i keeps j <= i + diagonal: none while i < -diagonal, all from
    // i >= columns - 1 - diagonal on; upper: keeps j >= i + diagonal: all
    // while i <= -diagonal, none from i >= columns - diagonal on.
    const __int128 start = lower ? -static_cast<__int128>(diagonal) : 1 - static_cast<__int128>(diagonal);
    const __int128 end = static_cast<__int128>(columns) - diagonal - (lower ? 1 : 0);
    const auto first = static_cast<int64_t>(std::clamp<__int128>(start, 0, rows));
    return {first, static_cast<int64_t>(std::clamp<__int128>(end, first, rows))};
}

/// Per run of rows keeping the same columns (the rows before and after
/// the diagonal's cut run together; a row cut by it is a run of its own): a
/// copy of the kept columns and fills of the others, over every matrix of
/// the batch at once -- at most 3 steps per row, however many matrices.
std::vector<CopyStep> triangle_steps(const TensorView& self, const TensorView& out, int64_t diagonal, bool lower) {
    const size_t rank = out.shape.size();
    const int64_t rows = out.shape[rank - 2];
    const int64_t columns = out.shape[rank - 1];
    std::vector<CopyStep> steps;
    // Rows [first, first + count), columns [from, to) of every matrix.
    const auto region = [&](int64_t first, int64_t count, int64_t from, int64_t to, bool copy) {
        std::vector<StepDim> dims = step_dims(self, out);
        dims[rank - 2].size = count;
        dims[rank - 1].size = to - from;
        const StepOrigin source = {self.dtype, self.offset + first * self.strides[rank - 2] + from * self.strides[rank - 1]};
        const StepOrigin target = {out.dtype, out.offset + first * out.strides[rank - 2] + from * out.strides[rank - 1]};
        if (copy) {
            append_copy(steps, 0, dims, source, target);
        } else {
            append_fill(steps, dims, target, kZeroElement);
        }
    };
    const auto run = [&](int64_t first, int64_t count) {
        const auto kept = kept_columns(first, diagonal, columns, lower);
        region(first, count, 0, kept.first, false);
        region(first, count, kept.first, kept.second, true);
        region(first, count, kept.second, columns, false);
    };
    const auto [cutFirst, cutLast] = rows_cut(diagonal, rows, columns, lower);
    if (cutFirst > 0) run(0, cutFirst);
    for (int64_t row = cutFirst; row < cutLast; ++row) run(row, 1);
    if (cutLast < rows) run(cutLast, rows - cutLast);
    return steps;
}

aclnnStatus triangle(const char* api, const aclTensor* self, int64_t diagonal, const aclTensor* out, bool lower,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(lower ? check_tril(self, out) : check_triu(self, out));
    if (is_empty(self)) return hand_back_nothing(self, out, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    const Dims& shape = view_of(out).shape;
    const auto [cutFirst, cutLast] = rows_cut(diagonal, shape[shape.size() - 2], shape[shape.size() - 1], lower);
    ACLCPU_RETURN_IF_ERROR(check_step_count(api, 3 * (cutLast - cutFirst + 2)));
    return hand_back_layout(api, triangle_steps(view_of(self), view_of(out), diagonal, lower), {self}, out,
                            workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" {

aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::repeat(self, repeats, out, workspaceSize, executor);
}

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::cat(tensors, dim, out, workspaceSize, executor);
}

aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t start, int64_t end, int64_t step,
                                       aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::slice(self, dim, start, end, step, out, workspaceSize, executor);
}

aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad, const aclScalar* value,
                                               aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::constant_pad_nd(self, pad, value, out, workspaceSize, executor);
}

aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::reflection_pad1d(self, padding, out, workspaceSize, executor);
}

aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::roll(x, shifts, dims, out, workspaceSize, executor);
}

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
    return aclcpu::ops::triangle("aclnnTril", self, diagonal, out, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    return aclcpu::ops::triangle("aclnnInplaceTril", selfRef, diagonal, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
    return aclcpu::ops::triangle("aclnnTriu", self, diagonal, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    return aclcpu::ops::triangle("aclnnInplaceTriu", selfRef, diagonal, selfRef, false, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnRepeat)
ACLCPU_DEFINE_PHASE2(aclnnCat)
ACLCPU_DEFINE_PHASE2(aclnnSlice)
ACLCPU_DEFINE_PHASE2(aclnnConstantPadNd)
ACLCPU_DEFINE_PHASE2(aclnnReflectionPad1d)
ACLCPU_DEFINE_PHASE2(aclnnRoll)
ACLCPU_DEFINE_PHASE2(aclnnTril)
ACLCPU_DEFINE_PHASE2(aclnnInplaceTril)
ACLCPU_DEFINE_PHASE2(aclnnTriu)
ACLCPU_DEFINE_PHASE2(aclnnInplaceTriu)
