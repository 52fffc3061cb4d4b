// acl-cpu: the backward norms of ops-nn -- aclnnLayerNormBackward
// (norm/layer_norm_grad_v3) and aclnnRmsNormGrad (norm/rms_norm_grad).
//
// Each is its checks in CANN's order, then one kernel: dx per row on the row
// engine (common/rows.hpp, kLayerNormBackward / kRmsNormBackward), which
// also writes the per-element dgamma terms dy * xhat (fp32) into the
// workspace; then dgamma and dbeta as column sums over the rows on the
// reduction engine (of the terms, and of dy in place).  Both engines fix
// their order by the shapes alone, so the results are bitwise the same for
// any worker count.
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_rms_norm_grad.h"

#include "aclcpu/bool_array.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/reduction.hpp"
#include "common/rows.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace aclcpu::ops {
namespace {

constexpr DtypeList kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/// Where a column sum reads: the row kernel's terms in the workspace, dy in
/// place, or nothing (no rows: the sum of nothing, 0, into every output).
enum class ColumnSource : uint8_t { kTerms, kDy, kNothing };

/// One column sum of a backward norm: its reduction and where it reads
/// and writes.
struct ColumnSum {
    std::shared_ptr<const OpKernel> kernel;  ///< null: the output is not asked for
    ColumnSource source = ColumnSource::kDy;
    int outputSlot = -1;
    uint64_t workspaceOffset = 0;  ///< of its partials
    uint64_t workspaceBytes = 0;
};

/// A backward norm's launch: the row kernel (when there are rows and dx or
/// dgamma is asked: dx into its output, or into workspace scratch when only
/// dgamma is; the terms at workspace offset 0), then the column sums in
/// order dgamma, dbeta.  Immutable; launch() may run concurrently.
class NormGradKernel final : public OpKernel {
public:
    NormGradKernel(const char* name, std::shared_ptr<const OpKernel> rows, int dxSlot, uint64_t scratchOffset,
                   std::array<ColumnSum, 2> sums) noexcept
        : name_(name), rows_(std::move(rows)), dxSlot_(dxSlot), scratchOffset_(scratchOffset), sums_(std::move(sums)) {}

    const char* name() const noexcept override { return name_; }

