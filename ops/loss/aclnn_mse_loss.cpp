// acl-cpu: aclnnMseLoss (ops-nn loss/mse_loss/op_api/aclnn_mse_loss.cpp) and
// aclnnMseLossBackward (loss/mse_loss_grad_v2/op_host/op_api/
// aclnn_mse_loss_backward.cpp), checks in their order.
//
// MseLoss: self and target cast to PromoteType, broadcast, (x - t)^2 in fp32
// (mse_loss_dag.h); "none" rounds each square into the promoted dtype and
// casts it into out (the binary engine); "mean" and "sum" reduce the fp32
// squares -- staged in the workspace, then summed by the reduction engine
// (deterministic: the order of the sum depends on the element count only),
// "mean" times the fp32 reciprocal of the count -- and cast the result into
// out.  An empty self or target: "none" does nothing, "mean" fills NaN and
// "sum" 0 (MseLossEmptyTensorCompute).
// MseLossOut (loss/mse_loss/op_api/aclnn_mse_loss_out.cpp): MseLoss with
// "mean" and "sum" along dim 0 only, see mse_loss_out.
// MseLossBackward: the three inputs of one dtype, broadcast,
// ((x - t) * cof) * dy, cast into out.
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_out.h"

#include <memory>

#include "common/binary.hpp"
#include "common/elementwise.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/promotion.hpp"
#include "common/reduction.hpp"
#include "common/unary.hpp"
#include "loss/mse_loss_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kMseDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kReductionNone = 0;
constexpr int64_t kReductionMean = 1;
constexpr int64_t kReductionSum = 2;

/// CheckReductionMseLoss (level2_base_loss.h), MseLossBackward's CheckReduction.
aclnnStatus check_reduction(int64_t reduction) {
    if (reduction >= kReductionNone && reduction <= kReductionSum) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Expected reduction to be between 0 and 2, but got %ld.",
                       static_cast<long>(reduction));
}

/// MseLoss's mean or sum of a non-empty pair: the squares into the
/// workspace (fp32, of the broadcast shape, row-major), then the reduction
/// of all of them into out.  Immutable; launch() may run concurrently.
class MseReductionKernel final : public TiledKernel {
public:
    using Squares = ElementwiseKernel<2, NoParams, SquaredDifferenceOp::vector.tensors>;

    /// Traces report the squares' tiling (the reduction's follows it).
    MseReductionKernel(const char* name, ElementwiseTiling tiling, const ElementwiseOperands<2>& operands,
                       std::shared_ptr<const OpKernel> sum, uint64_t squaresBytes) noexcept
        : TiledKernel(name, tiling), squares_(name, tiling, operands, NoParams{}), sum_(std::move(sum)),
          squaresBytes_(squaresBytes) {}

    aclError launch(const LaunchArgs& args) const noexcept override {
        void* squares[1] = {args.workspace};
        if (aclError status = squares_.launch({args.inputs, squares, nullptr, 0}); status != ACL_SUCCESS) {
            return status;
        }
        const void* sumInputs[1] = {args.workspace};
        return sum_->launch({sumInputs, args.outputs, static_cast<std::byte*>(args.workspace) + squaresBytes_,
                             args.workspaceSize - squaresBytes_});
    }

private:
    Squares squares_;
    std::shared_ptr<const OpKernel> sum_;
    uint64_t squaresBytes_;
};

/// acl-cpu's guard for the staged squares: at most 2^46 of them (2^48 bytes,
/// the storage limit of check_view_in_storage), which also keeps the
/// broadcast element count -- bounded by no tensor's storage when out is
/// 0-d -- from overflowing -> 161002.
aclnnStatus check_squares_fit(const Dims& shape) {
    constexpr int64_t kMaxSquares = int64_t{1} << 46;
    int64_t count = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (__builtin_mul_overflow(count, shape[d], &count) || count > kMaxSquares) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "The broadcast shape %s of self and target has more elements than the workspace "
                               "can stage.",
                               shape_string(shape).c_str());
        }
    }
    return ACLNN_SUCCESS;
}

/// How a reduced MseLoss reduces its squares.
struct SquaresReduction {
    bool mean = false;
    /// false: every square into a 0-d out (MseLoss); true: along the
    /// broadcast shape's dim 0 only (MseLossOut).
    bool firstDimOnly = false;
    /// The dtype each square is rounded to and the reduction computes in:
    /// FLOAT (MseLoss's DAG keeps fp32 squares), or the promoted dtype
    /// (MseLossOut's op_api runs MseLoss "none", then ReduceMean/ReduceSum).
    aclDataType squaresDtype = ACL_FLOAT;
};

