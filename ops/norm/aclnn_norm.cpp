// acl-cpu: the row operators of ops-nn -- aclnnSoftmax (activation/softmax_v2),
// aclnnLogSoftmax (activation/log_softmax_v2), aclnnSoftmaxBackward
// (activation/softmax_grad), aclnnLogSoftmaxBackward (activation/
// log_softmax_grad), aclnnRmsNorm (norm/rms_norm),
// aclnnLayerNorm (norm/layer_norm_v4), aclnnAddRmsNorm (norm/add_rms_norm),
// aclnnGroupNorm (norm/group_norm) and aclnnSoftmaxCrossEntropyWithLogits
// (activation/softmax_cross_entropy_with_logits) -- on the row engine
// (common/rows.hpp).
//
// Each entry checks in CANN's order (op_api/aclnn_<op>.cpp; RmsNorm's op_api
// is not published: its doc's constraints, in argument order), then
// acl-cpu's own guards (workspaceSize/executor pointers, views inside their
// storage), then plans the rows.  DOUBLE is computed at FLOAT, as every
// acl-cpu kernel does.
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/rows.hpp"
#include "common/unary.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

namespace aclcpu::ops {
namespace {

constexpr DtypeList kSoftmaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeList kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// Hands back a RowKernel over x's rows of `length` elements (x not empty).
aclnnStatus hand_back_rows(const char* opName, const RowPlan& plan, const RowOperands& operands, TensorSpan inputs,
                           TensorSpan outputs, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return hand_back_kernel<RowKernel>(inputs, outputs, 0, workspaceSize, executor, opName, plan, operands);
}

/// The plan of a normalisation over rows x length: epsilon, the result
/// rounded into x's dtype.
RowPlan plan_norm(RowFunction function, int64_t rows, int64_t length, double epsilon, const aclTensor* x) {
    RowPlan plan = plan_rows(function, rows, length, soc_profile());
    plan.epsilon = static_cast<float>(epsilon);
    plan.resultDtype = view_of(x).dtype;
    return plan;
}

/// Operands reading x and writing y over their own views; the operator
/// adds the others.
RowOperands x_to_y(const aclTensor* x, const aclTensor* y) {
    RowOperands operands;
    operands.x = StridedLayout::of(view_of(x));
    operands.y = StridedLayout::of(view_of(y));
    return operands;
}

/// Appends an optional operand, when given, to a launch's tensors: its
/// slot there, -1 when null.
int append_optional(std::vector<const aclTensor*>& tensors, const aclTensor* tensor) {
    if (tensor == nullptr) return -1;
    tensors.push_back(tensor);
    return static_cast<int>(tensors.size()) - 1;
}

/// An optional operand's layout over its own shape (unused when null).
StridedLayout layout_if_given(const aclTensor* tensor) {
    return tensor != nullptr ? StridedLayout::of(view_of(tensor)) : StridedLayout{};
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

/// The softmax family's plan: rows along dim (moved last), self read (and
/// other, the backward operators' forward output, when given), out written.
aclnnStatus hand_back_softmax(const char* opName, RowFunction function, const aclTensor* self, const aclTensor* other,
                              int64_t dim, aclTensor* out, aclDataType inputDtype, aclDataType resultDtype,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    std::vector<const aclTensor*> inputs = {self};
    if (other != nullptr) inputs.push_back(other);
    const TensorList outputs = {out};
    if (is_empty(self) || (other != nullptr && is_empty(other))) {
        return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {out, "out"}}));
    const size_t rank = view_of(self).shape.size();
    const auto axis = static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(rank) : dim);
    const auto rows_view = [&](const aclTensor* tensor) {
        return rank == 0 ? view_of(tensor) : with_dim_last(view_of(tensor), axis);
    };
    const int64_t length = rank == 0 ? 1 : view_of(self).shape[axis];
    RowOperands operands;
    operands.x = StridedLayout::of(rows_view(self));
    operands.y = StridedLayout::of(rows_view(out));
    if (other != nullptr) {
        operands.other = StridedLayout::of(rows_view(other));
        operands.otherSlot = 1;
    }
    RowPlan plan = plan_rows(function, operands.x.numel() / length, length, soc_profile());
    plan.inputDtype = inputDtype;
    plan.resultDtype = resultDtype;
    return hand_back_rows(opName, plan, operands, inputs, outputs, workspaceSize, executor);
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
    return hand_back_softmax("aclnnSoftmax", RowFunction::kSoftmax, self, nullptr, dim, out, ACL_FLOAT,
                             view_of(self).dtype, workspaceSize, executor);
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
    return hand_back_softmax("aclnnLogSoftmax", RowFunction::kLogSoftmax, self, nullptr, dim, out, outDtype, outDtype,
                             workspaceSize, executor);
}

