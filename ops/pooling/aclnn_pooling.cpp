// acl-cpu: aclnnAvgPool2d (ops-nn pooling/avg_pool3_d/op_api/aclnn_avgpool2d.cpp)
// and aclnnMaxPool (ops-nn pooling/max_pool_v3/op_api/aclnn_max_pool.cpp) on
// the window engine (common/window.hpp).
//
// Each entry checks in CANN's order (CheckParams of its op_api), then
// acl-cpu's guards (the two out-parameters, views inside their storage,
// window sizes within int32), then plans the windows.  Where CANN's graph for
// Atlas A2 (DAV_2201) depends on the arguments, so does acl-cpu: AvgPool2d's
// Cube and global-pool graphs refuse a FLOAT self with cubeMathType 1, 3 or
// 4 and round a FLOAT self through FLOAT16 with cubeMathType 2
// (ProcessDataTypeConvert); its AvgPool3D graph ignores cubeMathType.
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool.h"

#include "common/dtype.hpp"
#include "common/layout.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/window.hpp"

#include <vector>

namespace aclcpu::ops {
namespace {

constexpr DtypeList kAvgPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kMaxPoolDtypes = {ACL_FLOAT16, ACL_FLOAT};

/// CheckOutputShape's first message, with the indentation CANN's line
/// continuation puts inside the string.
constexpr const char* kEmptyPlaneMessage =
    "Expected tensor with optional 0 dim batch size,                     but got nInputPlane:%ld, height:%ld, "
    "width:%ld";

/// The N, C, H, W of a 3-D (C, H, W) or 4-D self.
struct Planes {
    int64_t batch, channels, height, width;
};

Planes planes_of(const Dims& shape) {
    const bool is3d = shape.size() == 3;
    return {is3d ? 1 : shape[0], shape[is3d ? 0 : 1], shape[is3d ? 1 : 2], shape[is3d ? 2 : 3]};
}

/// CheckOutputShape of both op_apis: plane dims not 0, both output sizes
/// above 0, out of the pooled shape.
aclnnStatus check_pooled_shape(const aclTensor* self, const WindowAxis* axes, const aclTensor* out) {
    const Dims& shape = view_of(self).shape;
    const Planes p = planes_of(shape);
    if (p.channels == 0 || p.height == 0 || p.width == 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, kEmptyPlaneMessage, static_cast<long>(p.channels),
                           static_cast<long>(p.height), static_cast<long>(p.width));
    }
    if (axes[0].outSize <= 0 || axes[1].outSize <= 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Given input size %ldx%ldx%ld, calc out size %ldx%ldx%ld",
                           static_cast<long>(p.channels), static_cast<long>(p.height), static_cast<long>(p.width),
                           static_cast<long>(p.channels), static_cast<long>(axes[0].outSize),
                           static_cast<long>(axes[1].outSize));
    }
    const Dims expected = shape.size() == 3 ? Dims{p.channels, axes[0].outSize, axes[1].outSize}
                                            : Dims{p.batch, p.channels, axes[0].outSize, axes[1].outSize};
    return check_shape_is(out, "out", expected);
}

/// Hands back the pooling of self into out over axes (both not empty).
aclnnStatus hand_back_pool(const char* api, WindowPlan& plan, const aclTensor* self, const aclTensor* out,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    plan.input = with_batch(view_of(self), 4);
    plan.output = with_batch(view_of(out), 4);
    return hand_back_window(api, plan, self, out, workspaceSize, executor);
}

// --- AvgPool2d --------------------------------------------------------------

