// acl-cpu: the row operators of ops-nn -- aclnnSoftmax (activation/softmax_v2),
// aclnnLogSoftmax (activation/log_softmax_v2), aclnnRmsNorm (norm/rms_norm) and
// aclnnLayerNorm (norm/layer_norm_v4) -- on the row engine (common/rows.hpp).
//
// Each entry checks in CANN's order (op_api/aclnn_<op>.cpp; RmsNorm's op_api
// is not published: its doc's constraints, in argument order), then
// acl-cpu's own guards (workspaceSize/executor pointers, views inside their
// storage), then plans the rows.  DOUBLE is computed at FLOAT, as every
// acl-cpu kernel does.
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/rows.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

namespace aclcpu::ops {
namespace {

constexpr DtypeList kSoftmaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeList kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// Hands back a RowKernel over x's rows of `length` elements (x not empty).
aclnnStatus hand_back_rows(const char* opName, RowPlan plan, RowOperands operands, TensorSpan inputs,
                           TensorSpan outputs, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return hand_back_kernel<RowKernel>(inputs, outputs, 0, workspaceSize, executor, opName, std::move(plan),
                                       std::move(operands));
}

// --- Softmax and LogSoftmax -----------------------------------------------

/// CheckDim of both op_apis: a 0-d self counts as rank 1; dim in [-rank, rank).
aclnnStatus check_softmax_dim(const aclTensor* self, int64_t dim) {
    const auto rank = static_cast<int64_t>(std::max<size_t>(view_of(self).shape.size(), 1));
    if (dim >= -rank && dim < rank) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "provided dim %ld not in the range of input size %ld.",
                 static_cast<long>(dim), static_cast<long>(rank));
    return ACLNN_ERR_PARAM_INVALID;
}

/// The softmax family's plan: rows along dim (moved last), self read, out
/// written.
aclnnStatus hand_back_softmax(const char* opName, RowFunction function, const aclTensor* self, int64_t dim,
                              aclTensor* out, aclDataType inputDtype, aclDataType resultDtype,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const TensorList inputs = {self};
    const TensorList outputs = {out};
    if (is_empty(self)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    TensorView x = view_of(self);
    TensorView y = view_of(out);
    const size_t rank = x.shape.size();
    int64_t length = 1;
    if (rank != 0) {
        const auto axis = static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(rank) : dim);
        length = x.shape[axis];
        x = with_dim_last(x, axis);
        y = with_dim_last(y, axis);
    }
    RowPlan plan = plan_rows(function, StridedLayout::of(x).numel() / length, length, soc_profile());
    plan.inputDtype = inputDtype;
    plan.resultDtype = resultDtype;
    RowOperands operands;
    operands.x = StridedLayout::of(x);
    operands.y = StridedLayout::of(y);
    return hand_back_rows(opName, std::move(plan), std::move(operands), inputs, outputs, workspaceSize, executor);
}

/// aclnn_softmax.cpp CheckParams: null; empty self -> success (nothing else
/// checked); dtypes; dim; rank <= 8 then out's shape.  SoftmaxV2 computes in
/// self's dtype, then Cast into out.
aclnnStatus softmax(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    if (!is_empty(self)) {
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kSoftmaxDtypes));
        ACLCPU_RETURN_IF_ERROR(check_softmax_dim(self, dim));
        ACLCPU_RETURN_IF_ERROR(check_rank_then_same_shape(self, out));
    }
    return hand_back_softmax("aclnnSoftmax", RowFunction::kSoftmax, self, dim, out, ACL_FLOAT, view_of(self).dtype,
                             workspaceSize, executor);
}

/// aclnn_log_softmax.cpp CheckLogSoftmaxParams: null; dim; dtypes; casts
/// into out's dtype; ranks <= 8 then out's shape; empty self -> success.
/// self is cast to out's dtype, LogSoftmaxV2 computes in it.
aclnnStatus log_softmax(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_softmax_dim(self, dim));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kSoftmaxDtypes));
    const aclDataType outDtype = view_of(out).dtype;
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, outDtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", self, "self"));
    return hand_back_softmax("aclnnLogSoftmax", RowFunction::kLogSoftmax, self, dim, out, outDtype, outDtype,
                             workspaceSize, executor);
}