// --- SoftmaxBackward and LogSoftmaxBackward ---------------------------------

constexpr DtypeList kSoftmaxBackwardDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// Both op_apis end alike: SoftmaxGrad / LogSoftmaxGrad compute in
/// gradOutput's dtype, then Cast into out -- of any dtype a Cast kernel
/// takes (the op_apis check none).
aclnnStatus hand_back_softmax_backward(const char* opName, RowFunction function, const aclTensor* gradOutput,
                                       const aclTensor* output, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
    const aclDataType gradDtype = view_of(gradOutput).dtype;
    if (!is_empty(gradOutput) && !is_empty(output)) {
        ACLCPU_RETURN_IF_ERROR(check_cast_kernel(opName, out, "out"));
        ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{gradOutput, "gradOutput"}, {output, "output"}, {out, "out"}}));
    }
    return hand_back_softmax(opName, function, gradOutput, output, dim, out, ACL_FLOAT, gradDtype, workspaceSize,
                             executor);
}

/// aclnn_softmax_backward.cpp CheckParams: null (gradOutput, output, out);
/// either input empty -> success; dtypes (gradOutput, output, then output
/// of gradOutput's); dim; rank <= 8, then output's and out's shapes.
aclnnStatus softmax_backward(const aclTensor* gradOutput, const aclTensor* output, int64_t dim, aclTensor* out,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {output, "output"}, {out, "out"}}));
    if (!is_empty(gradOutput) && !is_empty(output)) {
        ACLCPU_RETURN_IF_ERROR(
            check_dtype_supported({{gradOutput, "gradOutput"}, {output, "output"}}, kSoftmaxBackwardDtypes));
        ACLCPU_RETURN_IF_ERROR(check_same_dtype(output, "output", gradOutput, "gradOutput"));
        ACLCPU_RETURN_IF_ERROR(check_softmax_dim(gradOutput, dim));
        ACLCPU_RETURN_IF_ERROR(check_max_dim(gradOutput, "gradOutput"));
        ACLCPU_RETURN_IF_ERROR(check_same_shape(gradOutput, "gradOutput", output, "output"));
        ACLCPU_RETURN_IF_ERROR(check_same_shape(gradOutput, "gradOutput", out, "out"));
    }
    return hand_back_softmax_backward("aclnnSoftmaxBackward", RowFunction::kSoftmaxBackward, gradOutput, output, dim,
                                      out, workspaceSize, executor);
}

/// aclnn_logsoftmax_backward.cpp CheckParams: null (output, gradOutput,
/// out); either input empty -> success; dtypes (output, gradOutput, then the
/// same); ranks <= 8, output's and out's shapes; then dim.
aclnnStatus log_softmax_backward(const aclTensor* gradOutput, const aclTensor* output, int64_t dim, aclTensor* out,
                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{output, "output"}, {gradOutput, "gradOutput"}, {out, "out"}}));
    if (!is_empty(gradOutput) && !is_empty(output)) {
        ACLCPU_RETURN_IF_ERROR(
            check_dtype_supported({{output, "output"}, {gradOutput, "gradOutput"}}, kSoftmaxBackwardDtypes));
        ACLCPU_RETURN_IF_ERROR(check_same_dtype(gradOutput, "gradOutput", output, "output"));
        ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {output, "output"}}));
        ACLCPU_RETURN_IF_ERROR(check_same_shape(gradOutput, "gradOutput", output, "output"));
        ACLCPU_RETURN_IF_ERROR(check_same_shape(gradOutput, "gradOutput", out, "out"));
        ACLCPU_RETURN_IF_ERROR(check_softmax_dim(gradOutput, dim));
    }
    return hand_back_softmax_backward("aclnnLogSoftmaxBackward", RowFunction::kLogSoftmaxBackward, gradOutput, output,
                                      dim, out, workspaceSize, executor);
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