/// CheckFormat: NCHW for a 4-D self and out, NCL for 3-D.
aclnnStatus check_avgpool_formats(const aclTensor* self, const aclTensor* out) {
    const aclFormat selfFormat = format_of(self);
    const aclFormat outFormat = format_of(out);
    const auto nchwOrNcl = [](aclFormat f) { return f == ACL_FORMAT_NCHW || f == ACL_FORMAT_NCL; };
    if (!nchwOrNcl(selfFormat)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "self format should be NCHW or NCL. Actual: self is [%s].",
                           format_name(selfFormat));
    }
    if (!nchwOrNcl(outFormat)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "out format should be NCHW or NCL. Actual: out is [%s].",
                           format_name(outFormat));
    }
    const size_t rank = view_of(self).shape.size();
    const struct {
        size_t rank;
        aclFormat format;
        const char* message;
    } ranks[] = {{4, ACL_FORMAT_NCHW, "self and out should all be NCHW when 4D. Actual: self [%s], out [%s]."},
                 {3, ACL_FORMAT_NCL, "self and out should all be NCL when 3D. Actual: self [%s], out [%s]."}};
    for (const auto& r : ranks) {
        if (rank == r.rank && (selfFormat != r.format || outFormat != r.format)) {
            return param_error(ACLNN_ERR_PARAM_INVALID, r.message, format_name(selfFormat), format_name(outFormat));
        }
    }
    return ACLNN_SUCCESS;
}

/// CheckValue: kernel and stride values above 0, padding at least 0 (the
/// dims of a tensor are never negative here).
aclnnStatus check_avgpool_values(const aclIntArray* kernel, const aclIntArray* stride, const aclIntArray* padding) {
    for (int64_t v : values_of(kernel)) {
        if (v <= 0) return param_error(ACLNN_ERR_PARAM_INVALID, "Dim value of kernel is less than or equal to 0.");
    }
    for (int64_t v : values_of(stride)) {
        if (v <= 0) return param_error(ACLNN_ERR_PARAM_INVALID, "Dim value of stride is less than or equal to 0.");
    }
    for (int64_t v : values_of(padding)) {
        if (v < 0) return param_error(ACLNN_ERR_PARAM_INVALID, "Dim value of padding is negtive.");
    }
    return ACLNN_SUCCESS;
}

/// The two axes of AvgPool2d: a 1-value list stands for both, an empty
/// stride for the kernel (PoolingOutShape truncates toward zero).
void avgpool_axes(const Dims& shape, const aclIntArray* kernel, const aclIntArray* stride, const aclIntArray* padding,
                  bool ceilMode, WindowAxis* axes) {
    const std::vector<int64_t>& k = values_of(kernel);
    const std::vector<int64_t>& s = values_of(stride);
    const std::vector<int64_t>& p = values_of(padding);
    const Planes planes = planes_of(shape);
    const int64_t kernels[2] = {k[0], k.size() == 1 ? k[0] : k[1]};
    const int64_t strides[2] = {s.empty() ? kernels[0] : s[0], s.empty() ? kernels[1] : s.size() == 1 ? s[0] : s[1]};
    const int64_t pads[2] = {p[0], p.size() == 1 ? p[0] : p[1]};
    const int64_t sizes[2] = {planes.height, planes.width};
    for (int a = 0; a < 2; ++a) {
        axes[a] = WindowAxis{sizes[a], 0, kernels[a], 1, strides[a], pads[a], pads[a]};
        axes[a].outSize = pooled_size(sizes[a], kernels[a], pads[a], pads[a], strides[a], 1, ceilMode, true);
    }
}