// --- RmsNorm ----------------------------------------------------------------

/// The doc's dtype table for A2: gamma FLOAT or x's dtype, yOut x's dtype,
/// rstdOut FLOAT.
aclnnStatus check_rms_norm_dtypes(const aclTensor* x, const aclTensor* gamma, const aclTensor* y,
                                  const aclTensor* rstd) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{x, "x"}, {gamma, "gamma"}}, kNormDtypes));
    const aclDataType xDtype = view_of(x).dtype;
    const aclDataType gammaDtype = view_of(gamma).dtype;
    if (gammaDtype != xDtype && gammaDtype != ACL_FLOAT) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "gamma's dtype %s should be FLOAT or x's dtype %s.", dtype_name(gammaDtype), dtype_name(xDtype));
        return ACLNN_ERR_PARAM_INVALID;
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(y, "yOut", xDtype));
    return check_dtype_is(rstd, "rstdOut", ACL_FLOAT);
}

/// acl-cpu's guard: mean and rstd hold one element per row (CANN's kernel
/// writes input's shape with the normalized dims 1 into them).
aclnnStatus check_stat_size(const aclTensor* stat, const char* name, int64_t rows) {
    if (stat == nullptr || StridedLayout::of(view_of(stat)).numel() == rows) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "Expected %s to hold %ld elements (one per row), but its "
                 "shape is %s.", name, static_cast<long>(rows), shape_string(view_of(stat).shape).c_str());
    return ACLNN_ERR_PARAM_INVALID;
}

/// The doc's shapes: x of rank 1-8, gamma = x's last gamma-rank dims
/// (fewer than x's), yOut = x; rstdOut one element per row. The doc shows
/// rstdOut as x with gamma's dims 1, but ggml's RMS_NORM, which runs on Atlas
/// A2, passes x's shape without them (ggml-cann aclnn_ops.cpp,
/// ggml_cann_rms_norm): CANN holds rstdOut to its element count, not its rank.
aclnnStatus check_rms_norm_shapes(const aclTensor* x, const aclTensor* gamma, const aclTensor* y,
                                  const aclTensor* rstd) {
    ACLCPU_RETURN_IF_ERROR(check_min_dim(x, "x", 1));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{x, "x"}, {gamma, "gamma"}, {y, "yOut"}, {rstd, "rstdOut"}}));
    const Dims& xShape = view_of(x).shape;
    const Dims& gammaShape = view_of(gamma).shape;
    const size_t rows = xShape.size() - std::min(gammaShape.size(), xShape.size());
    bool gammaFits = !gammaShape.empty() && gammaShape.size() < xShape.size();
    for (size_t d = 0; gammaFits && d < gammaShape.size(); ++d) gammaFits = gammaShape[d] == xShape[rows + d];
    if (!gammaFits) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "gamma's shape %s should be the last dims of x's shape %s, fewer than x's.",
                     shape_string(gammaShape).c_str(), shape_string(xShape).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    ACLCPU_RETURN_IF_ERROR(check_shape_is(y, "yOut", xShape));
    // Sizes are not yet known to fit in int64 (check_view_in_storage comes last).
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{x, "x"}, {rstd, "rstdOut"}}));
    const int64_t rowCount = std::accumulate(xShape.begin(), xShape.begin() + static_cast<std::ptrdiff_t>(rows),
                                             int64_t{1}, std::multiplies<>());
    return check_stat_size(rstd, "rstdOut", rowCount);
}

aclnnStatus rms_norm(const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* y,
                     const aclTensor* rstd, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{x, "x"}, {gamma, "gamma"}, {y, "yOut"}, {rstd, "rstdOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_rms_norm_dtypes(x, gamma, y, rstd));
    ACLCPU_RETURN_IF_ERROR(check_rms_norm_shapes(x, gamma, y, rstd));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const TensorList inputs = {x, gamma};
    const TensorList outputs = {y, rstd};
    if (is_empty(x)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{x, "x"}, {gamma, "gamma"}, {y, "yOut"}, {rstd, "rstdOut"}}));
    const int64_t length = StridedLayout::of(view_of(gamma)).numel();
    RowPlan plan = plan_rows(RowFunction::kRmsNorm, StridedLayout::of(view_of(x)).numel() / length, length,
                             soc_profile());
    plan.epsilon = static_cast<float>(epsilon);
    plan.resultDtype = view_of(x).dtype;
    RowOperands operands;
    operands.x = StridedLayout::of(view_of(x));
    operands.y = StridedLayout::of(view_of(y));
    operands.gamma = StridedLayout::of(view_of(gamma));
    operands.rstd = StridedLayout::of(view_of(rstd));
    operands.gammaSlot = 1;
    operands.rstdSlot = 1;
    return hand_back_rows("aclnnRmsNorm", std::move(plan), std::move(operands), inputs, outputs, workspaceSize,
                          executor);
}

// --- LayerNorm -----------------------------------------------------------------

/// The tensors of a LayerNorm call; the optional ones may be null.
struct LayerNormArgs {
    const aclTensor* input;
    const aclIntArray* normalizedShape;
    const aclTensor* weight;
    const aclTensor* bias;
    const aclTensor* out;
    const aclTensor* mean;
    const aclTensor* rstd;
};

/// An optional tensor's dtype must be FLOAT or `other`'s (OP_CHECK_DTYPE_NOT_SAME).
aclnnStatus check_float_or_same(const aclTensor* tensor, const char* name, const aclTensor* other,
                                const char* otherName) {
    if (tensor == nullptr) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(tensor, name, kNormDtypes));
    if (view_of(tensor).dtype == ACL_FLOAT) return ACLNN_SUCCESS;
    return check_same_dtype(tensor, name, other, otherName);
}

/// aclnn_layer_norm.cpp CheckInputDtype, then CheckOutputDtype.
aclnnStatus check_layer_norm_dtypes(const LayerNormArgs& a) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(a.input, "input", kNormDtypes));
    ACLCPU_RETURN_IF_ERROR(check_float_or_same(a.weight, "weightOptional", a.input, "input"));
    ACLCPU_RETURN_IF_ERROR(check_float_or_same(a.bias, "biasOptional", a.input, "input"));
    if (a.weight != nullptr && a.bias != nullptr) {
        ACLCPU_RETURN_IF_ERROR(check_same_dtype(a.weight, "weightOptional", a.bias, "biasOptional"));
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(a.out, "out", kNormDtypes));
    if (a.mean != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype_supported(a.mean, "meanOutOptional", kNormDtypes));
    if (a.rstd != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype_supported(a.rstd, "rstdOutOptional", kNormDtypes));
    return ACLNN_SUCCESS;
}

aclnnStatus refuse(const char* message, size_t index, int64_t expected, int64_t actual) {
    report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, message, index, static_cast<long>(expected),
                 static_cast<long>(actual));
    return ACLNN_ERR_PARAM_INVALID;
}

/// An optional affine tensor has normalizedShape's rank and dims.
aclnnStatus check_affine_shape(const aclTensor* tensor, const char* name, const std::vector<int64_t>& normalized) {
    if (tensor == nullptr) return ACLNN_SUCCESS;
    const Dims& shape = view_of(tensor).shape;
    if (shape.size() != normalized.size()) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "Expected %s to be %zu-dimensional, but got %zu.",
                     name, normalized.size(), shape.size());
        return ACLNN_ERR_PARAM_INVALID;
    }
    for (size_t d = 0; d < normalized.size(); ++d) {
        if (shape[d] != normalized[d]) {
            report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                         "Expected normalized index [%zu] shape [%ld] be equal to %s index [%zu] shape [%ld], but "
                         "failed.", d, static_cast<long>(normalized[d]), name, d, static_cast<long>(shape[d]));
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    return ACLNN_SUCCESS;
}