/// gamma's shape is x's last gamma-rank dims, of a rank below x's (or at
/// most x's when sameRankFits); *rows = the product of x's other dims.
aclnnStatus check_gamma_trails(const aclTensor* x, const char* xName, const aclTensor* gamma, bool sameRankFits,
                               int64_t* rows) {
    const Dims& xShape = view_of(x).shape;
    const Dims& gammaShape = view_of(gamma).shape;
    const size_t rowDims = xShape.size() - std::min(gammaShape.size(), xShape.size());
    bool gammaFits = !gammaShape.empty() && gammaShape.size() + (sameRankFits ? 0 : 1) <= xShape.size();
    for (size_t d = 0; gammaFits && d < gammaShape.size(); ++d) gammaFits = gammaShape[d] == xShape[rowDims + d];
    if (!gammaFits) {
        report_error(ACLNN_ERR_PARAM_INVALID, kAclnnParamTag, "gamma's shape %s should be the last dims of %s's shape %s%s.",
                     shape_string(gammaShape).c_str(), xName, shape_string(xShape).c_str(),
                     sameRankFits ? "" : ", fewer than x's");
        return ACLNN_ERR_PARAM_INVALID;
    }
    // Sizes are not yet known to fit in int64 (check_view_in_storage comes last).
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(x, xName));
    *rows = std::accumulate(xShape.begin(), xShape.begin() + static_cast<std::ptrdiff_t>(rowDims), int64_t{1},
                            std::multiplies<>());
    return ACLNN_SUCCESS;
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
    int64_t rows = 0;
    ACLCPU_RETURN_IF_ERROR(check_gamma_trails(x, "x", gamma, false, &rows));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(y, "yOut", view_of(x).shape));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(rstd, "rstdOut"));
    return check_stat_size(rstd, "rstdOut", rows);
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
    RowPlan plan = plan_norm(RowFunction::kRmsNorm, StridedLayout::of(view_of(x)).numel() / length, length, epsilon, x);
    RowOperands operands = x_to_y(x, y);
    operands.gamma = StridedLayout::of(view_of(gamma));
    operands.rstd = StridedLayout::of(view_of(rstd));
    operands.gammaSlot = 1;
    operands.rstdSlot = 1;
    return hand_back_rows("aclnnRmsNorm", plan, operands, inputs, outputs, workspaceSize, executor);
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
    RowOperands operands = x_to_y(a.input, a.out);
    operands.gammaSlot = append_optional(inputs, a.weight);
    operands.betaSlot = append_optional(inputs, a.bias);
    operands.meanSlot = append_optional(outputs, a.mean);
    operands.rstdSlot = append_optional(outputs, a.rstd);
    if (rows == 0) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_stat_size(a.mean, "meanOutOptional", rows));
    ACLCPU_RETURN_IF_ERROR(check_stat_size(a.rstd, "rstdOutOptional", rows));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{a.input, "input"}, {a.out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_given_views_in_storage({{a.weight, "weightOptional"}, {a.bias, "biasOptional"},
                                                         {a.mean, "meanOutOptional"}, {a.rstd, "rstdOutOptional"}}));
    RowPlan plan = plan_norm(RowFunction::kLayerNorm, rows, length, eps, a.input);
    operands.gamma = layout_if_given(a.weight);
    operands.beta = layout_if_given(a.bias);
    operands.mean = layout_if_given(a.mean);
    operands.rstd = layout_if_given(a.rstd);
    return hand_back_rows("aclnnLayerNorm", plan, operands, inputs, outputs, workspaceSize, executor);
}

// --- AddRmsNorm -------------------------------------------------------------

/// aclnn_add_rms_norm.cpp's modes, from the outputs given: xOut without
/// rstdOut PRE_RMS_NORM (fp16/bf16 only, rstd not written), neither
/// POST_RMS_NORM (y only); otherwise ADD_RMS_NORM (all three required).
enum class AddRmsNormMode : uint8_t { kAdd, kPre, kPost };

struct AddRmsNormArgs {
    const aclTensor* x1;
    const aclTensor* x2;
    const aclTensor* gamma;
    const aclTensor* y;
    const aclTensor* rstd;
    const aclTensor* xOut;
    AddRmsNormMode mode;
};