aclnnStatus hand_back_mse_reduction(const char* api, const aclTensor* self, const aclTensor* target, const Dims& shape,
                                    const SquaresReduction& reduction, const aclTensor* out, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{self, "self"}, {target, "target"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_squares_fit(shape));
    const StridedLayout selfLayout = StridedLayout::broadcast_to(view_of(self), shape);
    const StridedLayout squares = StridedLayout::linear(selfLayout.numel(), ACL_FLOAT);
    const ElementwiseOperands<2> operands{{selfLayout, StridedLayout::broadcast_to(view_of(target), shape)}, squares,
                                          reduction.squaresDtype};
    const ElementwiseTiling tiling = tile_binary(squares.numel(), ACL_FLOAT, sizeof(float), soc_profile());
    // The squares, row-major: one dim of all of them, or the broadcast shape
    // (a 0-d one as [1]) to reduce along its dim 0.
    TensorView squaresView;
    squaresView.shape = reduction.firstDimOnly && !shape.empty() ? shape : Dims{squares.numel()};
    squaresView.strides = squaresView.shape;
    for (size_t d = squaresView.shape.size(), stride = 1; d-- > 0;) {
        squaresView.strides[d] = static_cast<int64_t>(stride);
        stride *= static_cast<size_t>(squaresView.shape[d]);
    }
    squaresView.dtype = ACL_FLOAT;
    ReductionSpec spec;
    spec.mean = reduction.mean;
    spec.castDtype = reduction.squaresDtype;
    uint64_t sumBytes = 0;
    auto sum = plan_reduction_kernel(api, spec, squaresView, 1u, view_of(out), &sumBytes);
    if (sum == nullptr) {
        report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    }
    // The reduction's partials start on a staging boundary after the squares.
    const auto squaresBytes =
        static_cast<uint64_t>(UbStaging::workspace_stride(squares.numel() * int64_t{sizeof(float)}));
    return hand_back_kernel<MseReductionKernel>({self, target}, {out}, squaresBytes + sumBytes, workspaceSize,
                                                executor, api, tiling, operands, std::move(sum), squaresBytes);
}

/// MseLossEmptyTensorCompute: "mean" fills out with NaN, "sum" with 0 --
/// the reduction of the empty input, whose mean is 0 * (1 / 0).
aclnnStatus hand_back_empty_mse(const char* api, const aclTensor* self, const aclTensor* target, int64_t reduction,
                                const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (reduction == kReductionNone) return hand_back_empty_executor({self, target}, {out}, workspaceSize, executor);
    const aclTensor* empty = is_empty(self) ? self : target;
    ReductionSpec spec;
    spec.mean = reduction == kReductionMean;
    const auto all = static_cast<uint32_t>((uint64_t{1} << view_of(empty).shape.size()) - 1);
    return hand_back_reduction(api, spec, empty, all, out, workspaceSize, executor);
}

/// The checks MseLoss and MseLossOut share, in their op_apis' order up to
/// out's shape: the out-parameters, nulls, PromoteType, dtypes, reduction,
/// ranks and the broadcast; the promoted dtype and the broadcast shape.
aclnnStatus check_mse_operands(const aclTensor* self, const aclTensor* target, int64_t reduction,
                               const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor,
                               aclDataType* promoted, Dims* shape) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_not_null({{self, "self"}, {target, "target"}, {out, "out"}}));
    *promoted = promote_types(view_of(self).dtype, view_of(target).dtype);
    if (!contains(kMseDtypes, *promoted)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected self dtype [%s] and target dtype [%s] to be promotable but check failed.",
                           dtype_name(view_of(self).dtype), dtype_name(view_of(target).dtype));
    }
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {target, "target"}, {out, "out"}}, kMseDtypes));
    ACLCPU_RETURN_IF_ERROR(check_reduction(reduction));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {target, "target"}}));
    return check_broadcast(self, "self", target, "target", shape);
}