/// CheckShape: ranks, non-empty planes, list lengths, padding at most half
/// the kernel, the pooled shape.
aclnnStatus check_avgpool_shape(const aclTensor* self, const aclIntArray* kernel, const aclIntArray* stride,
                                const aclIntArray* padding, const aclTensor* out, const WindowAxis* axes) {
    const Dims& shape = view_of(self).shape;
    const size_t rank = shape.size();
    if (!((rank == 3 || rank == 4) && view_of(out).shape.size() == rank)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "self and out must maintain same format, support 3D or 4D.");
    }
    const bool planesPresent = shape[1] != 0 && shape[2] != 0 && (rank == 3 ? shape[0] != 0 : shape[3] != 0);
    if (!planesPresent) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected tensor with optional 0 dim batch size for input, but got: %s.",
                           shape_string(shape).c_str());
    }
    const size_t kernels = values_of(kernel).size(), paddings = values_of(padding).size();
    if (kernels < 1) return param_error(ACLNN_ERR_PARAM_INVALID, "Length of kernel is less than 1.");
    if (paddings != 1 && paddings != 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected length of padding is 1 or 2, but got %lu.",
                           static_cast<unsigned long>(paddings));
    }
    if (values_of(stride).size() > 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected length of stride is 0 or 1 or 2, but got: %lu.",
                           static_cast<unsigned long>(values_of(stride).size()));
    }
    const char* halfMessages[2] = {
        "value of paddingH should be at most half of kernelH. Actual: paddingH is [%ld],kernelH is [%ld].",
        "value of paddingW should be at most half of kernelW. Actual: paddingW is [%ld],kernelW is [%ld]."};
    for (int a = 0; a < 2; ++a) {
        if (axes[a].kernel < __int128{2} * axes[a].padBefore) {  // a wild padding's double overflows int64
            return param_error(ACLNN_ERR_PARAM_INVALID, halfMessages[a], static_cast<long>(axes[a].padBefore),
                               static_cast<long>(axes[a].kernel));
        }
    }
    return check_pooled_shape(self, axes, out);
}

/// CheckCubeMathType (matmul/common/op_host/op_api/cube_util.cpp): 0..4;
/// Atlas A2's Cube computes FLOAT and BF16, so no value is refused for its dtype.
aclnnStatus check_cube_math_type(int8_t cubeMathType) {
    if (cubeMathType >= 0 && cubeMathType <= 4) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "The value of cubeMathType only support {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, 2: "
                       "USE_FP16, 3: USE_HF32, 4: USE_FP32_ADD}, but got %d",
                       static_cast<int>(cubeMathType));
}

/// Whether CANN's A2 graph runs on the Cube (or the global-pool ReduceMean)
/// and so converts the dtype by cubeMathType: a global pool, or a
/// non-long-strip input with a kernel the Cube pools (CheckAvgPool), no
/// ceilMode and fewer than 65536 channels.
bool avgpool_runs_on_cube(const Planes& p, const WindowAxis* axes, bool ceilMode, int64_t divisorOverride) {
    const int64_t kH = axes[0].kernel, kW = axes[1].kernel;
    const bool global = p.height == kH && p.width == kW && axes[0].padBefore == 0 && axes[1].padBefore == 0;
    if (global) return true;
    const bool longStrip = p.width / p.height >= 2 || p.height / p.width >= 2;
    const bool cubeKernel = (kH * kW <= 255 || (kH <= 20 && kW <= 20)) && kH <= 255 && kW <= 255 &&
                            divisorOverride >= -255 && divisorOverride <= 255;
    return !longStrip && cubeKernel && !ceilMode && p.channels < 65536;
}

/// ProcessDataTypeConvert for a FLOAT self on the Cube: cubeMathType 2
/// rounds through FLOAT16, 1, 3 and 4 are refused.
aclnnStatus apply_cube_math_type(int8_t cubeMathType, WindowPlan& plan) {
    if (cubeMathType == 2) {
        plan.roundThroughHalf = true;
    } else if (cubeMathType != 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "cubeMathType cannot support hf32 in this platform.");
    }
    return ACLNN_SUCCESS;
}

// --- MaxPool ----------------------------------------------------------------

aclnnStatus check_maxpool_formats(const aclTensor* self, const aclTensor* out) {
    if (format_of(self) != format_of(out)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of input and output should be same, self [%s], out [%s].",
                           format_name(format_of(self)), format_name(format_of(out)));
    }
    if (is_private_format(format_of(self))) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support NCHW or CHW");
    }
    const size_t rank = view_of(self).shape.size();
    if (rank != 3 && rank != 4) return param_error(ACLNN_ERR_PARAM_INVALID, "3D or 4D tensor expected for inputs");
    return ACLNN_SUCCESS;
}