constexpr DtypeList kPrePostRmsNormDtypes = {ACL_FLOAT16, ACL_BF16};

/// CheckDtypeValid: the mode's list for x1, x2, gamma (one dtype), yOut,
/// xOut (yOut's); rstdOut FLOAT.
aclnnStatus check_add_rms_norm_dtypes(const AddRmsNormArgs& a) {
    const DtypeList supported = a.mode == AddRmsNormMode::kAdd ? kNormDtypes : kPrePostRmsNormDtypes;
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{a.x1, "x1"}, {a.x2, "x2"}, {a.gamma, "gamma"}}, supported));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(a.x1, "x1", a.x2, "x2"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(a.x1, "x1", a.gamma, "gamma"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(a.y, "yOut", supported));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(a.y, "yOut", a.x1, "x1"));
    if (a.mode == AddRmsNormMode::kPost) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(a.xOut, "xOut", supported));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(a.xOut, "xOut", a.y, "yOut"));
    return a.mode == AddRmsNormMode::kAdd ? check_dtype_is(a.rstd, "rstdOut", ACL_FLOAT) : ACLNN_SUCCESS;
}

/// CheckShapeDim: ranks 1-8, x2, yOut and xOut of x1's shape; gamma of
/// rank <= 2 in the PRE and POST modes.
aclnnStatus check_add_rms_norm_ranks(const AddRmsNormArgs& a) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{a.x1, "x1"}, {a.x2, "x2"}, {a.gamma, "gamma"}}));
    ACLCPU_RETURN_IF_ERROR(check_min_dim(a.x1, "x1", 1));
    ACLCPU_RETURN_IF_ERROR(check_min_dim(a.x2, "x2", 1));
    ACLCPU_RETURN_IF_ERROR(check_min_dim(a.gamma, "gamma", 1));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(a.x1, "x1", a.x2, "x2"));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(a.y, "yOut"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(a.x1, "x1", a.y, "yOut"));
    if (a.mode == AddRmsNormMode::kAdd) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.rstd, "rstdOut"));
    if (a.mode != AddRmsNormMode::kAdd) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.gamma, "gamma", 2));
    if (a.mode == AddRmsNormMode::kPost) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_max_dim(a.xOut, "xOut"));
    return check_same_shape(a.x1, "x1", a.xOut, "xOut");
}