    aclError launch(const LaunchArgs& args) const noexcept override {
        auto* workspace = static_cast<std::byte*>(args.workspace);
        if (rows_ != nullptr) {
            void* rowOutputs[2] = {dxSlot_ >= 0 ? args.outputs[dxSlot_] : workspace + scratchOffset_, workspace};
            if (aclError status = rows_->launch({args.inputs, rowOutputs, nullptr, 0}); status != ACL_SUCCESS) {
                return status;
            }
        }
        for (const ColumnSum& sum : sums_) {
            if (sum.kernel == nullptr) continue;
            void* out[1] = {args.outputs[sum.outputSlot]};
            // With no rows the input is never read: the output's address stands in (an empty dy's may be null).
            const void* in[1] = {sum.source == ColumnSource::kTerms ? workspace
                                 : sum.source == ColumnSource::kDy  ? args.inputs[0]
                                                                    : out[0]};
            const LaunchArgs sumArgs{in, out, workspace + sum.workspaceOffset, sum.workspaceBytes};
            if (aclError status = sum.kernel->launch(sumArgs); status != ACL_SUCCESS) return status;
        }
        return ACL_SUCCESS;
    }

private:
    const char* name_;
    std::shared_ptr<const OpKernel> rows_;
    int dxSlot_;
    uint64_t scratchOffset_;
    std::array<ColumnSum, 2> sums_;
};

/// What a backward norm hands to the engines: dy (input 0), x (input 1) and
/// the row operands' other inputs in `inputs`, at their slots; the
/// outputs, null where not asked for.
struct NormGradCall {
    const char* api;
    RowFunction function;
    std::vector<const aclTensor*> inputs;
    RowOperands operands;  ///< x (dy), other (x), gamma, mean and rstd set (statsRead)
    const aclTensor* dx;
    const aclTensor* dgamma;
    const aclTensor* dbeta;
    int64_t rows;
    int64_t length;
    uint32_t rowDims;  ///< dy's dims indexing rows, as a reduction mask
};

/// Appends `bytes` of workspace at a staging boundary; returns their offset.
uint64_t reserve(uint64_t* total, int64_t bytes) {
    const uint64_t offset = *total;
    *total += static_cast<uint64_t>(UbStaging::workspace_stride(bytes));
    return offset;
}

/// The view of `count` consecutive fp32 values as [rows, length].
TensorView rows_view(int64_t rows, int64_t length) {
    TensorView view;
    view.shape = {rows, length};
    view.strides = {length, 1};
    view.dtype = ACL_FLOAT;
    return view;
}

/// Plans the column sum (fp32, cast into out) of `in` over `mask` into out.
aclnnStatus plan_column_sum(const NormGradCall& call, const aclTensor* out, ColumnSource source, const TensorView& in,
                            uint32_t mask, std::vector<const aclTensor*>& outputs, uint64_t* workspace,
                            ColumnSum* sum) {
    if (out == nullptr) return ACLNN_SUCCESS;
    sum->kernel = plan_reduction_kernel(call.api, ReductionSpec{}, in, mask, view_of(out), &sum->workspaceBytes);
    if (sum->kernel == nullptr) {
        report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    }
    sum->source = source;
    sum->workspaceOffset = reserve(workspace, static_cast<int64_t>(sum->workspaceBytes));
    sum->outputSlot = static_cast<int>(outputs.size());
    outputs.push_back(out);
    return ACLNN_SUCCESS;
}

/// The end of phase 1 of a checked backward norm of rows x length (length
/// > 0): the row kernel and the column sums, their workspace, the executor.
aclnnStatus hand_back_norm_grad(NormGradCall call, uint64_t* workspaceSize, aclOpExecutor** executor) {
    std::vector<const aclTensor*> outputs;
    uint64_t workspace = 0;
    std::shared_ptr<const OpKernel> rows;
    int dxSlot = -1;
    uint64_t scratchOffset = 0;
    const int64_t elements = call.rows * call.length;
    if (call.rows > 0 && (call.dx != nullptr || call.dgamma != nullptr)) {
        const aclDataType dtype = view_of(call.inputs[0]).dtype;
        RowPlan plan = plan_rows(call.function, call.rows, call.length, soc_profile());
        plan.resultDtype = dtype;  // dx in dy's dtype, then cast into dx's
        if (call.dgamma != nullptr) {
            call.operands.terms = StridedLayout::linear(elements, ACL_FLOAT);
            call.operands.termsSlot = 1;
            reserve(&workspace, elements * int64_t{sizeof(float)});
        }
        if (call.dx != nullptr) {
            call.operands.y = StridedLayout::of(view_of(call.dx));
            dxSlot = 0;
            outputs.push_back(call.dx);
        } else {  // dgamma's terms come with dx: dx goes to scratch
            call.operands.y = StridedLayout::linear(elements, dtype);
            scratchOffset = reserve(&workspace, elements * static_cast<int64_t>(element_size(dtype)));
        }
        try {
            rows = std::allocate_shared<RowKernel>(HandoverAllocator<RowKernel>(), call.api, plan, call.operands);
        } catch (const std::bad_alloc&) {
            report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
            return ACLNN_ERR_INNER_CREATE_EXECUTOR;
        }
    }
    const bool anyRows = call.rows > 0;
    std::array<ColumnSum, 2> sums;
    ACLCPU_RETURN_IF_ERROR(plan_column_sum(call, call.dgamma, anyRows ? ColumnSource::kTerms : ColumnSource::kNothing,
                                           rows_view(call.rows, call.length), 1u, outputs, &workspace, &sums[0]));
    ACLCPU_RETURN_IF_ERROR(plan_column_sum(call, call.dbeta, anyRows ? ColumnSource::kDy : ColumnSource::kNothing,
                                           view_of(call.inputs[0]), call.rowDims, outputs, &workspace, &sums[1]));
    return hand_back_kernel<NormGradKernel>(call.inputs, outputs, workspace, workspaceSize, executor, call.api,
                                            std::move(rows), dxSlot, scratchOffset, std::move(sums));
}

/// The reduction mask of a tensor's first `rowDims` dims.
uint32_t leading_dims(size_t rowDims) { return static_cast<uint32_t>((uint64_t{1} << rowDims) - 1); }

/// The product of shape[begin, end), wrapping as CANN's int64 products
/// would not be asked to (the views are checked in their storage later).
int64_t product(const Dims& shape, size_t begin, size_t end) {
    uint64_t result = 1;
    for (size_t d = begin; d < end; ++d) result *= static_cast<uint64_t>(shape[d]);
    return static_cast<int64_t>(result);
}

// --- LayerNormBackward ---------------------------------------------------------

struct LayerNormGradArgs {
    const aclTensor* gradOut;
    const aclTensor* input;
    const aclIntArray* normalizedShape;
    const aclTensor* mean;
    const aclTensor* rstd;
    const aclTensor* weight;
    const aclTensor* bias;
    const aclBoolArray* outputMask;
    const aclTensor* gradInput;
    const aclTensor* gradWeight;
    const aclTensor* gradBias;
};

constexpr const char* kLayerNormBackward = "aclnnLayerNormBackward";

/// OP_CHECK_NULL of outputMask, an aclBoolArray.
aclnnStatus check_mask_not_null(const aclBoolArray* mask) {
    if (mask != nullptr) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a proper BoolArray but got null for argument outputMask.");
}

/// The null checks of aclnn_layer_norm_backward.cpp: CheckNotNull, the
/// mask's length, then each output its mask asks for.
aclnnStatus check_layer_norm_grad_not_null(const LayerNormGradArgs& a) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{a.gradOut, "gradOut"}, {a.input, "input"},
                                           {a.normalizedShape, "normalizedShape"}, {a.mean, "mean"},
                                           {a.rstd, "rstd"}}));
    ACLCPU_RETURN_IF_ERROR(check_mask_not_null(a.outputMask));
    const std::vector<bool>& mask = values_of(a.outputMask);
    if (mask.size() != 3) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Expected aclnnLayerNormBackward outputMask len to be 3, but got %zu.", mask.size());
    }
    if (mask[0]) ACLCPU_RETURN_IF_ERROR(check_not_null(a.gradInput, "gradInputOut"));
    if (mask[1]) ACLCPU_RETURN_IF_ERROR(check_not_null(a.gradWeight, "gradWeightOut"));
    if (mask[2]) ACLCPU_RETURN_IF_ERROR(check_not_null(a.gradBias, "gradBiasOut"));
    return ACLNN_SUCCESS;
}