aclnnStatus mse_loss(const aclTensor* self, const aclTensor* target, int64_t reduction, const aclTensor* out,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    aclDataType promoted = ACL_FLOAT;
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(
        check_mse_operands(self, target, reduction, out, workspaceSize, executor, &promoted, &shape));
    if (reduction == kReductionNone) {
        ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", shape));
    } else if (!view_of(out).shape.empty()) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected a 0-dimensional tensor, but Shape of out is %s.",
                           shape_string(view_of(out).shape).c_str());
    }
    const char* api = "aclnnMseLoss";
    if (is_empty(self) || is_empty(target)) {
        return hand_back_empty_mse(api, self, target, reduction, out, workspaceSize, executor);
    }
    if (reduction == kReductionNone) {
        return hand_back_binary<SquaredDifferenceOp>(api, {self, "self"}, {target, "target"}, out, promoted, {},
                                                     workspaceSize, executor);
    }
    SquaresReduction squares;
    squares.mean = reduction == kReductionMean;
    return hand_back_mse_reduction(api, self, target, shape, squares, out, workspaceSize, executor);
}

/// aclnn_mse_loss_out.cpp: MseLoss's checks but out's shape -- the
/// broadcast shape for "none", without its dim 0 for "mean" and "sum" --
/// then no work for an empty self or target (no fill), "none" as MseLoss,
/// and "mean"/"sum" as MseLoss "none" in the promoted dtype reduced along
/// dim 0 (ReduceMean/ReduceSumOp), cast into out.
aclnnStatus mse_loss_out(const aclTensor* self, const aclTensor* target, int64_t reduction, const aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    aclDataType promoted = ACL_FLOAT;
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(
        check_mse_operands(self, target, reduction, out, workspaceSize, executor, &promoted, &shape));
    // CheckShape's reduceShape: the broadcast shape's dims from 1 on.
    const bool reduced = reduction != kReductionNone && !shape.empty();
    const Dims outShape = reduced ? Dims(shape.data() + 1, shape.size() - 1) : shape;
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", outShape));
    const char* api = "aclnnMseLossOut";
    if (is_empty(self) || is_empty(target)) {
        return hand_back_empty_executor({self, target}, {out}, workspaceSize, executor);
    }
    if (reduction == kReductionNone) {
        return hand_back_binary<SquaredDifferenceOp>(api, {self, "self"}, {target, "target"}, out, promoted, {},
                                                     workspaceSize, executor);
    }
    SquaresReduction squares;
    squares.mean = reduction == kReductionMean;
    squares.firstDimOnly = true;
    squares.squaresDtype = promoted;
    return hand_back_mse_reduction(api, self, target, shape, squares, out, workspaceSize, executor);
}

aclnnStatus mse_loss_backward(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
                              int64_t reduction, const aclTensor* out, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(
        check_not_null({{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"}, {out, "out"}}));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(gradOutput, "gradOutput", self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(target, "target", self, "self"));
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{self, "self"}, {out, "out"}}, kMseDtypes));
    ACLCPU_RETURN_IF_ERROR(check_reduction(reduction));
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"}}));
    Dims inner;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(gradOutput, "gradOutput", self, "self", &inner));
    Dims shape;
    if (!broadcast_shapes(view_of(target).shape, inner, &shape)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The size of tensor target %s must match the size %s.",
                           shape_string(view_of(target).shape).c_str(), shape_string(inner).c_str());
    }
    ACLCPU_RETURN_IF_ERROR(check_shape_is(out, "out", shape));
    const char* api = "aclnnMseLossBackward";
    if (is_empty(gradOutput) || is_empty(self) || is_empty(target)) {
        return hand_back_empty_executor({gradOutput, self, target}, {out}, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"},
                                                  {out, "out"}}));
    const float cof = reduction == kReductionMean ? 1.0f / static_cast<float>(view_of(self).numel()) * 2.0f : 2.0f;
    const std::array<StridedLayout, 3> layouts = {StridedLayout::broadcast_to(view_of(gradOutput), shape),
                                                  StridedLayout::broadcast_to(view_of(self), shape),
                                                  StridedLayout::broadcast_to(view_of(target), shape)};
    return hand_back_elementwise<3, MseGradOp>(api, {gradOutput, self, target}, layouts, out, view_of(self).dtype,
                                               {cof}, workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    return aclcpu::ops::mse_loss(self, target, reduction, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnMseLoss)

extern "C" aclnnStatus aclnnMseLossOutGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                       int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    return aclcpu::ops::mse_loss_out(self, target, reduction, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnMseLossOut)

extern "C" aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            const aclTensor* target, int64_t reduction,
                                                            aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    return aclcpu::ops::mse_loss_backward(gradOutput, self, target, reduction, out, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnMseLossBackward)
