// acl-cpu: aclnnIm2col (ops-math conversion/im2col) on the window engine
// (common/window.hpp): each column of out is one window of self, element k
// of the window in row c * kH * kW + k.
//
// Checks in CANN's order (op_api/aclnn_im2col.cpp, CheckParams), then
// acl-cpu's guards (the two out-parameters, views inside their storage,
// window sizes within int32, out of a dtype a Cast can write).  CANN casts
// the result to out's dtype (l0op::Cast) without checking it; so does
// acl-cpu, through FLOAT, into FLOAT, FLOAT16, BF16 or DOUBLE; it refuses
// the others.
#include "aclnnop/aclnn_im2col.h"

#include "common/dtype.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/window.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kSelfDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// Floating only: a float cast to an integer out of its range has no defined
// value (fuzz_window found a FLOAT -> UINT8 cast of -9e30).
constexpr DtypeList kOutDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

/// CheckInputDims: rank 3 or 4, every dim but a 4-D self's batch above 0.
aclnnStatus check_input_dims(const aclTensor* self) {
    const Dims& shape = view_of(self).shape;
    if (shape.size() != 3 && shape.size() != 4) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected self dim [%zu] to be 3 or 4 but check failed.",
                           shape.size());
    }
    for (size_t i = shape.size() == 4 ? 1 : 0; i < shape.size(); ++i) {
        if (shape[i] <= 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "self'dims is invalid, self No.[%lu] dim is [%ld].",
                               static_cast<unsigned long>(i + 1), static_cast<long>(shape[i]));
        }
    }
    return ACLNN_SUCCESS;
}

/// CheckArray: each list of 2 values, kernelSize, stride and dilation above
/// 0, padding at least 0.
aclnnStatus check_arrays(const aclIntArray* kernelSize, const aclIntArray* dilation, const aclIntArray* padding,
                         const aclIntArray* stride) {
    const struct {
        const aclIntArray* array;
        const char* name;
    } lists[] = {{kernelSize, "kernelSize"}, {dilation, "dilation"}, {padding, "padding"}, {stride, "stride"}};
    for (const auto& list : lists) {
        if (values_of(list.array).size() != 2) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "It is expected %s equals to 2, but got size %lu.", list.name,
                               static_cast<unsigned long>(values_of(list.array).size()));
        }
    }
    const struct {
        const aclIntArray* array;
        const char* name;
        int64_t least;
        const char* relation;
    } bounds[] = {{kernelSize, "kernelSize", 1, "be greater than zero"},
                  {stride, "stride", 1, "be greater than zero"},
                  {dilation, "dilation", 1, "be greater than zero"},
                  {padding, "padding", 0, "be greater than or equal to zero"}};
    for (const auto& bound : bounds) {
        const std::vector<int64_t>& values = values_of(bound.array);
        for (size_t i = 0; i < values.size(); ++i) {
            if (values[i] < bound.least) {
                return param_error(ACLNN_ERR_PARAM_INVALID, "It is expected %s %s, but %s No.[%lu] dim is [%ld].",
                                   bound.name, bound.relation, bound.name, static_cast<unsigned long>(i + 1),
                                   static_cast<long>(values[i]));
            }
        }
    }
    return ACLNN_SUCCESS;
}

/// The two spatial axes of self's windows.
void plan_axes(const Dims& selfShape, const aclIntArray* kernelSize, const aclIntArray* dilation,
               const aclIntArray* padding, const aclIntArray* stride, WindowAxis* axes) {
    for (size_t a = 0; a < 2; ++a) {
        WindowAxis& axis = axes[a];
        axis.inSize = selfShape[selfShape.size() - 2 + a];
        axis.kernel = values_of(kernelSize)[a];
        axis.dilation = values_of(dilation)[a];
        axis.padBefore = axis.padAfter = values_of(padding)[a];
        axis.stride = values_of(stride)[a];
        axis.outSize = pooled_size(axis.inSize, axis.kernel, axis.padBefore, axis.padAfter, axis.stride,
                                   axis.dilation, false);
    }
}

/// CheckOutputDims: both output sizes at least 1, and out of shape [(N,)
/// C * kH * kW, oH * oW].
aclnnStatus check_output_dims(const aclTensor* self, const WindowAxis* axes, const aclTensor* out) {
    if (axes[0].outSize < 1 || axes[1].outSize < 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The shape (%ld, %ld) of the array calculated by other parameters must be at least one.",
                           static_cast<long>(axes[0].outSize), static_cast<long>(axes[1].outSize));
    }
    const Dims& shape = view_of(self).shape;
    const bool batched = shape.size() == 4;
    const int64_t channels = shape[batched ? 1 : 0];
    // In 128 bits: a shape past int64 (CANN's int64 products wrap) never
    // equals out's, and is printed saturated.
    const auto times = [](int64_t a, int64_t b) {
        const __int128 product = static_cast<__int128>(a) * b;
        return product > INT64_MAX ? INT64_MAX : static_cast<int64_t>(product);
    };
    const int64_t rows = times(times(channels, axes[0].kernel), axes[1].kernel);
    const int64_t columns = times(axes[0].outSize, axes[1].outSize);
    const Dims expected = batched ? Dims{shape[0], rows, columns} : Dims{rows, columns};
    if (!(expected == view_of(out).shape)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expect out shape [%s], but got: [%s].",
                           shape_string(expected).c_str(), shape_string(view_of(out).shape).c_str());
    }
    return ACLNN_SUCCESS;
}

/// out [(N,) C * kH * kW, L] as the engine's [N, C, kH, kW, oH, oW].
TensorView columns_view(const TensorView& out, int64_t channels, const WindowAxis* axes) {
    const TensorView batched = with_batch(out, 3);
    TensorView view = batched;
    const int64_t rowStride = batched.strides[1];
    const int64_t columnStride = batched.strides[2];
    view.shape = {batched.shape[0], channels, axes[0].kernel, axes[1].kernel, axes[0].outSize, axes[1].outSize};
    view.strides = {batched.strides[0],
                    axes[0].kernel * axes[1].kernel * rowStride,
                    axes[1].kernel * rowStride,
                    rowStride,
                    axes[1].outSize * columnStride,
                    columnStride};
    return view;
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu;
using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                   const aclIntArray* dilation, const aclIntArray* padding,
                                                   const aclIntArray* stride, const aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"},
                                           {kernelSize, "kernelSize"},
                                           {dilation, "dilation"},
                                           {padding, "padding"},
                                           {stride, "stride"},
                                           {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSelfDtypes));
    ACLCPU_RETURN_IF_ERROR(check_input_dims(self));
    ACLCPU_RETURN_IF_ERROR(check_arrays(kernelSize, dilation, padding, stride));
    WindowPlan plan;
    plan.reduce = WindowReduce::kColumns;
    const Dims& shape = view_of(self).shape;
    plan_axes(shape, kernelSize, dilation, padding, stride, plan.axes);
    ACLCPU_RETURN_IF_ERROR(check_output_dims(self, plan.axes, out));
    if (is_empty(self)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kOutDtypes));
    plan.input = with_batch(view_of(self), 4);
    plan.output = columns_view(view_of(out), plan.input.shape[1], plan.axes);
    return hand_back_window("aclnnIm2col", plan, self, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnIm2col)
