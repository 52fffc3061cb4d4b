// acl-cpu: aclnnUpsampleNearest2d (ops-cv image/resize_nearest_neighbor_v2/
// op_api/aclnn_upsample_nearest_2d.cpp) on the window engine
// (common/window.hpp): a window of one element per output position, the
// source row and column of ResizeNearestNeighborV2 without align_corners or
// half_pixel_centers -- src = min(floor(dst * scale), in - 1) in fp32 with
// scale = float(in) / out (op_host/arch35/resize_nearest_neighbor_v2_tiling_base.cpp
// scaleH_ = static_cast<float>(lenSrcH_) / lenDesH_; op_kernel/arch35/
// resize_nearest_neighbor_v2_simt.h CalSrcIdx: floorf(h * scaleH), min(.., lenSrcH - 1)).
//
// Checks in CANN's order (CheckParams), then acl-cpu's guards (the two
// out-parameters, views inside their storage).  NCHW and NHWC are the
// storage formats CANN takes; an NHWC tensor's view is [N, H, W, C].
#include "aclnnop/aclnn_upsample_nearest_2d.h"

#include "common/dtype.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/window.hpp"

#include <climits>

namespace aclcpu::ops {
namespace {

constexpr DtypeList kDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_BF16};

/// CheckShape: outputSize of 2 values, a 4-D self, dims 2 and 3 (whatever
/// the format) and outputSize not 0, dim 1 not 0.
aclnnStatus check_shape(const aclTensor* self, const aclIntArray* outputSize) {
    const std::vector<int64_t>& size = values_of(outputSize);
    if (size.size() != 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "It is expected output size equals to %lu, but got size %lu.", 2ul,
                           static_cast<unsigned long>(size.size()));
    }
    const Dims& shape = view_of(self).shape;
    if (shape.size() != 4) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "It is expected input size equals to %ld, but got size %zu.", 4l,
                           shape.size());
    }
    if (shape[2] == 0 || shape[3] == 0 || size[0] == 0 || size[1] == 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Input and output sizes should be greater than %ld, but got input (H: %ld, W: %ld) output "
                           "(H: %ld, W: %ld).",
                           0l, static_cast<long>(shape[2]), static_cast<long>(shape[3]), static_cast<long>(size[0]),
                           static_cast<long>(size[1]));
    }
    if (shape[1] == 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Non-empty 4D data tensor expected but got a tensor with size %s.",
                           shape_string(shape).c_str());
    }
    return ACLNN_SUCCESS;
}

/// CheckFormatValid, CheckFormatEqual.
aclnnStatus check_formats(const aclTensor* self, const aclTensor* out) {
    const aclFormat format = format_of(self);
    if (format != ACL_FORMAT_NCHW && format != ACL_FORMAT_NHWC) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Do not support this format [%s] of input.", format_name(format));
    }
    if (format != format_of(out)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of input and output should be equal, self [%s], out [%s].",
                           format_name(format), format_name(format_of(out)));
    }
    return ACLNN_SUCCESS;
}

/// The dims of N, C, H, W in a view of `format`.
struct Layout {
    size_t n, c, h, w;
};
Layout layout_of(aclFormat format) { return format == ACL_FORMAT_NHWC ? Layout{0, 3, 1, 2} : Layout{0, 1, 2, 3}; }

/// CheckNCDimValid, CheckOutputSize, CheckUplimit.
aclnnStatus check_out_shape(const aclTensor* self, const aclIntArray* outputSize, const aclTensor* out) {
    const Layout l = layout_of(format_of(self));
    const Dims& in = view_of(self).shape;
    const Dims& o = view_of(out).shape;
    if (o.size() != 4) return check_shape_is(out, "out", {in[l.n], in[l.c], values_of(outputSize)[0], values_of(outputSize)[1]});
    if (in[l.n] != o[l.n] || in[l.c] != o[l.c]) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The selfDimN[%ld]/outDimN[%ld] or selfDimC[%ld]/outDimC[%ld] not equal .",
                           static_cast<long>(in[l.n]), static_cast<long>(o[l.n]), static_cast<long>(in[l.c]),
                           static_cast<long>(o[l.c]));
    }
    const std::vector<int64_t>& size = values_of(outputSize);
    if (size[0] != o[l.h] || size[1] != o[l.w]) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected output size (H: %ld, W: %ld), but got output tensor size (H: %ld, W: %ld).",
                           static_cast<long>(size[0]), static_cast<long>(size[1]), static_cast<long>(o[l.h]),
                           static_cast<long>(o[l.w]));
    }
    const struct {
        const Dims& dims;
        const char* message;
    } limits[] = {{in, "Self sizes should not be greater than %d, but got self(%ld, %ld, %ld, %ld)"},
                  {o, "Out sizes should not be greater than %d, but got out(%ld, %ld, %ld, %ld)"}};
    for (const auto& limit : limits) {
        const Dims& d = limit.dims;
        if (d[0] > INT32_MAX || d[1] > INT32_MAX || d[2] > INT32_MAX || d[3] > INT32_MAX) {
            return param_error(ACLNN_ERR_PARAM_INVALID, limit.message, INT32_MAX, static_cast<long>(d[0]),
                               static_cast<long>(d[1]), static_cast<long>(d[2]), static_cast<long>(d[3]));
        }
    }
    return ACLNN_SUCCESS;
}

/// view [N, C, H, W] whatever its format.
TensorView as_nchw(const TensorView& view, const Layout& l) {
    TensorView result = view;
    result.shape = {view.shape[l.n], view.shape[l.c], view.shape[l.h], view.shape[l.w]};
    result.strides = {view.strides[l.n], view.strides[l.c], view.strides[l.h], view.strides[l.w]};
    return result;
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu;
using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {outputSize, "outputSize"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(self, "self", view_of(out).dtype));
    ACLCPU_RETURN_IF_ERROR(check_shape(self, outputSize));
    ACLCPU_RETURN_IF_ERROR(check_formats(self, out));
    ACLCPU_RETURN_IF_ERROR(check_out_shape(self, outputSize, out));
    if (is_empty(self) || is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    const Layout l = layout_of(format_of(self));
    WindowPlan plan;
    plan.reduce = WindowReduce::kColumns;
    plan.input = as_nchw(view_of(self), l);
    plan.output = as_nchw(view_of(out), l);
    for (int a = 0; a < 2; ++a) {
        WindowAxis& axis = plan.axes[a];
        axis.inSize = plan.input.shape[static_cast<size_t>(2 + a)];
        axis.outSize = plan.output.shape[static_cast<size_t>(2 + a)];
        axis.nearestScale = static_cast<float>(axis.inSize) / static_cast<float>(axis.outSize);
    }
    // Kernel 1: the columns layout [N, C, 1, 1, H, W] is out's own.
    plan.output = with_unit_dims(plan.output, 2, 2);
    return hand_back_window("aclnnUpsampleNearest2d", plan, self, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnUpsampleNearest2d)
