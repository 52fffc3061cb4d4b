// acl-cpu: aclnnCrossEntropyLoss and aclnnCrossEntropyLossGrad, CANN's
// generated wrappers of the CrossEntropyLoss and CrossEntropyLossGrad
// operators (ops-nn loss/cross_entropy_loss, loss/cross_entropy_loss_grad:
// op_host/*_def.cpp, *_infershape.cpp, *_tiling.cpp; no op_api).
//
// CANN generates each wrapper from the OpDef: null required tensors
// (161001), dtypes outside the A2 configuration (161002: input, its
// outputs and gradLoss one of FLOAT16, FLOAT, BF16; target INT64; weight
// FLOAT).  Its check order is not public; acl-cpu checks the
// workspaceSize/executor pointers first, as for the other generated
// wrappers.  Then the infershape's ranks and the tiling's attributes and
// shapes, each a tiling failure (561002, the doc's code for shapes and
// values).  zlossOut and lseForZlossOut are required but not computed on
// A2 (the doc: "当前暂不支持"); they are not written.
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "aclcpu/soc_profile.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/reduction.hpp"
#include "common/rows.hpp"
#include "loss/cross_entropy_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16};

__attribute__((format(printf, 2, 3))) aclnnStatus tiling_error(const char* op, const char* format, ...) {
    char message[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    report_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag, "%s tiling failed: %s", op, message);
    return ACLNN_ERR_INNER_TILING_ERROR;
}

/// The reduction attribute (a null string is the OpDef's default, "mean");
/// anything else -> 561002, as GetTilingAttr's OP_LOGE_FOR_INVALID_VALUE.
aclnnStatus parse_reduction(const char* op, const char* text, NllReduction* reduction) {
    const char* value = text == nullptr ? "mean" : text;
    if (std::strcmp(value, "mean") == 0) *reduction = NllReduction::kMean;
    else if (std::strcmp(value, "sum") == 0) *reduction = NllReduction::kSum;
    else if (std::strcmp(value, "none") == 0) *reduction = NllReduction::kNone;
    else return tiling_error(op, "reduction should be in ['none', 'mean', 'sum'].");
    return ACLNN_SUCCESS;
}

/// The dtypes of the A2 configuration: the given tensors of `data` of one
/// listed dtype (the first's), target INT64, weight (when given) FLOAT.
aclnnStatus check_dtypes(NamedArgs data, const aclTensor* target, const aclTensor* weight) {
    const NamedArg& first = *data.begin();
    for (const NamedArg& arg : data) {
        if (arg.tensor == nullptr) continue;
        ACLCPU_RETURN_IF_ERROR(check_dtype_supported(arg.tensor, arg.name, kDtypes));
        ACLCPU_RETURN_IF_ERROR(check_same_dtype(arg.tensor, arg.name, first.tensor, first.name));
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(target, "target", ACL_INT64));
    return weight == nullptr ? ACLNN_SUCCESS : check_dtype_is(weight, "weight", ACL_FLOAT);
}

/// The infershape's ranks (x 2-D, target and weight 1-D) and the tiling's
/// CheckInputShape: target of x's rows, weight of its classes; and the
/// regbase tiling's "C cannot be zero" for rows of no class.
aclnnStatus check_rows_shapes(const char* op, const char* x, const Dims& input, const Dims& target,
                              const aclTensor* weight) {
    if (input.size() != 2) return tiling_error(op, "%s should be 2-dimensional.", x);
    if (target.size() != 1) return tiling_error(op, "target should be 1-dimensional.");
    if (target[0] != input[0]) {
        return tiling_error(op, "The dim 0 of input should be same as the shape size of target (%ld and %ld).",
                            static_cast<long>(input[0]), static_cast<long>(target[0]));
    }
    if (weight != nullptr) {
        const Dims& w = view_of(weight).shape;
        if (w.size() != 1 || w[0] != input[1]) {
            return tiling_error(op, "The dim 1 of input should be same as the shape size of weight (%ld classes).",
                                static_cast<long>(input[1]));
        }
    }
    if (input[0] != 0 && input[1] == 0) {
        return tiling_error(op, "The C-dimension of x cannot be zero, when the N-dimension of x is not zero.");
    }
    return ACLNN_SUCCESS;
}

/// acl-cpu's guard: an output of the infershape's shape (CANN writes the
/// kernel's result into it as laid out).
aclnnStatus check_output_shape(const char* op, const aclTensor* out, const char* name, const Dims& expected) {
    if (view_of(out).shape == expected) return ACLNN_SUCCESS;
    report_error(ACLNN_ERR_INNER_TILING_ERROR, kAclnnInnerTag, "%s tiling failed: %s should have shape %s, but got %s.",
                 op, name, shape_string(expected).c_str(), shape_string(view_of(out).shape).c_str());
    return ACLNN_ERR_INNER_TILING_ERROR;
}

CrossEntropyRows cross_entropy_rows(const aclTensor* input, const aclTensor* target, const aclTensor* weight,
                                    int weightSlot, NllReduction reduction, int64_t ignoreIndex, double smoothing) {
    CrossEntropyRows rows;
    rows.target = StridedLayout::of(view_of(target));
    if (weight != nullptr) {
        rows.weight = StridedLayout::of(view_of(weight));
        rows.weightSlot = weightSlot;
    }
    rows.rows = view_of(input).shape[0];
    rows.classes = view_of(input).shape[1];
    rows.ignoreIndex = ignoreIndex;
    rows.reduction = reduction;
    rows.labelSmoothing = static_cast<float>(smoothing);
    rows.dtype = view_of(input).dtype;
    rows.blocks = plan_nll_rows(rows.rows);
    return rows;
}

/// A row-engine kernel over rows x classes, x and other read, y written.
std::shared_ptr<const OpKernel> row_kernel(const char* api, RowFunction function, const CrossEntropyRows& rows,
                                           RowOperands operands, aclDataType result) {
    RowPlan plan = plan_rows(function, rows.rows, rows.classes, soc_profile());
    plan.inputDtype = operands.x.dtype();
    plan.resultDtype = result;
    try {
        return std::make_shared<RowKernel>(api, plan, operands);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

aclnnStatus cross_entropy_loss(const aclTensor* input, const aclTensor* target, const aclTensor* weight,
                               const char* reductionText, int64_t ignoreIndex, double labelSmoothing,
                               const aclTensor* loss, const aclTensor* logProb, const aclTensor* zloss,
                               const aclTensor* lse, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* op = "CrossEntropyLoss";
    const char* api = "aclnnCrossEntropyLoss";
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{input, "input"}, {target, "target"}, {loss, "lossOut"},
                                           {logProb, "logProbOut"}, {zloss, "zlossOut"},
                                           {lse, "lseForZlossOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtypes({{input, "input"}, {loss, "lossOut"}, {logProb, "logProbOut"},
                                         {zloss, "zlossOut"}, {lse, "lseForZlossOut"}},
                                        target, weight));
    NllReduction reduction = NllReduction::kMean;
    ACLCPU_RETURN_IF_ERROR(parse_reduction(op, reductionText, &reduction));
    if (!(labelSmoothing >= 0.0 && labelSmoothing <= 1.0)) {
        return tiling_error(op, "label_smoothing should be in [0.0, 1.0].");
    }
    const Dims& shape = view_of(input).shape;
    ACLCPU_RETURN_IF_ERROR(check_rows_shapes(op, "input", shape, view_of(target).shape, weight));
    // The infershape's [N] ("none") or [1]; a 0-d lossOut holds a mean too.
    const bool scalarLoss = reduction != NllReduction::kNone && view_of(loss).shape.empty();
    if (!scalarLoss) {
        const Dims lossShape = {reduction == NllReduction::kNone ? shape[0] : 1};
        ACLCPU_RETURN_IF_ERROR(check_output_shape(op, loss, "lossOut", lossShape));
    }
    ACLCPU_RETURN_IF_ERROR(check_output_shape(op, logProb, "logProbOut", shape));
    ACLCPU_RETURN_IF_ERROR(check_given_views_in_storage({{input, "input"}, {target, "target"},
                                                        {weight, "weightOptional"}, {loss, "lossOut"},
                                                        {logProb, "logProbOut"}, {zloss, "zlossOut"},
                                                        {lse, "lseForZlossOut"}}));
    const CrossEntropyRows rows = cross_entropy_rows(input, target, weight, 2, reduction, ignoreIndex, labelSmoothing);
    using Tensors = std::vector<const aclTensor*>;
    const Tensors inputs = weight == nullptr ? Tensors{input, target} : Tensors{input, target, weight};
    const Tensors outputs = {loss, logProb, zloss, lse};
    if (rows.rows == 0 && reduction == NllReduction::kNone) {
        return hand_back_empty_executor(inputs, outputs, workspaceSize, executor);
    }
    std::shared_ptr<const OpKernel> logSoftmax;
    std::shared_ptr<const OpKernel> sum;
    uint64_t reductionBytes = 0;
    if (rows.rows > 0) {
        RowOperands operands;
        operands.x = StridedLayout::of(view_of(input));
        operands.y = StridedLayout::linear(rows.rows * rows.classes, ACL_FLOAT);
        logSoftmax = row_kernel(api, RowFunction::kLogSoftmax, rows, operands, ACL_FLOAT);
        if (logSoftmax == nullptr) return out_of_host_memory();
        if (reduction != NllReduction::kNone) {
            ACLCPU_RETURN_IF_ERROR(plan_row_sums(api, 3, rows.rows, &sum, &reductionBytes));
        }
    }
    const CrossEntropyWorkspace workspace = rows.rows == 0 ? CrossEntropyWorkspace{}
                                                           : CrossEntropyWorkspace::plan(rows.rows, rows.classes, 3,
                                                                                         reductionBytes);
    return hand_back_kernel<CrossEntropyLossKernel>(inputs, outputs, workspace.total, workspaceSize, executor, api,
                                                    rows, std::move(logSoftmax), std::move(sum),
                                                    StridedLayout::of(view_of(loss)),
                                                    StridedLayout::of(view_of(logProb)), workspace);
}

aclnnStatus cross_entropy_loss_grad(const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target,
                                    const aclTensor* weight, const aclTensor* gradZloss, const aclTensor* lse,
                                    const char* reductionText, int64_t ignoreIndex, double labelSmoothing,
                                    const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* op = "CrossEntropyLossGrad";
    const char* api = "aclnnCrossEntropyLossGrad";
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradLoss, "gradLoss"}, {logProb, "logProb"}, {target, "target"},
                                           {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtypes({{gradLoss, "gradLoss"}, {logProb, "logProb"}, {out, "out"},
                                         {gradZloss, "gradZlossOptional"}, {lse, "lseForZlossOptional"}},
                                        target, weight));
    NllReduction reduction = NllReduction::kMean;
    ACLCPU_RETURN_IF_ERROR(parse_reduction(op, reductionText, &reduction));
    // The A2 kernels compute no smoothing term: with labelSmoothing != 0
    // they never write x_grad (ComputeLog casts only when it is 0); the doc
    // says only 0.0 is supported.  acl-cpu refuses it instead of leaving out
    // as it was.
    if (labelSmoothing != 0.0) return tiling_error(op, "label_smoothing only supports 0.0 on this SoC.");
    const Dims& shape = view_of(logProb).shape;
    ACLCPU_RETURN_IF_ERROR(check_rows_shapes(op, "log_prob", shape, view_of(target).shape, weight));
    const Dims gradShape = reduction == NllReduction::kNone ? Dims{shape[0]} : Dims{};
    if (reduction == NllReduction::kNone ? view_of(gradLoss).shape != gradShape : view_of(gradLoss).numel() != 1) {
        return check_output_shape(op, gradLoss, "gradLoss", gradShape);
    }
    ACLCPU_RETURN_IF_ERROR(check_output_shape(op, out, "out", shape));
    ACLCPU_RETURN_IF_ERROR(check_given_views_in_storage({{gradLoss, "gradLoss"}, {logProb, "logProb"},
                                                        {target, "target"}, {weight, "weightOptional"},
                                                        {gradZloss, "gradZlossOptional"},
                                                        {lse, "lseForZlossOptional"}, {out, "out"}}));
    using Tensors = std::vector<const aclTensor*>;
    const Tensors inputs =
        weight == nullptr ? Tensors{gradLoss, logProb, target} : Tensors{gradLoss, logProb, target, weight};
    if (is_empty(logProb)) return hand_back_empty_executor(inputs, {out}, workspaceSize, executor);
    const CrossEntropyRows rows =
        cross_entropy_rows(logProb, target, weight, 3, reduction, ignoreIndex, labelSmoothing);
    RowOperands operands;
    operands.x = StridedLayout::linear(rows.rows * rows.classes, ACL_FLOAT);
    operands.other = StridedLayout::of(view_of(logProb));
    operands.otherSlot = 1;
    operands.y = StridedLayout::of(view_of(out));
    auto backward = row_kernel(api, RowFunction::kLogSoftmaxBackward, rows, operands, view_of(out).dtype);
    std::shared_ptr<const OpKernel> sum;
    uint64_t reductionBytes = 0;
    if (backward == nullptr) return out_of_host_memory();
    if (reduction == NllReduction::kMean) {
        ACLCPU_RETURN_IF_ERROR(plan_row_sums(api, 1, rows.rows, &sum, &reductionBytes));
    }
    const CrossEntropyWorkspace workspace = CrossEntropyWorkspace::plan(rows.rows, rows.classes, 1, reductionBytes);
    return hand_back_kernel<CrossEntropyLossGradKernel>(inputs, {out}, workspace.total, workspaceSize, executor, api,
                                                        rows, std::move(backward), std::move(sum),
                                                        StridedLayout::of(view_of(gradLoss)), workspace);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    // lseSquareScaleForZloss and returnZloss do nothing on A2 (the doc).
    (void)lseSquareScaleForZloss;
    (void)returnZloss;
    return aclcpu::ops::cross_entropy_loss(input, target, weightOptional, reductionOptional, ignoreIndex,
                                           labelSmoothing, lossOut, logProbOut, zlossOut, lseForZlossOut,
                                           workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnCrossEntropyLoss)

extern "C" aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    (void)lseSquareScaleForZloss;  // zloss: not supported on A2 (the doc)
    return aclcpu::ops::cross_entropy_loss_grad(gradLoss, logProb, target, weightOptional, gradZlossOptional,
                                                lseForZlossOptional, reductionOptional, ignoreIndex, labelSmoothing,
                                                out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnCrossEntropyLossGrad)
