// acl-cpu: the row operators of ops-nn -- aclnnSoftmax (activation/softmax_v2),
// aclnnLogSoftmax (activation/log_softmax_v2) and aclnnRmsNorm (norm/rms_norm)
// -- on the row engine (common/rows.hpp).
//
// Each entry checks in CANN's order (op_api/aclnn_<op>.cpp; RmsNorm's op_api
// is not published: its doc's constraints, in argument order), then
// acl-cpu's own guards (workspaceSize/executor pointers, views inside their
// storage), then plans the rows.  DOUBLE is computed at FLOAT, as every
// acl-cpu kernel does.
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/rows.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kSoftmaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeList kRmsNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

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
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{x, "x"}, {gamma, "gamma"}}, kRmsNormDtypes));
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

/// The doc's shapes: x of rank 1-8, gamma = x's last gamma-rank dims
/// (fewer than x's), yOut = x, rstdOut = x with those dims 1.
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
    Dims rstdShape = xShape;
    for (size_t d = rows; d < rstdShape.size(); ++d) rstdShape[d] = 1;
    return check_shape_is(rstd, "rstdOut", rstdShape);
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

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnSoftmax)
ACLCPU_DEFINE_PHASE2(aclnnLogSoftmax)
ACLCPU_DEFINE_PHASE2(aclnnRmsNorm)
