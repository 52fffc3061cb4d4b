// acl-cpu: aclnnScaledMaskedSoftmaxBackward, CANN's ScaledMaskedSoftmaxGradV2 aclnn API.
//
// The hand-written part checks, in CANN's order: null tensors, dtypes, the
// FRACTAL_NZ storage format (A2 is not regbase), shapes, fixTriuMask; then
// out's dtype is taken from gradOutput.  The rest is CANN's generated inner
// function and the tiling, whose order is acl-cpu's: workspaceSize/executor
// pointers (161001), empty tensors (workspace 0, success; the tiling would
// reject them), then the tiling's y-dtype check (561002).  out may be
// non-contiguous (the doc says it may not; acl-cpu writes through its view).
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"

#include <algorithm>

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "scaled_masked_softmax_backward/scaled_masked_softmax_backward_kernel.hpp"
#include "scaled_masked_softmax_backward/scaled_masked_softmax_backward_tiling.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kMaskDtypes = {ACL_BOOL};
constexpr size_t kRank = 4;
constexpr int64_t kMaxLength = 4096;  // S2 limit on A2 (regbase SoCs allow 8192)

bool is_nz(const aclTensor* tensor) { return format_of(tensor) == ACL_FORMAT_FRACTAL_NZ; }

aclnnStatus check_format(const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask,
                         const aclTensor* out) {
    if (is_nz(gradOutput) || is_nz(y) || is_nz(out)) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "Input and output format only support [ND]. Actual: gradOutput:[%s], y:[%s], out:[%s].",
                     format_name(format_of(gradOutput)), format_name(format_of(y)), format_name(format_of(out)));
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (is_nz(mask)) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "Mask format only support [ND]. Actual: mask:[%s].",
                     format_name(format_of(mask)));
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_rank(const Dims& shape, const char* name) {
    if (shape.size() == kRank) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "%s only support 4 dims, but current is %zu", name,
                 shape.size());
    return ACLNN_ERR_PARAM_INVALID;
}

aclnnStatus check_shape(const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask,
                        const aclTensor* out) {
    const Dims& shape = view_of(gradOutput).shape;
    ACLCPU_RETURN_IF_ERROR(check_rank(shape, "gradOutput"));
    const bool dimsValid = std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; });
    if (!dimsValid || shape[3] > kMaxLength) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "shape of gradOutput is not true, current is %s",
                     shape_string(shape).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (view_of(y).shape != shape) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "shape of y should equal to gradOutput, gradOutput is %s, y is %s", shape_string(shape).c_str(),
                     shape_string(view_of(y).shape).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (view_of(out).shape != shape) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "shape of out should equal to gradOutput, gradOutput is %s, out is %s",
                     shape_string(shape).c_str(), shape_string(view_of(out).shape).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    const Dims& maskShape = view_of(mask).shape;
    ACLCPU_RETURN_IF_ERROR(check_rank(maskShape, "mask"));
    const bool maskValid = std::all_of(maskShape.begin(), maskShape.end(), [](int64_t d) { return d >= 0; }) &&
                           maskShape[2] == shape[2] && maskShape[3] == shape[3];
    if (!maskValid) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "shape of mask is not true, current is %s",
                     shape_string(maskShape).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    const auto broadcastable = [](int64_t maskDim, int64_t dim) { return maskDim == dim || maskDim == 1; };
    if (!broadcastable(maskShape[0], shape[0]) || !broadcastable(maskShape[1], shape[1])) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "mask should broadcast to gradOutput, gradOutput is %s, mask is %s", shape_string(shape).c_str(),
                     shape_string(maskShape).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_params(const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask,
                         const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {y, "y"}, {mask, "mask"}, {out, "out"}}));

    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{gradOutput, "gradOutput"}, {y, "y"}}, kDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(mask, "mask", kMaskDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(out, "out", kDtypes));

    ACLCPU_RETURN_IF_ERROR(check_format(gradOutput, y, mask, out));
    return check_shape(gradOutput, y, mask, out);
}

/// CANN writes out with gradOutput's dtype; its view must then still fit in
/// the bytes its storage was declared with -> else 161002.  Precondition:
/// check_view_in_storage passed, so only the bytes as written can overflow.
aclnnStatus check_out_fits_as(const aclTensor* out, aclDataType written) {
    const TensorView& view = view_of(out);
    int64_t storageElements = 1;
    for (int64_t d : storage_shape_of(out)) storageElements *= d;
    int64_t last = view.offset;
    for (size_t d = 0; d < view.shape.size(); ++d) last += (view.shape[d] - 1) * view.strides[d];
    int64_t writtenBytes = 0;
    const bool overflows = __builtin_mul_overflow(last + 1, element_size(written), &writtenBytes);
    if (!overflows && writtenBytes <= storageElements * element_size(view.dtype)) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                 "The view of tensor out, written as %s (gradOutput's dtype), reaches outside its storage of %lld "
                 "bytes.", dtype_name(written), static_cast<long long>(storageElements * element_size(view.dtype)));
    return ACLNN_ERR_PARAM_INVALID;
}

/// The tiling's own dtype check, which CANN reports as a tiling failure.
aclnnStatus check_tiling_dtype(const aclTensor* gradOutput, const aclTensor* y) {
    if (view_of(y).dtype == view_of(gradOutput).dtype) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag,
                 "ScaledMaskedSoftmaxGradV2 tiling failed: yDtype should be same as yGradDtype.");
    return ACLNN_ERR_INNER_TILING_ERROR;
}

aclnnStatus get_workspace_size(const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask, double scale,
                               bool fixTriuMask, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_params(gradOutput, y, mask, out));
    if (fixTriuMask) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "fixTriuMask only support false");
        return ACLNN_ERR_PARAM_INVALID;
    }
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const TensorList inputs = {gradOutput, y, mask};
    const TensorList outputs = {out};
    // An empty mask implies empty data (its dims 0-1 match or are 1).
    if (is_empty(gradOutput)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_tiling_dtype(gradOutput, y));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{gradOutput, "gradOutput"}, {y, "y"}, {mask, "mask"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_out_fits_as(out, view_of(gradOutput).dtype));

    const TensorView& data = view_of(gradOutput);
    TensorView outView = view_of(out);
    outView.dtype = data.dtype;
    const SoftmaxBackwardShape shape{data.shape[0], data.shape[1], data.shape[2], data.shape[3]};
    ScaledMaskedSoftmaxBackwardTiling tiling =
        tile_scaled_masked_softmax_backward(shape, data.dtype, scale, soc_profile());
    const SoftmaxBackwardOperands operands{StridedLayout::of(data), StridedLayout::of(view_of(y)),
                                           StridedLayout::broadcast_to(view_of(mask), data.shape),
                                           StridedLayout::of(outView)};
    const uint64_t workspaceBytes = tiling.workspaceSize;
    return hand_back_kernel<ScaledMaskedSoftmaxBackwardKernel>(inputs, outputs, workspaceBytes, workspaceSize,
                                                               executor, "aclnnScaledMaskedSoftmaxBackward",
                                                               std::move(tiling), operands);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                        const aclTensor* y, const aclTensor* mask,
                                                                        double scale, bool fixTriuMask,
                                                                        aclTensor* out, uint64_t* workspaceSize,
                                                                        aclOpExecutor** executor) {
    return aclcpu::ops::get_workspace_size(gradOutput, y, mask, scale, fixTriuMask, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnScaledMaskedSoftmaxBackward)
