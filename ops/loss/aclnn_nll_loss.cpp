// acl-cpu: aclnnNLLLoss, aclnnNLLLoss2d (ops-nn loss/nll_loss/op_api/
// aclnn_nll_loss.cpp, aclnn_nll_loss2d.cpp), aclnnNLLLossBackward and
// aclnnNLLLoss2dBackward (loss/nll_loss_grad/op_api/
// aclnn_nll_loss_backward.cpp, aclnn_nll_loss2d_backward.cpp): the checks
// in CANN's order, then a spec for the NLL kernels (nll_loss_kernel.hpp).
// The 2-d forms are the 1-d ones over self's [N, H, W, C] rows (A2's op_api
// transposes NCHW to NHWC and reshapes to [-1, C]).
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"

#include <memory>

#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/reduction.hpp"
#include "common/rows.hpp"
#include "loss/nll_loss_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kSelfDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kTargetDtypes = {ACL_INT64, ACL_UINT8, ACL_INT32};
/// acl-cpu: what the kernels can store a result in (CANN's Cast also takes
/// complex outs, which no loss caller uses).
constexpr DtypeList kOutDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

aclnnStatus check_reduction(int64_t reduction, const char* format) {
    if (reduction >= 0 && reduction <= 2) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, format, static_cast<long>(reduction));
}
constexpr const char* kReductionMessage = "Reduction should be between 0 and 2, but current is %ld.";

/// OP_CHECK_RESULT_DTYPE_CAST_FAILED(self, out), then acl-cpu's storable outs.
aclnnStatus check_result_dtype(const aclTensor* self, const aclTensor* out, const char* name) {
    ACLCPU_RETURN_IF_ERROR(check_can_cast(view_of(self).dtype, view_of(out).dtype));
    return check_dtype_supported(out, name, kOutDtypes);
}

/// The dim 0 CANN's GetDim(0) reads of shape (a 0-d shape has none: -1, so
/// it matches no size).
int64_t dim0(const Dims& shape) { return shape.empty() ? -1 : shape[0]; }

int64_t numel_of(const Dims& shape) {
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    return count;
}

/// The kernel's dtype on A2: BF16 stays, FLOAT16 (and FLOAT) compute in FLOAT.
aclDataType compute_dtype(const aclTensor* self) {
    return view_of(self).dtype == ACL_BF16 ? ACL_BF16 : ACL_FLOAT;
}

/// The rows of self ([C], [N, C] or, classesDim 1, [N, C, H, W] read as
/// [N, H, W, C]) with target and weight.
NllRows nll_rows(const aclTensor* self, size_t classesDim, const aclTensor* target, const aclTensor* weight,
                 int64_t reduction, int64_t ignoreIndex) {
    const TensorView& view = view_of(self);
    NllRows rows;
    rows.self = StridedLayout::of(classesDim + 1 == view.shape.size() ? view : with_dim_last(view, classesDim));
    rows.target = StridedLayout::of(view_of(target));
    rows.weight = StridedLayout::of(view_of(weight));
    rows.classes = view.shape[classesDim];
    rows.rows = rows.classes == 0 ? 0 : view.numel() / rows.classes;
    rows.ignoreIndex = ignoreIndex;
    rows.reduction = static_cast<NllReduction>(reduction);
    rows.computeDtype = compute_dtype(self);
    rows.blocks = plan_nll_rows(rows.rows);
    return rows;
}

/// The end of NLLLoss's phase 1 (both forms): none writes each row's term,
/// mean and sum stage the terms and weights for the reduction engine.
aclnnStatus hand_back_nll_loss(const char* api, const NllRows& rows, const aclTensor* self, const aclTensor* target,
                               const aclTensor* weight, const aclTensor* out, const aclTensor* totalWeightOut,
                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage(
        {{self, "self"}, {target, "target"}, {weight, "weight"}, {out, "out"}, {totalWeightOut, "totalWeightOut"}}));
    const bool none = rows.reduction == NllReduction::kNone;
    if (none && rows.rows == 0) return hand_back_empty_executor({self, target, weight}, {out, totalWeightOut},
                                                                 workspaceSize, executor);
    const StridedLayout outLayout = StridedLayout::of(view_of(out));
    const StridedLayout totalLayout = StridedLayout::of(view_of(totalWeightOut));
    if (none || rows.rows == 0) {
        return hand_back_kernel<NllLossKernel>({self, target, weight}, {out, totalWeightOut}, 0, workspaceSize,
                                               executor, api, rows, outLayout, totalLayout, nullptr, 0, 0);
    }
    // The terms and weights, [2, rows] fp32, each summed along its row.
    std::shared_ptr<const OpKernel> sum;
    uint64_t reductionBytes = 0;
    ACLCPU_RETURN_IF_ERROR(plan_row_sums(api, 2, rows.rows, &sum, &reductionBytes));
    uint64_t sumsOffset = 0;
    uint64_t reductionOffset = 0;
    const uint64_t bytes = NllLossKernel::workspace_bytes(rows.rows, reductionBytes, &sumsOffset, &reductionOffset);
    return hand_back_kernel<NllLossKernel>({self, target, weight}, {out, totalWeightOut}, bytes, workspaceSize,
                                           executor, api, rows, outLayout, totalLayout, std::move(sum), sumsOffset,
                                           reductionOffset);
}

/// aclnn_nll_loss.cpp's CheckShape.
aclnnStatus check_nll_loss_shapes(const Dims& self, const Dims& target, const Dims& weight, const Dims& out,
                                  const Dims& totalWeight, int64_t targetNumel, bool selfEmpty, int64_t reduction) {
    if (self.empty() || self.size() > 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Input tensor should be 1D or 2D.");
    }
    if (target.size() > 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "0D or 1D target tensor expected, multi-target not supported.");
    }
    const bool noBatchDim = self.size() == 1 && target.empty();
    const bool oneBatchDim = self.size() == 2 && target.size() == 1;
    if (!noBatchDim && !(oneBatchDim && self[0] == target[0])) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "when self is 1D, target need be 0D; when self is 2D, target need be 1D, and target first "
                           "dimension need equal to self first dimension, but (got self: %s, target: %s)",
                           shape_string(self).c_str(), shape_string(target).c_str());
    }
    const int64_t classes = self[self.size() - 1];
    if (weight.size() != 1 || weight[0] != classes) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Weight tensor should be defined for all %ld classes but got weight tensor of shape: %s",
                           static_cast<long>(classes), shape_string(weight).c_str());
    }
    if (reduction == 0 && self.size() == 2) {
        if (out.size() != 1 || out[0] != self[0]) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Expect out shape [%ld], but got: %s.",
                               static_cast<long>(self[0]), shape_string(out).c_str());
        }
    } else if (out.size() > 1 || numel_of(out) != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected a single element out tensor, but got: %s",
                           shape_string(out).c_str());
    }
    if (numel_of(totalWeight) != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of totalWeightOut tensor should be [1], but current is %s.",
                           shape_string(totalWeight).c_str());
    }
    if (selfEmpty && classes == 0 && targetNumel > 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Target is out of bounds");
    }
    return ACLNN_SUCCESS;
}

aclnnStatus nll_loss(const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
                     int64_t ignoreIndex, const aclTensor* out, const aclTensor* totalWeightOut,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null(
        {{self, "self"}, {target, "target"}, {weight, "weight"}, {out, "out"}, {totalWeightOut, "totalWeightOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(weight, "weight", view_of(self).dtype));
    ACLCPU_RETURN_IF_ERROR(check_result_dtype(self, out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_result_dtype(self, totalWeightOut, "totalWeightOut"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSelfDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(target, "target", kTargetDtypes));
    ACLCPU_RETURN_IF_ERROR(check_reduction(reduction, kReductionMessage));
    const Dims& selfShape = view_of(self).shape;
    ACLCPU_RETURN_IF_ERROR(check_nll_loss_shapes(selfShape, view_of(target).shape, view_of(weight).shape,
                                                 view_of(out).shape, view_of(totalWeightOut).shape,
                                                 view_of(target).numel(), is_empty(self), reduction));
    const NllRows rows = nll_rows(self, selfShape.size() - 1, target, weight, reduction, ignoreIndex);
    return hand_back_nll_loss("aclnnNLLLoss", rows, self, target, weight, out, totalWeightOut, workspaceSize,
                              executor);
}

/// aclnn_nll_loss2d.cpp's CheckShape2D.
aclnnStatus check_nll_loss2d_shapes(const Dims& self, const Dims& target, const Dims& weight, const aclTensor* out,
                                    const aclTensor* targetTensor, const Dims& totalWeight, int64_t reduction) {
    if (self.size() != 4) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Input tensor dim should be 4D, other dim not supported.");
    }
    if (dim0(weight) != self[1]) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Input tensor x[1] should be equal to weight[0].");
    }
    if (target.size() != 3) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "target tensor dim should be 3D, other dim not supported.");
    }
    if (self[0] != target[0] || self[2] != target[1] || self[3] != target[2]) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "size mismatch got input: [%s], target: [%s].",
                           shape_string(self).c_str(), shape_string(target).c_str());
    }
    if (reduction == 0) {
        ACLCPU_RETURN_IF_ERROR(check_same_shape(out, "out", targetTensor, "target"));
    } else if (view_of(out).numel() != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of out tensor should be [1], but current is %s.",
                           shape_string(view_of(out).shape).c_str());
    }
    if (numel_of(totalWeight) != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of totalWeightOut tensor should be [1], but current is %s.",
                           shape_string(totalWeight).c_str());
    }
    return ACLNN_SUCCESS;
}

aclnnStatus nll_loss2d(const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
                       int64_t ignoreIndex, const aclTensor* out, const aclTensor* totalWeightOut,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null(
        {{self, "self"}, {target, "target"}, {weight, "weight"}, {out, "out"}, {totalWeightOut, "totalWeightOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSelfDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(self, "self", view_of(weight).dtype));
    ACLCPU_RETURN_IF_ERROR(check_result_dtype(self, out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_result_dtype(self, totalWeightOut, "totalWeightOut"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(target, "target", kTargetDtypes));
    ACLCPU_RETURN_IF_ERROR(check_reduction(reduction, "Reduction should be between 0 and 2, but current is [%ld]."));
    ACLCPU_RETURN_IF_ERROR(check_nll_loss2d_shapes(view_of(self).shape, view_of(target).shape, view_of(weight).shape,
                                                   out, target, view_of(totalWeightOut).shape, reduction));
    // Any empty input: NLLLossEmptyTensorCompute (the rows of nothing).
    NllRows rows = nll_rows(self, 1, target, weight, reduction, ignoreIndex);
    if (is_empty(target) || is_empty(weight)) {
        rows.rows = 0;
        rows.blocks = plan_nll_rows(0);
    }
    return hand_back_nll_loss("aclnnNLLLoss2d", rows, self, target, weight, out, totalWeightOut, workspaceSize,
                              executor);
}

/// The end of NLLLossGrad's phase 1 (both forms): out, of self's shape, over
/// the rows' classes.
aclnnStatus hand_back_nll_grad(const char* api, NllRows rows, const aclTensor* gradOutput, const aclTensor* self,
                               const aclTensor* target, const aclTensor* weight, const aclTensor* totalWeight,
                               const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (is_empty(self)) {
        return hand_back_empty_executor({gradOutput, self, target, weight, totalWeight}, {out}, workspaceSize,
                                        executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"},
                                                  {weight, "weight"}, {totalWeight, "totalWeight"}, {out, "out"}}));
    // The gradient is written through out's view, laid out as self's rows.
    const TensorView& outView = view_of(out);
    rows.self = StridedLayout::of(view_of(self).shape.size() == 4 ? with_dim_last(outView, 1) : outView);
    return hand_back_kernel<NllLossGradKernel>({gradOutput, self, target, weight, totalWeight}, {out}, 0,
                                               workspaceSize, executor, api, rows,
                                               StridedLayout::of(view_of(gradOutput)),
                                               StridedLayout::of(view_of(totalWeight)));
}

/// aclnn_nll_loss_backward.cpp's CheckShape.
aclnnStatus check_nll_grad_shapes(const aclTensor* gradOutput, const aclTensor* self, const Dims& target,
                                  const Dims& weight, const Dims& totalWeight, const aclTensor* out,
                                  int64_t reduction) {
    const Dims& selfShape = view_of(self).shape;
    if (selfShape.empty() || selfShape.size() > 2) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Input tensor should be 1D or 2D.");
    }
    if (target.size() > 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "0D or 1D target tensor expected, multi-target not supported.");
    }
    // CANN compares dim 0 whenever it is not (1-D self, 0-d target): a 1-D
    // self takes a 1-D target of C classes too (the kernel reads its first).
    if (!(selfShape.size() == 1 && target.empty()) && selfShape[0] != dim0(target)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Size mismatch (got input: %s, target: %s) ",
                           shape_string(selfShape).c_str(), shape_string(target).c_str());
    }
    const int64_t classes = selfShape[selfShape.size() - 1];
    if (weight.size() != 1 || weight[0] != classes) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Weight tensor should be defined for all %ld classes but got weight tensor of shape: %s",
                           static_cast<long>(classes), shape_string(weight).c_str());
    }
    if (numel_of(totalWeight) != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected totalWeight to be a single element tensor, but current is %s.",
                           shape_string(totalWeight).c_str());
    }
    const Dims& grad = view_of(gradOutput).shape;
    if (reduction == 0 && selfShape.size() == 2) {
        if (grad.size() != 1 || grad[0] != selfShape[0]) {
            return param_error(ACLNN_ERR_PARAM_INVALID, "Expect gradOutput shape [%ld], but got: %s.",
                               static_cast<long>(selfShape[0]), shape_string(grad).c_str());
        }
    } else if (grad.size() > 1 || numel_of(grad) != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected a single element grad_output tensor, but got: %s",
                           shape_string(grad).c_str());
    }
    return check_same_shape(self, "self", out, "out");
}