/// aclnn_layer_norm.cpp CheckShape: ranks <= 8, 1 <= normalizedShape's
/// length <= 8, input's rank at least that, its trailing dims
/// normalizedShape, weight and bias of normalizedShape, out input's shape.
aclnnStatus check_layer_norm_shapes(const LayerNormArgs& a, const std::vector<int64_t>& normalized) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{a.input, "input"}, {a.out, "out"}}));
    if (a.weight != nullptr) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.weight, "weightOptional"));
    if (a.bias != nullptr) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.bias, "biasOptional"));
    if (a.mean != nullptr) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.mean, "meanOutOptional"));
    if (a.rstd != nullptr) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.rstd, "rstdOutOptional"));
    if (normalized.size() > kMaxDims || normalized.empty()) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag,
                     "Expected aclnnLayerNorm normalizedShape len [%zu] to be in [1, %zu] but check failed.",
                     normalized.size(), kMaxDims);
        return ACLNN_ERR_PARAM_INVALID;
    }
    ACLCPU_RETURN_IF_ERROR(check_min_dim(a.input, "input", normalized.size()));
    const Dims& shape = view_of(a.input).shape;
    const size_t begin = shape.size() - normalized.size();
    for (size_t d = 0; d < normalized.size(); ++d) {
        if (normalized[d] != shape[begin + d]) {
            return refuse("Expected normalized index [%zu] shape [%ld] be equal to input shape [%ld], but failed.", d,
                          normalized[d], shape[begin + d]);
        }
    }
    ACLCPU_RETURN_IF_ERROR(check_affine_shape(a.weight, "weightOptional", normalized));
    ACLCPU_RETURN_IF_ERROR(check_affine_shape(a.bias, "biasOptional", normalized));
    return check_same_shape(a.input, "input", a.out, "out");
}