/// An optional tensor's dtype in the list (OP_CHECK_DTYPE_NOT_SUPPORT).
aclnnStatus check_optional_dtype(const aclTensor* tensor, const char* name) {
    return tensor != nullptr ? check_dtype_supported(tensor, name, kNormDtypes) : ACLNN_SUCCESS;
}

/// CheckDtype: the inputs in the list, gradOut input's dtype, weight FLOAT
/// or input's, bias and every given output (asked for or not) in the list.
aclnnStatus check_layer_norm_grad_dtypes(const LayerNormGradArgs& a) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{a.gradOut, "gradOut"}, {a.input, "input"}, {a.mean, "mean"},
                                                  {a.rstd, "rstd"}}, kNormDtypes));
    ACLCPU_RETURN_IF_ERROR(check_same_dtype(a.gradOut, "gradOut", a.input, "input"));
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(a.weight, "weightOptional"));
    if (a.weight != nullptr && view_of(a.weight).dtype != ACL_FLOAT) {
        ACLCPU_RETURN_IF_ERROR(check_same_dtype(a.weight, "weightOptional", a.input, "input"));
    }
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(a.bias, "biasOptional"));
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(a.gradInput, "gradInputOut"));
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(a.gradWeight, "gradWeightOut"));
    return check_optional_dtype(a.gradBias, "gradBiasOut");
}

/// CheckShapeEqual: normalized[i] against the tensor's dim i + axis (axis
/// = its rank - normalized's length) for i from `first` on.  CANN's loop
/// starts at axis (so a tensor of higher rank is compared in part, or not
/// at all); acl-cpu's guard runs it from 0.
aclnnStatus check_normalized_dims(const aclTensor* tensor, const std::vector<int64_t>& normalized, bool fromAxis) {
    const Dims& shape = view_of(tensor).shape;
    const size_t axis = shape.size() - normalized.size();
    for (size_t i = fromAxis ? axis : 0; i < normalized.size(); ++i) {
        if (normalized[i] != shape[i + axis]) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Expected normalized index [%zu] shape [%ld] be equal to tensor index [%zu] shape "
                               "[%ld], but failed.",
                               i, static_cast<long>(normalized[i]), i + axis, static_cast<long>(shape[i + axis]));
        }
    }
    return ACLNN_SUCCESS;
}