/// aclnn_add_rms_norm.cpp: null, dtypes, ranks; x1 or gamma empty ->
/// success.  Then acl-cpu's guards: gamma = x1's last dims (CANN's tiling
/// holds it to that), rstdOut one element per row.  The kernel
/// (op_kernel/add_rms_norm.h) adds fp16 in fp16 and bf16 in fp32 (rounded
/// only into xOut), then normalises the sum in fp32.
aclnnStatus add_rms_norm(const AddRmsNormArgs& a, double epsilon, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{a.x1, "x1"}, {a.x2, "x2"}, {a.gamma, "gamma"}, {a.y, "yOut"}}));
    if (a.mode == AddRmsNormMode::kAdd) ACLCPU_RETURN_IF_ERROR(check_not_null({{a.rstd, "rstdOut"}, {a.xOut, "xOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_add_rms_norm_dtypes(a));
    ACLCPU_RETURN_IF_ERROR(check_add_rms_norm_ranks(a));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    std::vector<const aclTensor*> inputs = {a.x1, a.x2, a.gamma};
    std::vector<const aclTensor*> outputs = {a.y};
    RowOperands operands = x_to_y(a.x1, a.y);
    operands.otherSlot = 1;
    operands.gammaSlot = 2;
    operands.rstdSlot = append_optional(outputs, a.rstd);
    operands.sumSlot = append_optional(outputs, a.xOut);
    if (is_empty(a.x1) || is_empty(a.gamma)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    int64_t rows = 0;
    ACLCPU_RETURN_IF_ERROR(check_gamma_trails(a.x1, "x1", a.gamma, true, &rows));
    ACLCPU_RETURN_IF_ERROR(check_given_views_in_storage({{a.x2, "x2"}, {a.gamma, "gamma"}, {a.y, "yOut"},
                                                         {a.rstd, "rstdOut"}, {a.xOut, "xOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_stat_size(a.rstd, "rstdOut", rows));
    const aclDataType dtype = view_of(a.x1).dtype;
    RowPlan plan =
        plan_norm(RowFunction::kAddRmsNorm, rows, StridedLayout::of(view_of(a.gamma)).numel(), epsilon, a.x1);
    plan.inputDtype = dtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT;
    operands.other = StridedLayout::of(view_of(a.x2));
    operands.gamma = StridedLayout::of(view_of(a.gamma));
    operands.rstd = layout_if_given(a.rstd);
    operands.sum = layout_if_given(a.xOut);
    return hand_back_rows("aclnnAddRmsNorm", plan, operands, inputs, outputs, workspaceSize, executor);
}

// --- GroupNorm --------------------------------------------------------------

struct GroupNormArgs {
    const aclTensor* self;
    const aclTensor* gamma;
    const aclTensor* beta;
    int64_t n;
    int64_t c;
    int64_t hxw;
    int64_t group;
    const aclTensor* out;
    const aclTensor* mean;
    const aclTensor* rstd;
};

/// CheckDtypeValid: self FLOAT16, BF16 or FLOAT (A2), every other tensor self's.
aclnnStatus check_group_norm_dtypes(const GroupNormArgs& a) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(a.self, "self", kNormDtypes));
    const aclDataType dtype = view_of(a.self).dtype;
    if (a.gamma != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype_is(a.gamma, "gamma", dtype));
    if (a.beta != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype_is(a.beta, "beta", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(a.out, "out", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(a.mean, "meanOut", dtype));
    return check_dtype_is(a.rstd, "rstdOut", dtype);
}

/// CheckAttr: group > 0 dividing C, eps > 0.
aclnnStatus check_group_norm_attrs(const GroupNormArgs& a, double eps) {
    if (a.group <= 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected group to be greater than 0, got %ld.",
                           static_cast<long>(a.group));
    }
    if (a.c % a.group != 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected number of channels in input to be divisible by group, "
                           "but got input of shape %s and group=%ld.", shape_string(view_of(a.self).shape).c_str(),
                           static_cast<long>(a.group));
    }
    if (!(eps > 0.0)) return param_error(ACLNN_ERR_PARAM_INVALID, "Expected eps to be greater than 0, got %lf.", eps);
    return ACLNN_SUCCESS;
}

/// gamma or beta (when given) a vector of C elements.
aclnnStatus check_channel_vector(const aclTensor* tensor, const char* name, const GroupNormArgs& a) {
    if (tensor == nullptr) return ACLNN_SUCCESS;
    const Dims& shape = view_of(tensor).shape;
    if (shape.size() == 1 && shape[0] == a.c) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Expected %s to be a vector of size equal to the number of channels "
                       "in input, but got %s of shape %s and input of shape %s.", name, name,
                       shape_string(shape).c_str(), shape_string(view_of(a.self).shape).c_str());
}

/// CheckShape: self of rank 2-8, out self's shape, meanOut and rstdOut
/// (N, group), self (N, C, HxW...) with N * C * HxW elements, gamma and
/// beta of C.  Products wrap as CANN's int64 arithmetic would not be asked to.
aclnnStatus check_group_norm_shapes(const GroupNormArgs& a) {
    ACLCPU_RETURN_IF_ERROR(check_min_dim(a.self, "self", 2));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(a.self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(a.out, "out", a.self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(a.mean, "meanOut", Dims{a.n, a.group}));
    ACLCPU_RETURN_IF_ERROR(check_shape_is(a.rstd, "rstdOut", Dims{a.n, a.group}));
    const Dims& shape = view_of(a.self).shape;
    if (shape[0] != a.n) return param_error(ACLNN_ERR_PARAM_INVALID, "Expected self.shape[0] == N to be true, but got false.");
    if (shape[1] != a.c) return param_error(ACLNN_ERR_PARAM_INVALID, "Expected self.shape[1] == C to be true, but got false.");
    uint64_t spatial = 1;
    for (size_t d = 2; d < shape.size(); ++d) spatial *= static_cast<uint64_t>(shape[d]);
    if (spatial != static_cast<uint64_t>(a.hxw)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected the size of self outside the N and C dimensions == HxW "
                           "to be true, but got false.");
    }
    const uint64_t expected = static_cast<uint64_t>(a.n) * static_cast<uint64_t>(a.c) * static_cast<uint64_t>(a.hxw);
    if (spatial * static_cast<uint64_t>(shape[0]) * static_cast<uint64_t>(shape[1]) != expected) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected self.numel() == N * C * HxW to be true, but got false.");
    }
    ACLCPU_RETURN_IF_ERROR(check_channel_vector(a.gamma, "gamma", a));
    return check_channel_vector(a.beta, "beta", a);
}

/// CheckFormat: self and out of one format, not a private one nor NHWC,
/// HWCN or NDHWC.
aclnnStatus check_group_norm_format(const GroupNormArgs& a) {
    const aclFormat format = format_of(a.self);
    if (format != format_of(a.out)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of self and out should be equal, but got self [%s], out [%s]",
                           format_name(format), format_name(format_of(a.out)));
    }
    switch (format) {
        case ACL_FORMAT_ND: case ACL_FORMAT_NCHW: case ACL_FORMAT_NCL: case ACL_FORMAT_NCDHW: return ACLNN_SUCCESS;
        default: return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND、NCL、NCHW、NCDHW.");
    }
}

/// A per-channel vector read over self's [N, C, ...] space: each group's
/// row sees its channels' values, channel by channel.
StridedLayout per_channel(const aclTensor* vector, const Dims& selfShape) {
    TensorView view = view_of(vector);
    view.shape.resize(selfShape.size() - 1);
    view.strides.resize(selfShape.size() - 1);  // the new dims: size 1, stride 0
    for (size_t d = 1; d < view.shape.size(); ++d) view.shape[d] = 1;
    return StridedLayout::broadcast_to(view, selfShape);
}

/// aclnn_group_norm.cpp: null, dtypes, attrs, shapes, format.  Rows are
/// (sample, group): C / group channels of HxW elements, contiguous in
/// self's row-major order; an empty self gives mean 0 and rstd NaN
/// (FillScalar), as LayerNorm's rows of no element.  GroupNormSilu
/// computes in fp32 and writes y, mean and rstd in self's dtype.
aclnnStatus group_norm(const GroupNormArgs& a, double eps, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{a.self, "self"}, {a.out, "out"}, {a.mean, "meanOut"}, {a.rstd, "rstdOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_group_norm_dtypes(a));
    ACLCPU_RETURN_IF_ERROR(check_group_norm_attrs(a, eps));
    ACLCPU_RETURN_IF_ERROR(check_group_norm_shapes(a));
    ACLCPU_RETURN_IF_ERROR(check_group_norm_format(a));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    std::vector<const aclTensor*> inputs = {a.self};
    const std::vector<const aclTensor*> outputs = {a.out, a.mean, a.rstd};
    RowOperands operands = x_to_y(a.self, a.out);
    operands.affinePerRow = true;
    operands.gammaSlot = append_optional(inputs, a.gamma);
    operands.betaSlot = append_optional(inputs, a.beta);
    // Before N * group: meanOut's view bounds it.
    ACLCPU_RETURN_IF_ERROR(check_given_views_in_storage({{a.self, "self"}, {a.gamma, "gamma"}, {a.beta, "beta"},
                                                         {a.out, "out"}, {a.mean, "meanOut"}, {a.rstd, "rstdOut"}}));
    const int64_t rows = a.n * a.group;
    if (rows == 0) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    const Dims& shape = view_of(a.self).shape;
    RowPlan plan = plan_norm(RowFunction::kLayerNorm, rows, a.c / a.group * a.hxw, eps, a.self);
    if (a.gamma != nullptr) operands.gamma = per_channel(a.gamma, shape);
    if (a.beta != nullptr) operands.beta = per_channel(a.beta, shape);
    operands.mean = StridedLayout::of(view_of(a.mean));
    operands.rstd = StridedLayout::of(view_of(a.rstd));
    operands.meanSlot = 1;
    operands.rstdSlot = 2;
    return hand_back_rows("aclnnGroupNorm", plan, operands, inputs, outputs, workspaceSize, executor);
}

// --- SoftmaxCrossEntropyWithLogits ------------------------------------------

/// aclnn_softmax_cross_entropy_with_logits.cpp CheckParams: null; dtypes
/// (A2: FLOAT16, FLOAT, BF16; loss and backprop features'); ranks <= 8,
/// features and labels 2-D (the message logs 161001's name but returns
/// 161002); features or labels empty -> success.  Then acl-cpu's guards:
/// labels and backprop of features' shape, loss one element per row (the
/// doc's shapes; the op_api checks none).
aclnnStatus softmax_cross_entropy(const aclTensor* features, const aclTensor* labels, const aclTensor* loss,
                                  const aclTensor* backprop, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{features, "features"}, {labels, "labels"}, {loss, "loss"},
                                           {backprop, "backprop"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{features, "features"}, {labels, "labels"}, {loss, "loss"},
                                                  {backprop, "backprop"}}, kNormDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(loss, "loss", view_of(features).dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(backprop, "backprop", view_of(features).dtype));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{features, "features"}, {labels, "labels"}, {loss, "loss"},
                                          {backprop, "backprop"}}));
    const Dims& shape = view_of(features).shape;
    if (shape.size() != 2 || view_of(labels).shape.size() != 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "dimNum is %ld, must be 2, but check failed.",
                           static_cast<long>(shape.size()));
    }
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    const TensorList inputs = {features, labels};
    const TensorList outputs = {backprop, loss};
    if (is_empty(features) || is_empty(labels)) return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    ACLCPU_RETURN_IF_ERROR(check_same_shape(labels, "labels", features, "features"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(backprop, "backprop", features, "features"));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{features, "features"}, {labels, "labels"}, {loss, "loss"},
                                                  {backprop, "backprop"}}));
    ACLCPU_RETURN_IF_ERROR(check_stat_size(loss, "loss", shape[0]));
    RowPlan plan = plan_norm(RowFunction::kSoftmaxCrossEntropy, shape[0], shape[1], 0, features);
    RowOperands operands = x_to_y(features, backprop);
    operands.other = StridedLayout::of(view_of(labels));
    operands.loss = StridedLayout::of(view_of(loss));
    operands.otherSlot = 1;
    operands.lossSlot = 1;
    return hand_back_rows("aclnnSoftmaxCrossEntropyWithLogits", plan, operands, inputs, outputs, workspaceSize,
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

aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim,
                                                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::softmax_backward(gradOutput, output, dim, out, workspaceSize, executor);
}

aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    return aclcpu::ops::log_softmax_backward(gradOutput, output, dim, out, workspaceSize, executor);
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

aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                            double epsilon, aclTensor* yOut, aclTensor* rstdOut, aclTensor* xOut,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    using aclcpu::ops::AddRmsNormMode;
    AddRmsNormMode mode = AddRmsNormMode::kAdd;
    if (rstdOut == nullptr) mode = xOut != nullptr ? AddRmsNormMode::kPre : AddRmsNormMode::kPost;
    return aclcpu::ops::add_rms_norm({x1, x2, gamma, yOut, rstdOut, xOut, mode}, epsilon, workspaceSize, executor);
}

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma, const aclTensor* beta,
                                           int64_t N, int64_t C, int64_t HxW, int64_t group, double eps, aclTensor* out,
                                           aclTensor* meanOut, aclTensor* rstdOut, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
    return aclcpu::ops::group_norm({self, gamma, beta, N, C, HxW, group, out, meanOut, rstdOut}, eps, workspaceSize,
                                   executor);
}

aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features, aclTensor* labels,
                                                               aclTensor* loss, aclTensor* backprop,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::softmax_cross_entropy(features, labels, loss, backprop, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnSoftmax)
ACLCPU_DEFINE_PHASE2(aclnnLogSoftmax)
ACLCPU_DEFINE_PHASE2(aclnnSoftmaxBackward)
ACLCPU_DEFINE_PHASE2(aclnnLogSoftmaxBackward)
ACLCPU_DEFINE_PHASE2(aclnnRmsNorm)
ACLCPU_DEFINE_PHASE2(aclnnLayerNorm)
ACLCPU_DEFINE_PHASE2(aclnnLayerNormWithImplMode)
ACLCPU_DEFINE_PHASE2(aclnnFastLayerNorm)
ACLCPU_DEFINE_PHASE2(aclnnAddRmsNorm)
ACLCPU_DEFINE_PHASE2(aclnnGroupNorm)
ACLCPU_DEFINE_PHASE2(aclnnSoftmaxCrossEntropyWithLogits)