/// aclnnLayerNormWithImplMode's phase 1 (aclnnLayerNorm and acl-cpu's
/// aclnnFastLayerNorm pass implMode 0): null, dtypes, shapes, implMode; no
/// rows -> success; rows of no element -> mean 0 and rstd NaN.  The kernel
/// computes in input's dtype (then Cast into out), mean and rstd in fp32.
aclnnStatus layer_norm(const LayerNormArgs& a, double eps, int32_t implMode, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{a.input, "input"}, {a.normalizedShape, "normalizedShape"},
                                           {a.out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_layer_norm_dtypes(a));
    const std::vector<int64_t>& normalized = values_of(a.normalizedShape);
    ACLCPU_RETURN_IF_ERROR(check_layer_norm_shapes(a, normalized));
    if (implMode < 0 || implMode > 2) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "Expected implMode to be in [0, 1, 2], but now got [%d].",
                     implMode);
        return ACLNN_ERR_PARAM_INVALID;
    }
    const bool allHalf = view_of(a.input).dtype == ACL_FLOAT16 &&
                         (a.weight == nullptr || view_of(a.weight).dtype == ACL_FLOAT16) &&
                         (a.bias == nullptr || view_of(a.bias).dtype == ACL_FLOAT16);
    if (implMode == 2 && !allHalf) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "KEEP_FP16 only support all input dtype float16!");
        return ACLNN_ERR_PARAM_INVALID;
    }
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const Dims& shape = view_of(a.input).shape;
    int64_t rows = 1;
    int64_t length = 1;
    for (size_t d = 0; d < shape.size(); ++d) (d < shape.size() - normalized.size() ? rows : length) *= shape[d];
    std::vector<const aclTensor*> inputs = {a.input};
    std::vector<const aclTensor*> outputs = {a.out};
    RowOperands operands;
    if (a.weight != nullptr) {
        operands.gammaSlot = static_cast<int>(inputs.size());
        inputs.push_back(a.weight);
    }
    if (a.bias != nullptr) {
        operands.betaSlot = static_cast<int>(inputs.size());
        inputs.push_back(a.bias);
    }
    if (a.mean != nullptr) {
        operands.meanSlot = static_cast<int>(outputs.size());
        outputs.push_back(a.mean);
    }
    if (a.rstd != nullptr) {
        operands.rstdSlot = static_cast<int>(outputs.size());
        outputs.push_back(a.rstd);
    }
    if (rows == 0) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_stat_size(a.mean, "meanOutOptional", rows));
    ACLCPU_RETURN_IF_ERROR(check_stat_size(a.rstd, "rstdOutOptional", rows));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{a.input, "input"}, {a.out, "out"}}));
    for (const aclTensor* tensor : {a.weight, a.bias, a.mean, a.rstd}) {
        if (tensor != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(tensor, "optional tensor"));
    }
    RowPlan plan = plan_rows(RowFunction::kLayerNorm, rows, length, soc_profile());
    plan.epsilon = static_cast<float>(eps);
    plan.resultDtype = view_of(a.input).dtype;
    operands.x = StridedLayout::of(view_of(a.input));
    operands.y = StridedLayout::of(view_of(a.out));
    if (a.weight != nullptr) operands.gamma = StridedLayout::of(view_of(a.weight));
    if (a.bias != nullptr) operands.beta = StridedLayout::of(view_of(a.bias));
    if (a.mean != nullptr) operands.mean = StridedLayout::of(view_of(a.mean));
    if (a.rstd != nullptr) operands.rstd = StridedLayout::of(view_of(a.rstd));
    return hand_back_rows("aclnnLayerNorm", std::move(plan), std::move(operands), inputs, outputs, workspaceSize,
                          executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" {

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    return aclcpu::ops::softmax(self, dim, out, workspaceSize, executor);
}

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::log_softmax(self, dim, out, workspaceSize, executor);
}

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                         const aclTensor* yOut, const aclTensor* rstdOut, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    return aclcpu::ops::rms_norm(x, gamma, epsilon, yOut, rstdOut, workspaceSize, executor);
}

#define ACLCPU_LAYER_NORM_ARGS \
    const aclTensor *input, const aclIntArray *normalizedShape, const aclTensor *weightOptional, \
        const aclTensor *biasOptional, double eps, aclTensor *out, aclTensor *meanOutOptional, \
        aclTensor *rstdOutOptional
#define ACLCPU_LAYER_NORM_TENSORS \
    { input, normalizedShape, weightOptional, biasOptional, out, meanOutOptional, rstdOutOptional }

aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(ACLCPU_LAYER_NORM_ARGS, int32_t implMode,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::layer_norm(ACLCPU_LAYER_NORM_TENSORS, eps, implMode, workspaceSize, executor);
}

aclnnStatus aclnnLayerNormGetWorkspaceSize(ACLCPU_LAYER_NORM_ARGS, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::layer_norm(ACLCPU_LAYER_NORM_TENSORS, eps, 0, workspaceSize, executor);
}

/// CANN's FastLayerNorm (aclnn_fast_layer_norm.cpp) runs the same checks in
/// the same order but for implMode; acl-cpu computes it as LayerNorm.
aclnnStatus aclnnFastLayerNormGetWorkspaceSize(ACLCPU_LAYER_NORM_ARGS, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
    return aclcpu::ops::layer_norm(ACLCPU_LAYER_NORM_TENSORS, eps, 0, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnSoftmax)
ACLCPU_DEFINE_PHASE2(aclnnLogSoftmax)
ACLCPU_DEFINE_PHASE2(aclnnRmsNorm)
ACLCPU_DEFINE_PHASE2(aclnnLayerNorm)
ACLCPU_DEFINE_PHASE2(aclnnLayerNormWithImplMode)
ACLCPU_DEFINE_PHASE2(aclnnFastLayerNorm)
