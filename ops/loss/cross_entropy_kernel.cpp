// acl-cpu: CrossEntropyLoss's and CrossEntropyLossGrad's kernels (see
// cross_entropy_kernel.hpp).
#include "loss/cross_entropy_kernel.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <utility>

#include "common/block_launch.hpp"

namespace aclcpu::ops {
namespace {

constexpr int kTargetSlot = 1;

float class_weight(const CrossEntropyRows& rows, const LaunchArgs& args, int64_t cls) noexcept {
    if (rows.weightSlot < 0) return 1.0f;
    float value = 0;
    gather(rows.weight, args.inputs[rows.weightSlot], cls, 1, &value);
    return value;
}

/// Runs kernel over one input and one output of the workspace or the launch.
aclError launch_stage(const OpKernel& kernel, const void* const* inputs, void* output, const LaunchArgs& args,
                      uint64_t reductionOffset) noexcept {
    void* outputs[1] = {output};
    return kernel.launch({inputs, outputs, static_cast<std::byte*>(args.workspace) + reductionOffset,
                          args.workspaceSize - reductionOffset});
}

}  // namespace

CrossEntropyWorkspace CrossEntropyWorkspace::plan(int64_t rows, int64_t classes, int64_t termsPerRow,
                                                  uint64_t reductionBytes) noexcept {
    const auto stride = [](int64_t floats) {
        return static_cast<uint64_t>(UbStaging::workspace_stride(floats * int64_t{sizeof(float)}));
    };
    CrossEntropyWorkspace workspace;
    workspace.terms = stride(rows * classes);
    workspace.sums = workspace.terms + stride(termsPerRow * rows);
    workspace.reduction = workspace.sums + stride(termsPerRow);
    workspace.total = workspace.reduction + reductionBytes;
    return workspace;
}

CrossEntropyKernelBase::CrossEntropyKernelBase(const char* name, CrossEntropyRows rows,
                                               std::shared_ptr<const OpKernel> sum,
                                               CrossEntropyWorkspace workspace) noexcept
    : name_(name), rows_(std::move(rows)), sum_(std::move(sum)), workspace_(workspace) {}

void CrossEntropyKernelBase::describe(std::string& details) const {
    append_trace_arg(details, "blockDim", rows_.blocks.count());
}

aclError CrossEntropyKernelBase::sum_terms(const LaunchArgs& args) const noexcept {
    const void* sumInputs[1] = {workspace_at(args, workspace_.terms)};
    return launch_stage(*sum_, sumInputs, workspace_at(args, workspace_.sums), args, workspace_.reduction);
}

CrossEntropyLossKernel::CrossEntropyLossKernel(const char* name, CrossEntropyRows rows,
                                               std::shared_ptr<const OpKernel> logSoftmax,
                                               std::shared_ptr<const OpKernel> sum, StridedLayout loss,
                                               StridedLayout logProb, CrossEntropyWorkspace workspace) noexcept
    : CrossEntropyKernelBase(name, std::move(rows), std::move(sum), workspace), logSoftmax_(std::move(logSoftmax)),
      loss_(std::move(loss)), logProb_(std::move(logProb)) {}

/// As ProcessFp32 / Process for one row (cross_entropy_loss.h): logProb out
/// (rounded once from fp32, CopyOut's Cast), the class's fp32 logProb times
/// its weight, and the smoothing sum of every class's logProb times its weight.
void CrossEntropyLossKernel::row_terms(const LaunchArgs& args, const float* logProb, float* terms,
                                       int64_t row) const noexcept {
    const int64_t classes = rows_.classes;
    const float* line = logProb + row * classes;
    scatter(line, logProb_, args.outputs[1], row * classes, classes);
    const int64_t cls = row_class(rows_.target, args.inputs[kTargetSlot], row, rows_.classes, rows_.ignoreIndex);
    const float weight = cls < 0 ? 0.0f : class_weight(rows_, args, cls);
    const float ln = cls < 0 ? 0.0f : line[cls] * weight;
    float smooth = 0;
    if (rows_.labelSmoothing > 0 && cls >= 0) {
        for (int64_t c = 0; c < classes; ++c) smooth += line[c] * class_weight(rows_, args, c);
    }
    const float scale = rows_.labelSmoothing / static_cast<float>(classes);
    if (rows_.reduction == NllReduction::kNone) {
        const float loss = rows_.labelSmoothing > 0 ? ln * (rows_.labelSmoothing - 1) + -smooth * scale : -ln;
        store_rounded(loss, rows_.dtype, loss_, args.outputs[0], row);
        return;
    }
    terms[row] = ln;
    terms[rows_.rows + row] = weight;
    terms[2 * rows_.rows + row] = -smooth;
}

/// CalcMeanLoss / CalcSumLoss over the three sums (ln, weight, smoothing).
void CrossEntropyLossKernel::write_reduced(const LaunchArgs& args, const float* sums) const noexcept {
    const float ls = rows_.labelSmoothing;
    float loss = ls > 0 ? (ls - 1) * sums[0] + sums[2] * (ls / static_cast<float>(rows_.classes)) : -sums[0];
    if (rows_.reduction == NllReduction::kMean) loss /= sums[1];
    store_rounded(loss, rows_.dtype, loss_, args.outputs[0], 0);
}

aclError CrossEntropyLossKernel::launch(const LaunchArgs& args) const noexcept {
    const size_t inputs = rows_.weightSlot < 0 ? 2 : 3;
    if (aclError status = check_tensor_addresses(name_, args, inputs, 2); status != ACL_SUCCESS) return status;
    const bool none = rows_.reduction == NllReduction::kNone;
    if (rows_.rows == 0) {  // the empty kernel: mean NaN, sum 0
        if (!none) {
            const float nothing[3] = {0.0f, 0.0f, 0.0f};
            write_reduced(args, nothing);
        }
        return ACL_SUCCESS;
    }
    float* logProb = workspace_at(args, 0);
    if (aclError status = launch_stage(*logSoftmax_, args.inputs, logProb, args, workspace_.total);
        status != ACL_SUCCESS) {
        return status;
    }
    float* terms = workspace_at(args, workspace_.terms);
    const int64_t rowBytes = rows_.classes * int64_t{sizeof(float)};
    if (aclError status = launch_block_slices(name_, rows_.blocks, rowBytes, 1, [&](const BlockSlice& slice) {
            for (int64_t row = slice.units.begin; row < slice.units.end; ++row) row_terms(args, logProb, terms, row);
        });
        status != ACL_SUCCESS || none) {
        return status;
    }
    if (aclError status = sum_terms(args); status != ACL_SUCCESS) return status;
    write_reduced(args, workspace_at(args, workspace_.sums));
    return ACL_SUCCESS;
}

CrossEntropyLossGradKernel::CrossEntropyLossGradKernel(const char* name, CrossEntropyRows rows,
                                                       std::shared_ptr<const OpKernel> rowsBackward,
                                                       std::shared_ptr<const OpKernel> sum, StridedLayout gradLoss,
                                                       CrossEntropyWorkspace workspace) noexcept
    : CrossEntropyKernelBase(name, std::move(rows), std::move(sum), workspace),
      rowsBackward_(std::move(rowsBackward)), gradLoss_(std::move(gradLoss)) {}

aclError CrossEntropyLossGradKernel::launch(const LaunchArgs& args) const noexcept {
    // Slots in aclnnCrossEntropyLossGrad's order: gradLoss, logProb, target, weight.
    constexpr int kGradTarget = 2;
    const size_t inputs = rows_.weightSlot < 0 ? 3 : 4;
    if (aclError status = check_tensor_addresses(name_, args, inputs, 1); status != ACL_SUCCESS) return status;
    const void* target = args.inputs[kGradTarget];
    float* weights = workspace_at(args, workspace_.terms);
    // GradReductionMeanSum: gradLoss * (1 - ls), over the rows' weight sum for mean.
    float shared = 0;
    gather(gradLoss_, args.inputs[0], 0, 1, &shared);
    shared *= 1 - rows_.labelSmoothing;
    if (rows_.reduction == NllReduction::kMean) {
        for (int64_t row = 0; row < rows_.rows; ++row) {
            const int64_t cls = row_class(rows_.target, target, row, rows_.classes, rows_.ignoreIndex);
            weights[row] = cls < 0 ? 0.0f : class_weight(rows_, args, cls);
        }
        if (aclError status = sum_terms(args); status != ACL_SUCCESS) return status;
        shared /= *workspace_at(args, workspace_.sums);
    }
    // The one-hot rows: -s at each row's class (ComputeLog's subtraction).
    float* oneHot = workspace_at(args, 0);
    const int64_t classes = rows_.classes;
    if (aclError status = launch_block_slices(name_, rows_.blocks, classes * int64_t{sizeof(float)}, 1,
                                              [&](const BlockSlice& slice) {
            std::memset(oneHot + slice.units.begin * classes, 0,
                        static_cast<size_t>(slice.units.size() * classes) * sizeof(float));
            for (int64_t row = slice.units.begin; row < slice.units.end; ++row) {
                const int64_t cls = row_class(rows_.target, target, row, rows_.classes, rows_.ignoreIndex);
                if (cls < 0) continue;
                float grad = shared;
                if (rows_.reduction == NllReduction::kNone) {
                    gather(gradLoss_, args.inputs[0], row, 1, &grad);
                    grad *= 1 - rows_.labelSmoothing;
                }
                oneHot[row * classes + cls] = -(grad * class_weight(rows_, args, cls));
            }
        });
        status != ACL_SUCCESS) {
        return status;
    }
    const void* rowInputs[2] = {oneHot, args.inputs[1]};
    return launch_stage(*rowsBackward_, rowInputs, args.outputs[0], args, workspace_.total);
}

}  // namespace aclcpu::ops