aclnnStatus nll_loss_backward(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
                              const aclTensor* weight, int64_t reduction, int64_t ignoreIndex,
                              const aclTensor* totalWeight, const aclTensor* out, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"},
                                           {weight, "weight"}, {totalWeight, "totalWeight"}, {out, "out"}}));
    const aclDataType dtype = view_of(self).dtype;
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(weight, "weight", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(gradOutput, "gradOutput", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(totalWeight, "totalWeight", dtype));
    ACLCPU_RETURN_IF_ERROR(check_result_dtype(self, out, "out"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSelfDtypes));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(target, "target", kTargetDtypes));
    ACLCPU_RETURN_IF_ERROR(check_reduction(reduction, kReductionMessage));
    ACLCPU_RETURN_IF_ERROR(check_nll_grad_shapes(gradOutput, self, view_of(target).shape, view_of(weight).shape,
                                                 view_of(totalWeight).shape, out, reduction));
    const size_t rank = view_of(self).shape.size();
    NllRows rows = nll_rows(self, rank - 1, target, weight, reduction, ignoreIndex);
    return hand_back_nll_grad("aclnnNLLLossBackward", rows, gradOutput, self, target, weight, totalWeight, out,
                              workspaceSize, executor);
}

/// aclnn_nll_loss2d_backward.cpp's CheckShape (before its reduction check).
aclnnStatus check_nll_grad2d_shapes(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
                                    const Dims& weight, const Dims& totalWeight, const aclTensor* out,
                                    int64_t reduction) {
    const Dims& grad = view_of(gradOutput).shape;
    const Dims& targetShape = view_of(target).shape;
    if (reduction == 0 && grad != targetShape) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Size mismatch (got gradOutput: %s, target: %s) ",
                           shape_string(grad).c_str(), shape_string(targetShape).c_str());
    }
    if (reduction != 0 && (grad.size() > 1 || numel_of(grad) != 1)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected a single element grad_output tensor, but got: %s",
                           shape_string(grad).c_str());
    }
    const Dims& selfShape = view_of(self).shape;
    if (selfShape.size() != 4) return param_error(ACLNN_ERR_PARAM_INVALID, "Input tensor should be 4D.");
    if (targetShape.size() != 3) return param_error(ACLNN_ERR_PARAM_INVALID, "target tensor should be 3D.");
    if (selfShape[0] != targetShape[0] || selfShape[2] != targetShape[1] || selfShape[3] != targetShape[2]) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Size mismatch (got input: %s, target: %s) ",
                           shape_string(selfShape).c_str(), shape_string(targetShape).c_str());
    }
    if (numel_of(weight) != selfShape[1]) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Weight tensor should be defined for all %ld classes but got weight tensor of shape: %s",
                           static_cast<long>(selfShape[1]), shape_string(weight).c_str());
    }
    if (view_of(out).shape != selfShape) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of Out tensor should be %s, but current is %s.",
                           shape_string(selfShape).c_str(), shape_string(view_of(out).shape).c_str());
    }
    if (numel_of(totalWeight) != 1) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Shape of totalWeight tensor should be [1], but current is %s.",
                           shape_string(totalWeight).c_str());
    }
    return ACLNN_SUCCESS;
}

aclnnStatus nll_loss2d_backward(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
                                const aclTensor* weight, int64_t reduction, int64_t ignoreIndex,
                                const aclTensor* totalWeight, const aclTensor* out, uint64_t* workspaceSize,
                                aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"},
                                           {weight, "weight"}, {out, "out"}, {totalWeight, "totalWeight"}}));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(self, "self", kSelfDtypes));
    const aclDataType dtype = view_of(self).dtype;
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(gradOutput, "gradOutput", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(weight, "weight", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(out, "out", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(totalWeight, "totalWeight", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(target, "target", kTargetDtypes));
    ACLCPU_RETURN_IF_ERROR(check_nll_grad2d_shapes(gradOutput, self, target, view_of(weight).shape,
                                                   view_of(totalWeight).shape, out, reduction));
    ACLCPU_RETURN_IF_ERROR(check_reduction(reduction, kReductionMessage));
    NllRows rows = nll_rows(self, 1, target, weight, reduction, ignoreIndex);
    return hand_back_nll_grad("aclnnNLLLoss2dBackward", rows, gradOutput, self, target, weight, totalWeight, out,
                              workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    const aclTensor* weight, int64_t reduction, int64_t ignoreIndex,
                                                    aclTensor* out, aclTensor* totalWeightOut,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::nll_loss(self, target, weight, reduction, ignoreIndex, out, totalWeightOut, workspaceSize,
                                 executor);
}
ACLCPU_DEFINE_PHASE2(aclnnNLLLoss)

extern "C" aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                      const aclTensor* weight, int64_t reduction, int64_t ignoreIndex,
                                                      aclTensor* out, aclTensor* totalWeightOut,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::nll_loss2d(self, target, weight, reduction, ignoreIndex, out, totalWeightOut, workspaceSize,
                                   executor);
}
ACLCPU_DEFINE_PHASE2(aclnnNLLLoss2d)

extern "C" aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            const aclTensor* target, const aclTensor* weight,
                                                            int64_t reduction, int64_t ignoreIndex,
                                                            const aclTensor* totalWeight, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::nll_loss_backward(gradOutput, self, target, weight, reduction, ignoreIndex, totalWeight, out,
                                          workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnNLLLossBackward)

extern "C" aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              const aclTensor* target, const aclTensor* weight,
                                                              int64_t reduction, int64_t ignoreIndex,
                                                              aclTensor* totalWeight, aclTensor* out,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::nll_loss2d_backward(gradOutput, self, target, weight, reduction, ignoreIndex, totalWeight,
                                            out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnNLLLoss2dBackward)