/// Steps 5 and 6 of CheckShape for weight or bias, when given.
aclnnStatus check_affine_shape(const aclTensor* tensor, const char* name, const std::vector<int64_t>& normalized) {
    if (tensor == nullptr) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_max_dim(tensor, name));
    ACLCPU_RETURN_IF_ERROR(check_dim_count(tensor, name, normalized.size()));
    return check_normalized_dims(tensor, normalized, true);
}

/// A gradient of the affine holds N elements (CheckShape step 9).
aclnnStatus check_affine_grad_size(const aclTensor* tensor, const char* name, int64_t n) {
    if (view_of(tensor).numel() == n) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "Expected aclnnLayerNormBackward %s shape size [%s] to be equal to [%ld] but check failed.", name,
                       shape_string(view_of(tensor).shape).c_str(), static_cast<long>(n));
}

/// CheckShape, steps 1-9, for M rows of N elements.
aclnnStatus check_layer_norm_grad_shapes(const LayerNormGradArgs& a, const std::vector<int64_t>& normalized, int64_t m,
                                         int64_t n) {
    const std::vector<bool>& mask = values_of(a.outputMask);
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{a.gradOut, "gradOut"}, {a.input, "input"}, {a.mean, "mean"},
                                          {a.rstd, "rstd"}}));
    if (normalized.size() > kMaxDims) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected aclnnLayerNormBackward normalizedShape len [%zu] to not "
                           "be greater than [%zu] but check failed.", normalized.size(), kMaxDims);
    }
    if (mask[0]) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.gradInput, "gradInputOut"));
    if (mask[1]) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.gradWeight, "gradWeightOut"));
    if (mask[2]) ACLCPU_RETURN_IF_ERROR(check_max_dim(a.gradBias, "gradBiasOut"));
    if (normalized.empty()) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected aclnnLayerNormBackward normalizedShape len [0] to be "
                           "greater than [1] but check failed.");
    }
    ACLCPU_RETURN_IF_ERROR(check_min_dim(a.input, "input", normalized.size()));
    ACLCPU_RETURN_IF_ERROR(check_normalized_dims(a.input, normalized, true));
    ACLCPU_RETURN_IF_ERROR(check_affine_shape(a.weight, "weightOptional", normalized));
    ACLCPU_RETURN_IF_ERROR(check_affine_shape(a.bias, "biasOptional", normalized));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(a.gradOut, "gradOut", a.input, "input"));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(a.mean, "mean", a.rstd, "rstd"));
    if (view_of(a.mean).numel() != m) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Expected aclnnLayerNormBackward mean shape size %s to be equal "
                           "to %ld but check failed.", shape_string(view_of(a.mean).shape).c_str(),
                           static_cast<long>(m));
    }
    if (mask[0]) ACLCPU_RETURN_IF_ERROR(check_same_shape(a.gradInput, "gradInputOut", a.input, "input"));
    if (mask[1]) ACLCPU_RETURN_IF_ERROR(check_affine_grad_size(a.gradWeight, "gradWeightOut", n));
    if (mask[2]) ACLCPU_RETURN_IF_ERROR(check_affine_grad_size(a.gradBias, "gradBiasOut", n));
    return ACLNN_SUCCESS;
}

/// aclnn_layer_norm_backward.cpp: null checks, CheckDtype, CheckShape; a
/// mask of no output -> success; M or N 0 -> gradWeight and gradBias 0
/// when M is.  acl-cpu's guards: every given view in its storage (before
/// those returns), normalizedShape all of input's trailing dims (CANN's
/// loop compares some of them).  LayerNormGradV3 (A2) reads mean and rstd
/// as fp32 and weight as ones when absent; dx in input's dtype, dgamma and
/// dbeta in fp32, each cast into its output.  bias is checked, never read.
aclnnStatus layer_norm_backward(const LayerNormGradArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_layer_norm_grad_not_null(a));
    const Dims& shape = view_of(a.input).shape;
    const std::vector<int64_t>& normalized = values_of(a.normalizedShape);
    // M and N as CANN computes them before its checks (a rank below
    // normalizedShape's length, refused by CheckShape, gives M 1).
    const size_t begin = normalized.size() <= shape.size() ? shape.size() - normalized.size() : 0;
    const int64_t m = product(shape, 0, begin);
    const int64_t n = product(shape, begin, shape.size());
    ACLCPU_RETURN_IF_ERROR(check_layer_norm_grad_dtypes(a));
    ACLCPU_RETURN_IF_ERROR(check_layer_norm_grad_shapes(a, normalized, m, n));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    // Every given view, read or not (bias, an output not asked for), in its storage.
    for (const auto& [tensor, name] : {std::pair{a.weight, "weightOptional"}, {a.bias, "biasOptional"},
                                       {a.gradInput, "gradInputOut"}, {a.gradWeight, "gradWeightOut"},
                                       {a.gradBias, "gradBiasOut"}}) {
        if (tensor != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(tensor, name));
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{a.gradOut, "gradOut"}, {a.input, "input"}, {a.mean, "mean"},
                                                  {a.rstd, "rstd"}}));
    const std::vector<bool>& mask = values_of(a.outputMask);
    NormGradCall call{kLayerNormBackward, RowFunction::kLayerNormBackward, {a.gradOut, a.input}, {},
                      mask[0] ? a.gradInput : nullptr, mask[1] ? a.gradWeight : nullptr,
                      mask[2] ? a.gradBias : nullptr, m, n, leading_dims(begin)};
    if ((call.dx == nullptr && call.dgamma == nullptr && call.dbeta == nullptr) || n == 0 ||
        (m == 0 && call.dgamma == nullptr && call.dbeta == nullptr)) {
        return hand_back_empty_executor(call.inputs, {}, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_normalized_dims(a.input, normalized, false));
    RowOperands& operands = call.operands;
    operands.x = StridedLayout::of(view_of(a.gradOut));
    operands.other = StridedLayout::of(view_of(a.input));
    operands.otherSlot = 1;
    if (a.weight != nullptr) {
        operands.gamma = StridedLayout::of(view_of(a.weight));
        operands.gammaSlot = static_cast<int>(call.inputs.size());
        call.inputs.push_back(a.weight);
    }
    operands.statsRead = true;
    operands.mean = StridedLayout::of(view_of(a.mean));
    operands.meanSlot = static_cast<int>(call.inputs.size());
    call.inputs.push_back(a.mean);
    operands.rstd = StridedLayout::of(view_of(a.rstd));
    operands.rstdSlot = static_cast<int>(call.inputs.size());
    call.inputs.push_back(a.rstd);
    return hand_back_norm_grad(std::move(call), workspaceSize, executor);
}

// --- RmsNormGrad -----------------------------------------------------------------

constexpr const char* kRmsNormGrad = "aclnnRmsNormGrad";

/// The op def's dtype combinations for ascend910b (rms_norm_grad_def.cpp):
/// dy FLOAT16, BF16 or FLOAT; x and dx dy's; rstd and dgamma FLOAT; gamma
/// FLOAT or dy's.
aclnnStatus check_rms_norm_grad_dtypes(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd,
                                       const aclTensor* gamma, const aclTensor* dx, const aclTensor* dgamma) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported(dy, "dy", kNormDtypes));
    const aclDataType dtype = view_of(dy).dtype;
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(x, "x", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(rstd, "rstd", ACL_FLOAT));
    if (view_of(gamma).dtype != ACL_FLOAT) ACLCPU_RETURN_IF_ERROR(check_dtype_is(gamma, "gamma", dtype));
    ACLCPU_RETURN_IF_ERROR(check_dtype_is(dx, "dxOut", dtype));
    return check_dtype_is(dgamma, "dgammaOut", ACL_FLOAT);
}

/// A shape failure of RmsNormGrad's tiling: 561002, as its doc says.
constexpr aclnnStatus kTilingError = ACLNN_ERR_INNER_TILING_ERROR;

/// CheckInputDim and CheckOutputDim of rms_norm_grad_tiling.cpp.
aclnnStatus check_rms_norm_grad_ranks(const Dims& dy, const Dims& x, const Dims& gamma, const Dims& dx,
                                      const Dims& dgamma) {
    if (x.empty() || x.size() > kMaxDims) return param_error(kTilingError, "x's dim %zu should be in the range of [1, 8].", x.size());
    if (gamma.empty() || gamma.size() > kMaxDims) {
        return param_error(kTilingError, "gamma's dim %zu should be in the range of [1, 8].", gamma.size());
    }
    if (gamma.size() > x.size()) {
        return param_error(kTilingError, "gamma and x dims %zu and %zu: the shape dim of input gamma must be less than or equal to "
                            "that of input x.", gamma.size(), x.size());
    }
    if (dy.size() != x.size()) {
        return param_error(kTilingError, "dy and x dims %zu and %zu: the shape dims of input dy and input x must be the same.",
                            dy.size(), x.size());
    }
    if (dx.size() != dy.size()) {
        return param_error(kTilingError, "dx and dy dims %zu and %zu: the shape dims of output dx and input dy must be the same.",
                            dx.size(), dy.size());
    }
    if (dgamma.size() != gamma.size()) {
        return param_error(kTilingError, "dgamma and gamma dims %zu and %zu: the shape dims of output dgamma and input gamma must "
                            "be the same.", dgamma.size(), gamma.size());
    }
    return ACLNN_SUCCESS;
}

/// CheckRstdShape: rstd's dims are x's first ones (x's dims past rstd's,
/// before gamma's, 1).
aclnnStatus check_rstd_shape(const Dims& x, const Dims& rstd, size_t rowDims) {
    const size_t compared = std::min(rstd.size(), rowDims);
    for (size_t d = 0; d < compared; ++d) {
        if (rstd[d] != x[d]) {
            return param_error(kTilingError, "rstd and x shapes %s and %s: the shape of input rstd must be the same as the shape "
                                "consisting of the first %zu axes of input x.", shape_string(rstd).c_str(),
                                shape_string(x).c_str(), compared);
        }
    }
    for (size_t d = compared; d < rowDims; ++d) {
        if (x[d] != 1) return param_error(kTilingError, "x shape %s: the %zuth axis of input x must be 1.", shape_string(x).c_str(), d);
    }
    return ACLNN_SUCCESS;
}

/// CheckGammaAndDgammaShape: gamma and dgamma are dy's last dims.
aclnnStatus check_gamma_shapes(const Dims& dy, const Dims& gamma, const Dims& dgamma) {
    const size_t rowDims = dy.size() - gamma.size();
    for (size_t d = 0; d < gamma.size(); ++d) {
        const char* which = gamma[d] != dy[rowDims + d] ? "gamma" : dgamma[d] != dy[rowDims + d] ? "dgamma" : nullptr;
        if (which == nullptr) continue;
        return param_error(kTilingError, "%s and dy shapes %s and %s: the shape of %s %s must be the same as the shape consisting "
                            "of the last %zu axes of input dy.", which, shape_string(which[0] == 'g' ? gamma : dgamma).c_str(),
                            shape_string(dy).c_str(), which[0] == 'g' ? "input" : "output", which, gamma.size());
    }
    return ACLNN_SUCCESS;
}

/// Tiling4RmsNormGrad on A2 (not regbase): the shape checks, rstd of one
/// element per row, and no empty dy (the empty-tensor tiling is arch35's).
aclnnStatus check_rms_norm_grad_shapes(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd,
                                       const aclTensor* gamma, const aclTensor* dx, const aclTensor* dgamma) {
    const Dims& dyShape = view_of(dy).shape;
    const Dims& xShape = view_of(x).shape;
    const Dims& gammaShape = view_of(gamma).shape;
    ACLCPU_RETURN_IF_ERROR(check_rms_norm_grad_ranks(dyShape, xShape, gammaShape, view_of(dx).shape,
                                                     view_of(dgamma).shape));
    for (size_t d = 0; d < xShape.size(); ++d) {
        if (dyShape[d] != xShape[d]) {
            return param_error(kTilingError, "x and dy shapes %s and %s: the shapes of input x and input dy must be the same.",
                                shape_string(xShape).c_str(), shape_string(dyShape).c_str());
        }
        if (view_of(dx).shape[d] != dyShape[d]) {
            return param_error(kTilingError, "dx and dy shapes %s and %s: the shapes of output dx and input dy must be the same.",
                                shape_string(view_of(dx).shape).c_str(), shape_string(dyShape).c_str());
        }
    }
    if (dyShape[dyShape.size() - 1] == 0) {
        return param_error(kTilingError, "dy shape %s: the last axis of input dy can not be 0.", shape_string(dyShape).c_str());
    }
    const size_t rowDims = xShape.size() - gammaShape.size();
    ACLCPU_RETURN_IF_ERROR(check_rstd_shape(xShape, view_of(rstd).shape, rowDims));
    ACLCPU_RETURN_IF_ERROR(check_gamma_shapes(dyShape, gammaShape, view_of(dgamma).shape));
    const int64_t rows = product(dyShape, 0, rowDims);
    if (view_of(rstd).numel() != rows) {
        return param_error(kTilingError, "rstd shape %s: it should hold %ld elements, one per row of dy.",
                            shape_string(view_of(rstd).shape).c_str(), static_cast<long>(rows));
    }
    if (rows == 0) return param_error(kTilingError, "dy shape size 0: parameter dy does not support empty tensor.");
    return ACLNN_SUCCESS;
}

/// RmsNormGrad's aclnn is generated from its op def (no op_api): null
/// checks in argument order, the def's dtype combinations (161002), then
/// the tiling's shape checks (561002).  dx in dy's dtype, dgamma FLOAT.
aclnnStatus rms_norm_grad(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd, const aclTensor* gamma,
                          const aclTensor* dx, const aclTensor* dgamma, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{dy, "dy"}, {x, "x"}, {rstd, "rstd"}, {gamma, "gamma"}, {dx, "dxOut"},
                                           {dgamma, "dgammaOut"}}));
    ACLCPU_RETURN_IF_ERROR(check_rms_norm_grad_dtypes(dy, x, rstd, gamma, dx, dgamma));
    ACLCPU_RETURN_IF_ERROR(check_rms_norm_grad_shapes(dy, x, rstd, gamma, dx, dgamma));
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{dy, "dy"}, {x, "x"}, {rstd, "rstd"}, {gamma, "gamma"},
                                                  {dx, "dxOut"}, {dgamma, "dgammaOut"}}));
    const Dims& shape = view_of(dy).shape;
    const size_t rowDims = shape.size() - view_of(gamma).shape.size();
    NormGradCall call{kRmsNormGrad, RowFunction::kRmsNormBackward, {dy, x, rstd, gamma}, {}, dx, dgamma, nullptr,
                      product(shape, 0, rowDims), product(shape, rowDims, shape.size()), leading_dims(rowDims)};
    RowOperands& operands = call.operands;
    operands.x = StridedLayout::of(view_of(dy));
    operands.other = StridedLayout::of(view_of(x));
    operands.otherSlot = 1;
    operands.statsRead = true;
    operands.rstd = StridedLayout::of(view_of(rstd));
    operands.rstdSlot = 2;
    operands.gamma = StridedLayout::of(view_of(gamma));
    operands.gammaSlot = 3;
    return hand_back_norm_grad(std::move(call), workspaceSize, executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" {

aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                   const aclIntArray* normalizedShape, const aclTensor* mean,
                                                   const aclTensor* rstd, const aclTensor* weightOptional,
                                                   const aclTensor* biasOptional, const aclBoolArray* outputMask,
                                                   aclTensor* gradInputOut, aclTensor* gradWeightOut,
                                                   aclTensor* gradBiasOut, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    return aclcpu::ops::layer_norm_backward({gradOut, input, normalizedShape, mean, rstd, weightOptional, biasOptional,
                                             outputMask, gradInputOut, gradWeightOut, gradBiasOut},
                                            workspaceSize, executor);
}

aclnnStatus aclnnRmsNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd,
                                             const aclTensor* gamma, const aclTensor* dxOut, const aclTensor* dgammaOut,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclcpu::ops::rms_norm_grad(dy, x, rstd, gamma, dxOut, dgammaOut, workspaceSize, executor);
}

}  // extern "C"

ACLCPU_DEFINE_PHASE2(aclnnLayerNormBackward)
ACLCPU_DEFINE_PHASE2(aclnnRmsNormGrad)