/// CheckParamsLogic: list lengths, autoPad 0 (NOTSET), dilations all 1.
aclnnStatus check_maxpool_lists(const aclIntArray* kernelShape, const aclIntArray* strides, int64_t autoPad,
                                const aclIntArray* pads, const aclIntArray* dilations) {
    const size_t k = values_of(kernelShape).size(), s = values_of(strides).size();
    const size_t p = values_of(pads).size(), d = values_of(dilations).size();
    if (k != 1 && k != 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The size of kernelShape must be one or two, but got %zu.", k);
    }
    if (s > 2) return param_error(ACLNN_ERR_PARAM_INVALID, "The size of strides must be zero, one or two, but got %zu.", s);
    if (p > 2 && p != 4) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The size of pads must be zero, one, two or four, but got %zu.", p);
    }
    if (d > 2 && d != 4) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The size of dilations must be zero, one, two or four, but got %zu.", d);
    }
    if (autoPad != 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "value of autoPad must be zero representing NOTSET, but got autoPad:%ld",
                           static_cast<long>(autoPad));
    }
    const std::vector<int64_t>& v = values_of(dilations);
    for (int64_t dilation : v) {
        if (dilation == 1) continue;
        std::string got;
        for (size_t i = 0; i < v.size(); ++i) got += (i == 0 ? "" : ", ") + std::to_string(v[i]);
        return param_error(ACLNN_ERR_PARAM_INVALID, "dilation value along each spatial axis only support 1, but got %s",
                           got.c_str());
    }
    return ACLNN_SUCCESS;
}

/// The two axes of MaxPool: kernelShape of 1 or 2 values, strides of 0
/// (1), 1 or 2, pads of 0, 1, 2 or 4 ([top, left, bottom, right]).
void maxpool_axes(const Dims& shape, const aclIntArray* kernelShape, const aclIntArray* strides,
                  const aclIntArray* pads, bool ceilMode, WindowAxis* axes) {
    const std::vector<int64_t>& k = values_of(kernelShape);
    const std::vector<int64_t>& s = values_of(strides);
    const std::vector<int64_t>& p = values_of(pads);
    const int64_t kernels[2] = {k[0], k.size() == 1 ? k[0] : k[1]};
    const int64_t steps[2] = {s.empty() ? 1 : s[0], s.empty() ? 1 : s.size() == 1 ? s[0] : s[1]};
    int64_t before[2] = {0, 0}, after[2] = {0, 0};
    if (p.size() == 1) {
        before[0] = after[0] = before[1] = after[1] = p[0];
    } else if (p.size() == 2) {
        before[0] = after[0] = p[0];
        before[1] = after[1] = p[1];
    } else if (p.size() == 4) {
        before[0] = p[0], before[1] = p[1], after[0] = p[2], after[1] = p[3];
    }
    const Planes planes = planes_of(shape);
    const int64_t sizes[2] = {planes.height, planes.width};
    for (int a = 0; a < 2; ++a) {
        axes[a] = WindowAxis{sizes[a], 0, kernels[a], 1, steps[a], before[a], after[a]};
        axes[a].outSize = pooled_size(sizes[a], kernels[a], before[a], after[a], steps[a], 1, ceilMode);
    }
}

/// CheckShape: kernel and strides above 0, the pads of an axis at most its
/// kernel, the pooled shape.
aclnnStatus check_maxpool_shape(const aclTensor* self, const WindowAxis* axes, const aclTensor* out) {
    if (axes[0].kernel <= 0 || axes[1].kernel <= 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The size of kernel should be greater than 0, but got kh:%ld, kw:%ld",
                           static_cast<long>(axes[0].kernel), static_cast<long>(axes[1].kernel));
    }
    if (axes[0].stride <= 0 || axes[1].stride <= 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "The size of strides should be greater than 0, but got dh:%ld, dw:%ld",
                           static_cast<long>(axes[0].stride), static_cast<long>(axes[1].stride));
    }
    // Wrapping sums, as CANN's int64 arithmetic.
    const auto sum = [](int64_t a, int64_t b) {
        return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    };
    if (sum(axes[0].padBefore, axes[0].padAfter) > axes[0].kernel ||
        sum(axes[1].padBefore, axes[1].padAfter) > axes[1].kernel) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "padding for the sum of beginning and ending along each spatial axis, should be smaller "
                           "than, or equal to value of kernel size, but got kh:%ld, kw:%ld, padHL:%ld, padHR:%ld, "
                           "padWL:%ld, padWR:%ld",
                           static_cast<long>(axes[0].kernel), static_cast<long>(axes[1].kernel),
                           static_cast<long>(axes[0].padBefore), static_cast<long>(axes[0].padAfter),
                           static_cast<long>(axes[1].padBefore), static_cast<long>(axes[1].padAfter));
    }
    return check_pooled_shape(self, axes, out);
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu;
using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                      const aclIntArray* strides, const aclIntArray* paddings,
                                                      const bool ceilMode, const bool countIncludePad,
                                                      const int64_t divisorOverride, const int8_t cubeMathType,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null(
        {{self, "self"}, {kernelSize, "kernel"}, {strides, "stride"}, {paddings, "padding"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kAvgPoolDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_avgpool_formats(self, out));
    ACLCPU_RETURN_IF_ERROR(check_avgpool_values(kernelSize, strides, paddings));
    WindowPlan plan;
    plan.reduce = WindowReduce::kAverage;
    const Dims& shape = view_of(self).shape;
    const size_t rank = shape.size();
    const bool shapesUsable = (rank == 3 || rank == 4) && !values_of(kernelSize).empty() &&
                              !values_of(paddings).empty() && values_of(paddings).size() <= 2 &&
                              values_of(strides).size() <= 2;
    // The axes exist once the lists' lengths are checked (check_avgpool_shape
    // refuses the rest before it reads them).
    if (shapesUsable) avgpool_axes(shape, kernelSize, strides, paddings, ceilMode, plan.axes);
    ACLCPU_RETURN_IF_ERROR(check_avgpool_shape(self, kernelSize, strides, paddings, out, plan.axes));
    ACLCPU_RETURN_IF_ERROR(check_cube_math_type(cubeMathType));
    if (is_empty(self) || is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    if (view_of(self).dtype == ACL_FLOAT && avgpool_runs_on_cube(planes_of(shape), plan.axes, ceilMode, divisorOverride)) {
        ACLCPU_RETURN_IF_ERROR(apply_cube_math_type(cubeMathType, plan));
    }
    plan.countIncludePad = countIncludePad;
    plan.divisorOverride = divisorOverride;
    return hand_back_pool("aclnnAvgPool2d", plan, self, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnAvgPool2d)

extern "C" aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape,
                                                    const aclIntArray* strides, const int64_t autoPad,
                                                    const aclIntArray* pads, const aclIntArray* dilations,
                                                    const int64_t ceilMode, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"},
                                           {kernelShape, "kernelShape"},
                                           {strides, "strides"},
                                           {pads, "pads"},
                                           {dilations, "dilations"},
                                           {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kMaxPoolDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(self, "self", out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_maxpool_formats(self, out));
    ACLCPU_RETURN_IF_ERROR(check_maxpool_lists(kernelShape, strides, autoPad, pads, dilations));
    WindowPlan plan;
    plan.reduce = WindowReduce::kMax;
    maxpool_axes(view_of(self).shape, kernelShape, strides, pads, ceilMode != 0, plan.axes);
    ACLCPU_RETURN_IF_ERROR(check_maxpool_shape(self, plan.axes, out));
    if (is_empty(self) || is_empty(out)) return hand_back_empty_executor({self}, {out}, workspaceSize, executor);
    return hand_back_pool("aclnnMaxPool", plan, self, out, workspaceSize, executor);
}

ACLCPU_DEFINE_PHASE2(aclnnMaxPool)
